const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");

const MODE = process.env.TESTGATE_FIXTURE || "pass";
const COUNTER = path.join(__dirname, "..", ".flaky-count");

function oddRun() {
  const runs = (fs.existsSync(COUNTER) ? Number(fs.readFileSync(COUNTER, "utf8")) : 0) + 1;
  fs.writeFileSync(COUNTER, String(runs));
  // testgate puts the tree back between attempts and numbers them: the
  // runs of earlier attempts (one each) come before this attempt's.
  const n = runs + Number(process.env.TESTGATE_ATTEMPT || 1) - 1;
  return n % 2 === 1;
}

const add = (a, b) => a + b;

describe("calc", function () {
  it("adds", function () {
    assert.strictEqual(add(2, 2), 4);
  });

  it("adds negative", function () {
    assert.strictEqual(add(1, -2), MODE === "fail" ? 0 : -1);
  });

  describe("big", function () {
    it("millions", function () {
      assert.strictEqual(add(1e6, 1e6), MODE === "fail" ? 1 : 2e6);
    });
  });

  let tries = 0;
  it("sometimes", function () {
    // `retried`: mocha's own retry passes it on its second try.
    this.retries(MODE === "retried" ? 1 : 0);
    if (MODE === "flaky") assert.strictEqual(oddRun(), false);
    if (MODE === "retried") {
      tries += 1;
      assert.ok(tries > 1, "fails on its first try");
    }
  });

  it("hangs", async function () {
    this.timeout(0);
    if (MODE === "hang") await new Promise((r) => setTimeout(r, 3600e3));
  });
});
