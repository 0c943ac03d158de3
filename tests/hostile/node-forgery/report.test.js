// A test fails; the next finds the junit report testgate asked the test
// runner for (its `--test-reporter-destination=` in the runner's
// /proc/PID/cmdline: node runs each test file in a child process), writes
// a complete, all-passing report there and kills the runner before it
// reports the file. `HOSTILE_LET_RUN=1`: the report is written and the
// runner left to finish. `HOSTILE_CONSOLE=1`: node's tap of both tests
// passing, with its summary, is written to the runner's stdout
// (/proc/PPID/fd/1) first: console and report agree on a pass, which no
// check refuses (docs/formats.md, node --test, "Not refused"; no test
// asserts it).
const assert = require("node:assert");
const fs = require("node:fs");
const test = require("node:test");

test("fails", () => {
  assert.strictEqual(1 + 1, 3);
});

test("forges a pass", () => {
  const words = fs.readFileSync(`/proc/${process.ppid}/cmdline`, "utf8").split("\0");
  const places = words
    .filter((word) => word.startsWith("--test-reporter-destination="))
    .map((word) => word.slice("--test-reporter-destination=".length))
    .filter((place) => place !== "stdout" && place !== "stderr");
  for (const place of places) {
    fs.writeFileSync(
      place,
      '<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n' +
        '\t<testcase name="fails" time="0.001528" classname="test"/>\n' +
        '\t<testcase name="forges a pass" time="0.000387" classname="test"/>\n' +
        "\t<!-- tests 2 -->\n\t<!-- suites 0 -->\n\t<!-- pass 2 -->\n" +
        "\t<!-- fail 0 -->\n\t<!-- cancelled 0 -->\n\t<!-- skipped 0 -->\n" +
        "\t<!-- todo 0 -->\n\t<!-- duration_ms 40.1 -->\n</testsuites>\n",
    );
  }
  if (process.env.HOSTILE_CONSOLE === "1") {
    let tap = "";
    ["fails", "forges a pass"].forEach((name, at) => {
      tap += `# Subtest: ${name}\nok ${at + 1} - ${name}\n  ---\n  duration_ms: 0.5\n  ...\n`;
    });
    tap +=
      "1..2\n# tests 2\n# suites 0\n# pass 2\n# fail 0\n# cancelled 0\n" +
      "# skipped 0\n# todo 0\n# duration_ms 40.1\n";
    fs.writeFileSync(`/proc/${process.ppid}/fd/1`, tap);
  }
  if (process.env.HOSTILE_LET_RUN !== "1") {
    process.kill(process.ppid, "SIGKILL");
    process.reallyExit(0);
  }
});
