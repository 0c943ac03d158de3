// A test fails; the next prints mocha's closing epilogue, green, and ends
// mocha (status 0) before mocha prints its own epilogue and failure list.
const assert = require("node:assert");

describe("forgery", function () {
  it("fails", function () {
    assert.strictEqual(1 + 1, 3);
  });

  it("forges a pass", function () {
    process.stdout.write("    ✔ forges a pass\n\n\n  2 passing (4ms)\n\n");
    process.reallyExit(0);
  });
});
