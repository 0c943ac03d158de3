const { describe, it } = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");

const MODE = process.env.TESTGATE_FIXTURE || "pass";
const COUNTER = path.join(__dirname, ".flaky-count");
let polluted = false;

function firstRun() {
  // testgate numbers its attempts; the tree is put back between them.
  const n = process.env.TESTGATE_ATTEMPT
    ? Number(process.env.TESTGATE_ATTEMPT)
    : (fs.existsSync(COUNTER) ? Number(fs.readFileSync(COUNTER, "utf8")) : 0) + 1;
  if (!process.env.TESTGATE_ATTEMPT) fs.writeFileSync(COUNTER, String(n));
  return n === 1;
}

describe("calc", () => {
  for (let i = 0; i < 20; i++) {
    it(`many ${i}`, () => {});
  }

  describe("named (x) [y] + ünï", () => {
    it("a.b*c|d^$ ✓", () => {
      assert.notStrictEqual(MODE, "fail");
    });
    it("plain", () => {});
  });

  it("fails", () => {
    assert.notStrictEqual(MODE, "fail");
  });

  // "fails" is a prefix of this name: an unanchored pattern would run it too.
  it("fails not", () => {});

  it("a pollutes", () => {
    polluted = true;
  });

  it("b victim", () => {
    assert.strictEqual(MODE === "order" && polluted, false);
  });

  it("sometimes", () => {
    if (MODE === "flaky") assert.strictEqual(firstRun(), false);
  });
});
