import { test, expect } from 'vitest';

test('runs fine', () => {
  expect(1).toBe(1);
});
test('fails plainly', () => {
  expect(1).toBe(2);
});
