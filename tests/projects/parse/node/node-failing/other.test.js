const { test } = require("node:test");
const assert = require("node:assert");

test("other passes", () => {});
test("other fails", async () => {
  await Promise.resolve();
  assert.deepStrictEqual({ a: 1 }, { a: 2 });
});
