const { describe, it } = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");

const MODE = process.env.TESTGATE_FIXTURE || "pass";
const COUNTER = path.join(__dirname, ".flaky-count");

function oddRun() {
  const runs = (fs.existsSync(COUNTER) ? Number(fs.readFileSync(COUNTER, "utf8")) : 0) + 1;
  fs.writeFileSync(COUNTER, String(runs));
  // testgate puts the tree back between attempts and numbers them: the
  // runs of earlier attempts (one each) come before this attempt's.
  const n = runs + Number(process.env.TESTGATE_ATTEMPT || 1) - 1;
  return n % 2 === 1;
}

const add = (a, b) => a + b;

describe("calc", () => {
  it("adds", () => {
    assert.strictEqual(add(2, 2), 4);
  });

  it("adds negative", () => {
    assert.strictEqual(add(1, -2), MODE === "fail" ? 0 : -1);
  });

  describe("big", () => {
    it("millions", () => {
      assert.strictEqual(add(1e6, 1e6), MODE === "fail" ? 1 : 2e6);
    });
  });

  it("sometimes", () => {
    if (MODE === "flaky") assert.strictEqual(oddRun(), false);
  });

  it("hangs", async () => {
    if (MODE === "hang") await new Promise((r) => setTimeout(r, 3600e3));
  });
});
