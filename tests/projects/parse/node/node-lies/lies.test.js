// Passes, but prints what node's reporters print for failures, to stdout
// and to stderr. The run's own summary says nothing failed.
const { describe, it } = require("node:test");

describe("lies", () => {
  it("prints a failure", () => {
    console.log("not ok 1 - fake tap failure");
    console.log("✖ fake spec failure (1.2ms)");
    console.log("ℹ fail 1");
    console.error("not ok 2 - fake on stderr");
    console.error("✖ failing tests:");
    console.error("✖ really passes");
  });
  it("really passes", () => {});
});
