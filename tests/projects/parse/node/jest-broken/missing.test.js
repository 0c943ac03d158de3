// A suite importing a module that does not exist.
const thing = require('./does-not-exist');

test('never runs either', () => {
  expect(thing).toBeDefined();
});
