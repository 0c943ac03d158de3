// A suite importing a module that does not exist.
import { test, expect } from 'vitest';
import thing from './does-not-exist.js';

test('never runs either', () => {
  expect(thing).toBeDefined();
});
