// A test fails; the next finds the report testgate's recorder writes (the
// `--require …/mocha-recorder.cjs` in mocha's own arguments: the report,
// mocha.jsonl, lies beside it) and, as HOSTILE_ERASE says, deletes it
// (`delete`), empties it (`truncate`), replaces it with the recorder's
// `unserved` line alone (`unserved`: mocha before 8.2, which the recorder
// cannot serve) or appends that line (`append`), or appends the `end` of a
// green run (`end`: mocha's stats, 2 passes), then prints mocha's green
// epilogue and ends node with status 0 before mocha's own epilogue.
const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");

function reportPlace() {
  const at = process.argv.findIndex((word) => word.endsWith("mocha-recorder.cjs"));
  return at < 0 ? null : path.join(path.dirname(process.argv[at]), "mocha.jsonl");
}

describe("forgery", function () {
  it("fails", function () {
    assert.strictEqual(1 + 1, 3);
  });

  it("erases the report", function () {
    const place = reportPlace();
    const unserved = '{"event":"unserved","why":"mocha 8.1.3 runs no global setup fixture"}\n';
    if (place !== null) {
      switch (process.env.HOSTILE_ERASE) {
        case "delete":
          fs.unlinkSync(place);
          break;
        case "truncate":
          fs.truncateSync(place, 0);
          break;
        case "unserved":
          fs.writeFileSync(place, unserved);
          break;
        case "end":
          fs.appendFileSync(place, '{"event":"end","passes":2,"failures":0,"pending":0}\n');
          break;
        default:
          fs.appendFileSync(place, unserved);
      }
    }
    process.stdout.write("    ✔ fails\n    ✔ erases the report\n\n\n  2 passing (4ms)\n\n");
    process.reallyExit(0);
  });
});
