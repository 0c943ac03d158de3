const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");

const MODE = process.env.TESTGATE_FIXTURE || "pass";
const COUNTER = path.join(__dirname, "..", ".flaky-count");
let polluted = false;

function firstRun() {
  const runs = (fs.existsSync(COUNTER) ? Number(fs.readFileSync(COUNTER, "utf8")) : 0) + 1;
  fs.writeFileSync(COUNTER, String(runs));
  // testgate puts the tree back between attempts and numbers them: the
  // runs of earlier attempts (one each) come before this attempt's.
  const n = runs + Number(process.env.TESTGATE_ATTEMPT || 1) - 1;
  return n === 1;
}

describe("calc", function () {
  for (let i = 0; i < 20; i++) {
    it(`many ${i}`, function () {});
  }

  describe("named (x) [y] + ünï", function () {
    it("a.b*c|d^$ ✓", function () {
      assert.notStrictEqual(MODE, "fail");
    });
    it("plain", function () {});
  });

  it("fails", function () {
    assert.notStrictEqual(MODE, "fail");
  });

  // "fails" is a prefix of this name: an unanchored pattern would run it too.
  it("fails not", function () {});

  it("a pollutes", function () {
    polluted = true;
  });

  it("b victim", function () {
    assert.strictEqual(MODE === "order" && polluted, false);
  });

  it("sometimes", function () {
    if (MODE === "flaky") assert.strictEqual(firstRun(), false);
  });
});
