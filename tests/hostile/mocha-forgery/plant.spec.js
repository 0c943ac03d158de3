// A test that fails in every attempt. In the first (TESTGATE_ATTEMPT=1) it
// first rewrites testgate's recorder (the `--require …/mocha-recorder.cjs`
// in mocha's own arguments) into one that writes a complete, all-passing
// report when loaded, and leaves a file beside it: plants for the retry
// and for the next check, were the recorder's directory used again. Its
// failure message says whether the writes were made and, in a retry,
// whether its recorder is the planted one or has the plant beside it.
const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");

function plant() {
  const at = process.argv.findIndex((word) => word.endsWith("mocha-recorder.cjs"));
  if (at < 0) return "no recorder";
  const recorder = process.argv[at];
  const place = path.join(path.dirname(recorder), "mocha.jsonl");
  try {
    fs.writeFileSync(
      recorder,
      `require("fs").writeFileSync(${JSON.stringify(place)}, ` +
        `'{"event":"start"}\\n{"event":"pass","title":"plant fails"}\\n` +
        `{"event":"end","passes":1,"failures":0,"pending":0}\\n');\n` +
        "module.exports = {};\n",
    );
    fs.writeFileSync(path.join(path.dirname(recorder), "planted.txt"), "planted\n");
    return "planted";
  } catch (e) {
    return `not planted (${e.code})`;
  }
}

// In a retry: whether this attempt's recorder is the planted one, and
// whether the planted file lies beside it.
function inspect() {
  const at = process.argv.findIndex((word) => word.endsWith("mocha-recorder.cjs"));
  if (at < 0) return "retry, no recorder";
  const recorder = process.argv[at];
  const own = fs.readFileSync(recorder, "utf8").includes("mochaGlobalSetup")
    ? "the recorder testgate's"
    : "the recorder planted";
  const beside = fs.existsSync(path.join(path.dirname(recorder), "planted.txt"))
    ? "the plant beside it"
    : "nothing planted beside it";
  return `retry, ${own}, ${beside}`;
}

describe("plant", function () {
  it("fails", function () {
    const planted = process.env.TESTGATE_ATTEMPT === "1" ? plant() : inspect();
    assert.fail(`fails for real, ${planted}`);
  });
});
