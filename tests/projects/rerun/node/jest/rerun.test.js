const fs = require("fs");
const path = require("path");

const MODE = process.env.TESTGATE_FIXTURE || "pass";
const COUNTER = path.join(__dirname, ".flaky-count");
let polluted = false;

function firstRun() {
  const runs = (fs.existsSync(COUNTER) ? Number(fs.readFileSync(COUNTER, "utf8")) : 0) + 1;
  fs.writeFileSync(COUNTER, String(runs));
  // testgate puts the tree back between attempts and numbers them: the
  // runs of earlier attempts (one each) come before this attempt's.
  const n = runs + Number(process.env.TESTGATE_ATTEMPT || 1) - 1;
  return n === 1;
}

describe("calc", () => {
  for (let i = 0; i < 20; i++) {
    test(`many ${i}`, () => {});
  }

  describe("named (x) [y] + ünï", () => {
    test("a.b*c|d^$ ✓", () => {
      expect(MODE).not.toBe("fail");
    });
    test("plain", () => {});
  });

  test("fails", () => {
    expect(MODE).not.toBe("fail");
  });

  // "fails" is a prefix of this name: an unanchored pattern would run it too.
  test("fails not", () => {});

  test("a pollutes", () => {
    polluted = true;
  });

  test("b victim", () => {
    expect(MODE === "order" && polluted).toBe(false);
  });

  test("sometimes", () => {
    if (MODE === "flaky") expect(firstRun()).toBe(false);
  });
});
