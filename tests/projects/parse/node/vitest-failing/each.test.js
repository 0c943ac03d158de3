// test.each with titles built from weird data.
import { describe, test, expect } from 'vitest';

describe('each', () => {
  test.each([
    ['a.b*c', 1],
    ['[x] › y', 2],
    ['日本語', 3],
  ])('case %s is %i', (name, n) => {
    expect(n).toBe(2);
  });
});
