//! ctest's own e2e tests, beyond those every runner shares (`main.rs`).

use std::time::Duration;

use testgate::parse::Runner;
use testgate::{Cause, SandboxedTests, TestConfig};

use crate::projects::Project;
use crate::{NoObserver, Where, assert_fail, assert_inconclusive, check};

/// ctest's project in both sandboxes, beyond the shared tests: a crash
/// names its test, ctest's own retries (`--repeat until-pass:2`) make a
/// flaky test flaky within one attempt, and a hang times out; the build
/// runs first as `--prepare` steps (`runners/ctest.json`).
#[test]
fn ctest_crashes_retries_and_hangs() {
    for place in [Where::Bwrap, Where::Landlock] {
        let what = format!("ctest in {place:?}");
        let project = Project::copy(Runner::Ctest);
        let record = check(&project, "crash", 1, place);
        assert_fail(&record, &["calc.adds"], &what);
        let failing = &record.attempts[0].report.failing;
        assert_eq!(
            failing[0].message.as_deref(),
            Some("Exception: SegFault"),
            "{what}"
        );
        let config = TestConfig::new(
            &project.dir,
            "ctest",
            ["--test-dir", "testgate-build", "--repeat", "until-pass:2"],
        )
        .format(Runner::Ctest)
        .preset()
        .prepare("cmake -S . -B testgate-build")
        .prepare("cmake --build testgate-build")
        .env("TESTGATE_FIXTURE", "flaky")
        .retrying(2)
        .within(Duration::from_secs(120));
        let record = SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver);
        assert_inconclusive(&record, Cause::Flaky, &format!("{what}, --repeat"));
        assert_eq!(
            record.attempts[0].report.flaky,
            ["calc.sometimes"],
            "{what}: ctest's own retry"
        );
        let config = project
            .config()
            .env("TESTGATE_FIXTURE", "hang")
            .retrying(2)
            .within(Duration::from_secs(10));
        let record = SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver);
        assert_inconclusive(&record, Cause::TimedOut, &format!("{what}, hang"));
    }
}
