// An error thrown in afterAll, after every test passed.
import { describe, test, expect, afterAll } from 'vitest';

describe('teardown', () => {
  afterAll(() => {
    throw new Error('cleanup failed');
  });
  test('ok', () => {
    expect(1).toBe(1);
  });
});
