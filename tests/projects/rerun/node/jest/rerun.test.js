const fs = require("fs");
const path = require("path");

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
