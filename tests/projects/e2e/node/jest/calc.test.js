const fs = require("fs");
const path = require("path");

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

// `retried`: jest retries a failed test itself, without logging the
// failure (no logErrorsBeforeRetry), and "once" fails on its first try.
if (MODE === "retried") jest.retryTimes(2);
let tries = 0;

describe("calc", () => {
  test("adds", () => {
    expect(add(2, 2)).toBe(4);
  });

  test("adds negative", () => {
    expect(add(1, -2)).toBe(MODE === "fail" ? 0 : -1);
  });

  describe("big", () => {
    test("millions", () => {
      expect(add(1e6, 1e6)).toBe(MODE === "fail" ? 1 : 2e6);
    });
  });

  test("once", () => {
    tries += 1;
    if (MODE === "retried") expect(tries).toBeGreaterThan(1);
  });

  test("sometimes", () => {
    if (MODE === "flaky") expect(oddRun()).toBe(false);
  });

  test("hangs", async () => {
    if (MODE === "hang") await new Promise((r) => setTimeout(r, 3600e3));
  }, 3700e3);
});
