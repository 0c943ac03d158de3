//! `node --test`'s own e2e tests, beyond those every runner shares
//! (`main.rs`): judged by node's junit report, asked beside its console.

use testgate::Cause;
use testgate::parse::Runner;

use crate::projects::{self, Project};
use crate::{
    Where, assert_fail, assert_inconclusive, assert_judged_by_report, assert_pass, fixture_check,
};

/// The node project bare and behind `sh -c`, in both sandboxes: Pass,
/// Fail with its names, flaky Inconclusive, every attempt judged by the
/// junit report testgate asks node for (`--test-reporter=junit` beside
/// the console's tap), which a shell's `-c` script gets in its node
/// command's words.
#[test]
fn node_is_judged_by_its_junit_report_bare_and_behind_sh_c() {
    let runner = Runner::Node;
    for place in [Where::Bwrap, Where::Landlock] {
        for (program, args) in [
            ("node", &["--test"][..]),
            ("sh", &["-c", "node --test"][..]),
        ] {
            let what = format!("{program} {args:?} in {place:?}");
            let project = Project::copy(runner);
            let check = |mode: &str, retries: u32| {
                fixture_check(
                    place,
                    runner,
                    &project.dir,
                    program,
                    args.iter().copied(),
                    mode,
                    retries,
                )
            };
            let record = check("pass", 2);
            assert_pass(&record, &what);
            assert_judged_by_report(&record, &what);
            let record = check("fail", 1);
            assert_fail(&record, projects::failing_names(runner), &what);
            assert_judged_by_report(&record, &what);
            let record = check("flaky", 2);
            assert_inconclusive(&record, Cause::Flaky, &what);
            assert_judged_by_report(&record, &what);
        }
    }
}
