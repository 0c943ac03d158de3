const assert = require("node:assert");

describe("only", function () {
  it.only("runs alone", function () {});
  it("would fail", function () {
    assert.fail("never runs under .only");
  });
});
