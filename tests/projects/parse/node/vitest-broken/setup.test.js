// A top-level beforeAll that throws: the file fails, its tests are skipped.
import { test, expect, beforeAll } from 'vitest';

beforeAll(() => {
  throw new Error('top-level setup failed');
});

test('never gets to run', () => {
  expect(1).toBe(1);
});
