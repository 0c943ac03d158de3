//! RSpec's own e2e tests, beyond those every runner shares (`main.rs`).

use testgate::Cause;
use testgate::parse::Runner;

use crate::projects::{self, Project};
use crate::{Where, assert_fail, assert_inconclusive, assert_pass, fixture_check};

/// RSpec behind `rake spec` (RSpec's rake task), in both sandboxes: judged
/// by its JSON report (asked through `SPEC_OPTS`, which reaches the rspec
/// rake starts), Fail with its names, and flaky: the retry selects the
/// failed example through a `SPEC_OPTS=` argument of rake's, which then
/// also carries the report's request.
#[test]
fn rspec_behind_rake_spec() {
    let runner = Runner::Rspec;
    for place in [Where::Bwrap, Where::Landlock] {
        let what = format!("rake spec in {place:?}");
        let project = Project::copy(runner);
        let run = |mode: &str, retries: u32| {
            fixture_check(place, runner, &project.dir, "rake", ["spec"], mode, retries)
        };
        let record = run("pass", 2);
        assert_pass(&record, &what);
        assert!(
            matches!(
                record.attempts[0].attempt.evidence,
                testgate::policy::Evidence::Report { .. }
            ),
            "{what}: {:?}",
            record.attempts[0].attempt.evidence
        );
        let record = run("fail", 1);
        assert_fail(&record, projects::failing_names(runner), &what);
        let record = run("flaky", 2);
        assert_inconclusive(&record, Cause::Flaky, &what);
        for attempt in &record.attempts {
            assert!(
                matches!(
                    attempt.attempt.evidence,
                    testgate::policy::Evidence::Report { .. }
                ),
                "{what}: {:?}",
                attempt.attempt.evidence
            );
        }
    }
}
