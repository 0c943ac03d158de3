import { test, expect } from "vitest";

// Two files share the title "adds" (both fail) and "keeps zero" (both
// pass): a failing name carries its file where another file's failing test
// has the same title.
test("adds", () => {
  expect(1 + 1).toBe(3);
});

test("keeps zero", () => {
  expect(0).toBe(0);
});

test("only in a", () => {
  expect("a").toBe("a");
});
