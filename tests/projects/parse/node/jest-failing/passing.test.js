test('passes', () => {
  expect(1).toBe(1);
});
