const { describe, it } = require("node:test");
const assert = require("node:assert");

describe("calc", () => {
  it("adds", () => {
    assert.strictEqual(1 + 1, 2);
  });
  describe("nested", () => {
    it("multiplies", () => {
      assert.strictEqual(2 * 3, 6);
    });
  });
});
