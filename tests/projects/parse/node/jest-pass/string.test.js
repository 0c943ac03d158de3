test('concatenates', () => {
  expect('a' + 'b').toBe('ab');
});
