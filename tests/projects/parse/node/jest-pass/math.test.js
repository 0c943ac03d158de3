describe('math', () => {
  test('adds', () => {
    expect(1 + 2).toBe(3);
  });
  describe('nested', () => {
    test('multiplies', () => {
      expect(2 * 3).toBe(6);
    });
  });
  test.skip('skipped', () => {});
  test.todo('todo');
});
