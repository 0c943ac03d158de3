// Both files hold "math › adds" and "math › keeps zero": one name in two
// files. TESTGATE_FIXTURE=fail fails the "adds" of b.test.js alone,
// fail-a the "adds" of a.test.js alone, fail-both both; flaky fails the
// "adds" of b.test.js in odd attempts (TESTGATE_ATTEMPT) alone.
const MODE = process.env.TESTGATE_FIXTURE || "pass";
const ODD = Number(process.env.TESTGATE_ATTEMPT || "1") % 2 === 1;
const FAILS = MODE === "fail" || MODE === "fail-both" || (MODE === "flaky" && ODD);

describe("math", () => {
  test("adds", () => {
    expect(1 + 1).toBe(FAILS ? 3 : 2);
  });

  test("keeps zero", () => {
    expect(0 + 0).toBe(0);
  });
});
