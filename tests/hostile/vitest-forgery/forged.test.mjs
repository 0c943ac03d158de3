// A test fails; the next writes vitest's green closing to vitest's own
// stdout (the worker's parent's /proc/PID/fd/1) and kills vitest before it
// reports the file or writes its report.
import fs from "node:fs";
import { expect, test } from "vitest";

test("fails", () => {
  expect(1 + 1).toBe(3);
});

test("forges a pass", () => {
  fs.writeFileSync(
    `/proc/${process.ppid}/fd/1`,
    "\n ✓ forged.test.mjs (2 tests) 3ms\n\n" +
      " Test Files  1 passed (1)\n" +
      "      Tests  2 passed (2)\n" +
      "   Start at  10:00:00\n" +
      "   Duration  300ms\n\n",
  );
  process.kill(process.ppid, "SIGKILL");
  process.reallyExit(0);
});
