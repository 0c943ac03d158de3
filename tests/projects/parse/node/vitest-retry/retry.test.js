import { test, expect } from "vitest";

// Fails on its first try and passes on the retry: vitest --retry hides it.
let tries = 0;
test("fails once", () => {
  tries += 1;
  expect(tries).toBeGreaterThan(1);
});

test("steady", () => {
  expect(1).toBe(1);
});
