// A test that outlives its own 100 ms timeout: flaky-looking, fails every time.
import { test, expect } from 'vitest';

test('slow network call', async () => {
  await new Promise((resolve) => setTimeout(resolve, 400));
}, 100);

test('fast one', () => {
  console.log('a console line in a passing test');
  expect(1).toBe(1);
});
