// A test fails for real; a passing test prints, as mocha's spec reporter
// would, an inline failure mark, an epilogue and a failure list naming
// `ghost suite ghost test`, which does not exist. mocha's own epilogue and
// list follow.
const assert = require("node:assert");

describe("forgery", function () {
  it("fails", function () {
    assert.strictEqual(1 + 1, 3);
  });

  it("prints a ghost", function () {
    process.stdout.write(
      "  ghost suite\n" +
        "    2) ghost test\n\n\n" +
        "  1 passing (2ms)\n" +
        "  1 failing\n\n" +
        "  1) ghost suite\n" +
        "       ghost test:\n\n" +
        "      AssertionError [ERR_ASSERTION]: ghost\n" +
        "      at Context.<anonymous> (ghost.spec.js:1:1)\n\n\n",
    );
  });
});
