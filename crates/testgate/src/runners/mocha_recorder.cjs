// testgate's recorder of mocha's events (docs/formats.md, "mocha"). testgate
// writes this file as mocha-recorder.cjs beside the report's place and adds
// `--require` of it to mocha's arguments. mocha runs a global setup fixture
// of a required module with its runner as `this` (in its own process, also
// under --parallel, whose workers leave global fixtures out), before the run
// starts and after the reporter subscribed: the recorder then writes one
// JSON line per event to the report as it happens (opened once, appended,
// fs.writeSync), leaving the reporter and the console as they were. A run
// that ends early (a test that exits node) leaves a report without its `end`.
"use strict";
const fs = require("fs");
const place = TESTGATE_REPORT_PLACE;
const MAX_MESSAGE = 4096;
// Taken now, before any test runs.
const writeSync = fs.writeSync;
const stringify = JSON.stringify;
let fd = null;

function write(record) {
  try {
    writeSync(fd, stringify(record) + "\n");
  } catch (_) {
    // The run's own outcome stands; a report cut short says so.
  }
}

function title(runnable) {
  try {
    if (runnable && typeof runnable.fullTitle === "function") {
      return String(runnable.fullTitle());
    }
    return String((runnable && runnable.title) || "");
  } catch (_) {
    return "";
  }
}

function message(err) {
  try {
    const text = err && typeof err === "object" && "message" in err ? err.message : err;
    return String(text).slice(0, MAX_MESSAGE);
  } catch (_) {
    return "";
  }
}

function count(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function record(runner) {
  runner.on("start", () => write({ event: "start" }));
  runner.on("pass", (test) => write({ event: "pass", title: title(test) }));
  runner.on("pending", (test) => write({ event: "pending", title: title(test) }));
  // A try that failed and that mocha's own retry (`this.retries(n)`) runs
  // again: a pass after it is flaky, whoever retries.
  runner.on("retry", (test, err) =>
    write({ event: "retry", title: title(test), message: message(err) }),
  );
  runner.on("fail", (runnable, err) =>
    write({
      event: "fail",
      title: title(runnable),
      hook: Boolean(runnable && runnable.type === "hook"),
      message: message(err),
    }),
  );
  runner.on("end", () => {
    const stats = runner.stats || {};
    write({
      event: "end",
      passes: count(stats.passes),
      failures: count(stats.failures),
      pending: count(stats.pending),
    });
  });
}

// mocha's version, from the package.json above its program (a link
// resolved), or null where none is found.
function mochaVersion() {
  try {
    const path = require("path");
    let dir = path.dirname(fs.realpathSync(process.argv[1] || ""));
    for (let up = 0; up < 6; up += 1) {
      const file = path.join(dir, "package.json");
      if (fs.existsSync(file)) {
        const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
        if (pkg && pkg.name === "mocha") return String(pkg.version || "");
      }
      if (path.dirname(dir) === dir) break;
      dir = path.dirname(dir);
    }
  } catch (_) {
    // Not found: the recorder is taken as served.
  }
  return null;
}

// mocha before 8.2 runs no global setup fixture: the recorder can record
// nothing, and says so now (a missing report would cost an honest run its
// Pass); the console then judges alone.
(() => {
  const version = mochaVersion();
  const [major, minor] = (version || "").split(".").map(Number);
  if (version === null || !(major < 8 || (major === 8 && minor < 2))) return;
  try {
    fd = fs.openSync(place, "a");
    write({ event: "unserved", why: "mocha " + version + " runs no global setup fixture" });
    fs.closeSync(fd);
  } catch (_) {
    // Then the report is missing.
  }
  fd = null;
})();

module.exports = {
  mochaGlobalSetup() {
    const runner = this;
    if (fd !== null || !runner || typeof runner.on !== "function") return;
    try {
      fd = fs.openSync(place, "a");
    } catch (e) {
      process.stderr.write("testgate: mocha's report not opened (" + (e && e.code) + ")\n");
      return;
    }
    record(runner);
  },
};
