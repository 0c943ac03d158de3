const assert = require("node:assert");

describe("calc", function () {
  it("adds", function () {
    assert.strictEqual(1 + 1, 2);
  });
  describe("nested", function () {
    it("multiplies", function () {
      assert.strictEqual(2 * 3, 6);
    });
  });
});
