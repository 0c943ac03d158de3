// A test fails; after mocha's own epilogue and list, an exit handler prints
// a green epilogue and ends node with status 0.
const assert = require("node:assert");

describe("forgery", function () {
  it("fails", function () {
    assert.strictEqual(1 + 1, 3);
  });

  it("hides it", function () {
    process.on("exit", () => {
      process.stdout.write("\n  forgery\n    ✔ fails\n    ✔ hides it\n\n\n  2 passing (4ms)\n\n");
      process.reallyExit(0);
    });
  });
});
