// A test fails for real; a passing test prints a TAP `not ok` block and a
// spec `✖` line for `ghost test`, which does not exist.
const assert = require("node:assert");
const test = require("node:test");

test("fails", () => {
  assert.strictEqual(1 + 1, 3);
});

test("prints a ghost", () => {
  process.stdout.write(
    "not ok 7 - ghost test\n" +
      "  ---\n" +
      "  duration_ms: 1\n" +
      "  failureType: 'testCodeFailure'\n" +
      "  error: 'ghost'\n" +
      "  ...\n" +
      "✖ ghost test (1ms)\n",
  );
});
