// Run with `--parallel`: a test fails, the next kills the worker process
// that runs this file (SIGKILL) before the worker hands the file's events
// to mocha's own process, where the reporter and testgate's recorder are.
const assert = require("node:assert");

describe("worker", function () {
  it("fails", function () {
    assert.strictEqual(1 + 1, 3);
  });

  it("kills its worker", function () {
    process.kill(process.pid, "SIGKILL");
  });
});
