// Fails on purpose: a failing test, a nested suite whose names hold regex
// metacharacters, a hook that throws, pending tests and a test that
// passes on its retry (mocha's spec reporter prints it as passed).
const assert = require("node:assert");

describe("calc", function () {
  it("adds", function () {
    assert.strictEqual(1 + 1, 2);
  });
  it("adds negative", function () {
    assert.strictEqual(1 + -2, 0);
  });
  describe("big (1+1) [x]? + ünï", function () {
    it("millions $ ^ a.b*c|d", function () {
      assert.strictEqual(1e6 + 1e6, 1);
    });
    it.skip("skipped one", function () {});
    it("pending without a body");
  });
  describe("retried", function () {
    this.retries(2);
    let runs = 0;
    it("fails once", function () {
      runs += 1;
      assert.ok(runs > 1, "fails on its first try");
    });
  });
  it("throws a plain error", function () {
    throw new Error("boom");
  });
});

describe("db", function () {
  before(function () {
    throw new Error("setup broke");
  });
  it("reads", function () {});
  it("writes", function () {});
});
