const fs = require("fs");
const path = require("path");
const { add } = require("./calc");

const MODE = process.env.TESTGATE_FIXTURE || "pass";
const COUNTER = path.join(__dirname, ".flaky-count");

function firstRun() {
  const runs = (fs.existsSync(COUNTER) ? Number(fs.readFileSync(COUNTER, "utf8")) : 0) + 1;
  fs.writeFileSync(COUNTER, String(runs));
  // testgate puts the tree back between attempts and numbers them: the
  // runs of earlier attempts (one each) come before this attempt's.
  const n = runs + Number(process.env.TESTGATE_ATTEMPT || 1) - 1;
  return n === 1;
}

describe("calc", () => {
  test("adds", () => {
    expect(add(1, 2)).toBe(3);
  });
  test("adds negative", () => {
    expect(add(-1, -2)).toBe(-3);
  });
  test("flaky", () => {
    expect(MODE === "flaky" && firstRun()).toBe(false);
  });
});
