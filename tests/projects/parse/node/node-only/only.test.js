const { describe, it } = require("node:test");
const assert = require("node:assert");

describe("only", () => {
  it.only("runs alone", () => {});
  it("would fail", () => {
    assert.fail("never runs under --test-only");
  });
});
