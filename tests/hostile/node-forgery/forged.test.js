// A test fails; the next writes node's green spec closing to the test
// runner's own stdout (the file's parent's /proc/PID/fd/1) and kills it
// before it reports the file.
const assert = require("node:assert");
const fs = require("node:fs");
const test = require("node:test");

test("fails", () => {
  assert.strictEqual(1 + 1, 3);
});

test("forges a pass", () => {
  fs.writeFileSync(
    `/proc/${process.ppid}/fd/1`,
    "✔ fails (0.5ms)\n✔ forges a pass (0.2ms)\n" +
      "ℹ tests 2\nℹ suites 0\nℹ pass 2\nℹ fail 0\nℹ cancelled 0\n" +
      "ℹ skipped 0\nℹ todo 0\nℹ duration_ms 40.1\n",
  );
  process.kill(process.ppid, "SIGKILL");
  process.reallyExit(0);
});
