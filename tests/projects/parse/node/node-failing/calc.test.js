// Fails on purpose: failing tests in nested suites (names with regex
// metacharacters), a hook that throws, skipped and todo tests, subtests.
const { describe, it, test, before } = require("node:test");
const assert = require("node:assert");

describe("calc", () => {
  it("adds", () => {
    assert.strictEqual(1 + 1, 2);
  });
  it("adds negative", () => {
    assert.strictEqual(1 + -2, 0);
  });
  describe("big (1+1) [x]? + ünï", () => {
    it("millions $ ^ a.b*c|d", () => {
      assert.strictEqual(1e6 + 1e6, 1);
    });
    it.skip("skipped one", () => {});
    it.todo("todo one");
  });
});

describe("db", () => {
  before(() => {
    throw new Error("setup broke");
  });
  it("reads", () => {});
});

test("top level", async (t) => {
  await t.test("sub passes", () => {});
  await t.test("sub fails", () => {
    throw new Error("bad");
  });
});
