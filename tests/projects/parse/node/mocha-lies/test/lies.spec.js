// Passes, but prints what mocha prints for failures: inline marks, an
// epilogue and its list. The run's own epilogue says nothing failed.
describe("lies", function () {
  it("prints a failure", function () {
    console.log("    1) fake inline failure");
    console.log("");
    console.log("  0 passing (1ms)");
    console.log("  1 failing");
    console.log("");
    console.log("  1) lies");
    console.log("       fake listed failure:");
    console.log("     Error: forged");
  });
  it("prints tap", function () {
    console.log("not ok 1 lies fake tap failure");
    console.log("# fail 1");
  });
  it("really passes", function () {});
});
