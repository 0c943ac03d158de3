import { describe, test, expect } from "vitest";
import fs from "fs";
import path from "path";

const MODE = process.env.TESTGATE_FIXTURE || "pass";
const COUNTER = path.join(path.dirname(new URL(import.meta.url).pathname), ".flaky-count");
let polluted = false;

function firstRun() {
  const runs = (fs.existsSync(COUNTER) ? Number(fs.readFileSync(COUNTER, "utf8")) : 0) + 1;
  fs.writeFileSync(COUNTER, String(runs));
  // testgate puts the tree back between attempts and numbers them: the
  // runs of earlier attempts (one each) come before this attempt's.
  const n = runs + Number(process.env.TESTGATE_ATTEMPT || 1) - 1;
  return n === 1;
}

describe("calc", () => {
  for (let i = 0; i < 20; i++) {
    test(`many ${i}`, () => {});
  }

  describe("named (x) [y] + ünï", () => {
    test("a.b*c|d^$ ✓", () => {
      expect(MODE).not.toBe("fail");
    });
    test("plain", () => {});
  });

  // Passes even in `fail` mode: vitest writes each failure to stderr and its
  // summary to stdout, and where the two pipes interleave a failure block
  // can land after the summary, where the parser no longer reads names.
  // One failing test keeps the targeted-retry test about selection.
  test("fails", () => {});

  // "fails" is a prefix of this name: an unanchored pattern would run it too.
  test("fails not", () => {});

  test("a pollutes", () => {
    polluted = true;
  });

  test("b victim", () => {
    expect(MODE === "order" && polluted).toBe(false);
  });

  test("sometimes", () => {
    if (MODE === "flaky") expect(firstRun()).toBe(false);
  });
});
