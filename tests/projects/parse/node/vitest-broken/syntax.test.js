// A suite that cannot even be parsed.
import { describe, test, expect } from 'vitest';

describe('syntax', () => {
  test('never runs', () => {
    expect(1).toBe(1);
  };
});
