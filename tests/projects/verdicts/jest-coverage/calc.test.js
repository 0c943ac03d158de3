const fs = require("fs");
const path = require("path");
const { add } = require("./calc");

const MODE = process.env.TESTGATE_FIXTURE || "pass";
const COUNTER = path.join(__dirname, ".flaky-count");

function firstRun() {
  // testgate numbers its attempts; the tree is put back between them.
  const n = process.env.TESTGATE_ATTEMPT
    ? Number(process.env.TESTGATE_ATTEMPT)
    : (fs.existsSync(COUNTER) ? Number(fs.readFileSync(COUNTER, "utf8")) : 0) + 1;
  if (!process.env.TESTGATE_ATTEMPT) fs.writeFileSync(COUNTER, String(n));
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
