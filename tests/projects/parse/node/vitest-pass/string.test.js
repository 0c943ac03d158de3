import { test, expect } from 'vitest';

test('concatenates', () => {
  expect('a' + 'b').toBe('ab');
});
