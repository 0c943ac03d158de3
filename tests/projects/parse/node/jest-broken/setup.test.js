// A top-level beforeAll that throws: every test of the file fails.
beforeAll(() => {
  throw new Error('top-level setup failed');
});

test('never gets to run', () => {
  expect(1).toBe(1);
});
