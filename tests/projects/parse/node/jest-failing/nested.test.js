// Failures inside nested describes, with titles that are hard to spell.
describe('parser', () => {
  describe('numbers', () => {
    test('adds two numbers', () => {
      expect(1 + 1).toBe(3);
    });
    test('keeps zero', () => {
      expect(0).toBe(0);
    });
  });

  describe('titles › with the separator inside', () => {
    test('ünïcödé ✓ and  two spaces', () => {
      expect('a').toEqual('b');
    });
    test('regex (a+b)*[c]? ^$ | \\d{2} .', () => {
      throw new Error('metacharacters');
    });
    test('takes (5 ms)', () => {
      expect(true).toBe(false);
    });
  });

  test.skip('is skipped', () => {});
  test.todo('is not written yet');
});

test('top-level failure', () => {
  expect([1, 2]).toContain(3);
});
