describe('teardown', () => {
  afterAll(() => { throw new Error('cleanup failed'); });
  test('ok', () => { expect(1).toBe(1); });
});
