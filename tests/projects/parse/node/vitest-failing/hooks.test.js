// An error thrown in beforeAll fails its describe.
import { describe, test, expect, beforeAll } from 'vitest';

describe('database', () => {
  beforeAll(() => {
    throw new Error('cannot connect');
  });
  test('reads a row', () => {
    expect(1).toBe(1);
  });
  test('writes a row', () => {
    expect(1).toBe(1);
  });
});

describe('unaffected', () => {
  test('still passes', () => {
    expect(2).toBe(2);
  });
});
