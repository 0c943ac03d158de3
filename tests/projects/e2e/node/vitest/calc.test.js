import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const MODE = process.env.TESTGATE_FIXTURE || "pass";
const COUNTER = path.join(import.meta.dirname, ".flaky-count");

function oddRun() {
  // testgate numbers its attempts; the tree is put back between them.
  const n = process.env.TESTGATE_ATTEMPT
    ? Number(process.env.TESTGATE_ATTEMPT)
    : (fs.existsSync(COUNTER) ? Number(fs.readFileSync(COUNTER, "utf8")) : 0) + 1;
  if (!process.env.TESTGATE_ATTEMPT) fs.writeFileSync(COUNTER, String(n));
  return n % 2 === 1;
}

const add = (a, b) => a + b;

// `retried` (run with `--retry 2`): "once" fails on its first try.
let tries = 0;

describe("calc", () => {
  test("adds", () => {
    expect(add(2, 2)).toBe(4);
  });

  test("adds negative", () => {
    expect(add(1, -2)).toBe(MODE === "fail" ? 0 : -1);
  });

  describe("big", () => {
    test("millions", () => {
      expect(add(1e6, 1e6)).toBe(MODE === "fail" ? 1 : 2e6);
    });
  });

  test("once", () => {
    tries += 1;
    if (MODE === "retried") expect(tries).toBeGreaterThan(1);
  });

  test("sometimes", () => {
    if (MODE === "flaky") expect(oddRun()).toBe(false);
  });

  test("hangs", async () => {
    if (MODE === "hang") await new Promise((r) => setTimeout(r, 3600e3));
  }, 3700e3);
});
