const sum = require('./sum');

test('adds', () => {
  expect(sum(2, 2)).toBe(4);
});

test('adds zero', () => {
  expect(sum(0, 0)).toBe(0);
});
