const assert = require("node:assert");

describe("other", function () {
  it("passes", function () {});
  it("fails too", async function () {
    await Promise.resolve();
    assert.deepStrictEqual({ a: 1 }, { a: 2 });
  });
});
