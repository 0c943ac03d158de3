// Titles node's tap reporter escapes (`\` and `#`), each failing so that
// its name is in the .expected: testgate reads them back unescaped, as
// the spec and junit reporters print them (issue 36).
const { test, describe } = require("node:test");
const assert = require("node:assert");

test("hash # in title", () => {
  assert.fail("fails on purpose");
});

test("back\\slash and \\# both", () => {
  assert.fail("fails on purpose");
});

describe("suite #1 \\ tools", () => {
  test("inner # one", () => {
    assert.fail("fails on purpose");
  });
  test("passes # too", () => {});
});
