// Titles with leading, trailing and doubled spaces, kept byte for byte in
// mocha's names as its json reporter's `fullTitle` keeps them (issue 36).
const assert = require("assert");

describe("  lead suite", () => {
  it("  lead", () => {
    assert.fail("fails on purpose");
  });
  it("trail  ", () => {
    assert.fail("fails on purpose");
  });
  it("dou  ble", () => {
    assert.fail("fails on purpose");
  });
});

describe("plain", () => {
  describe("nested  twice", () => {
    it(" one lead", () => {
      assert.fail("fails on purpose");
    });
  });
  it("passes", () => {});
});
