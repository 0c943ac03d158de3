//! The words of a stress run's decision.

use crate::attempt::Attempt;
use crate::decide_stress::StressDecision;
use crate::policy::Step;
use crate::verdict::{Cause, Verdict};
use crate::words::decision::plan;
use crate::words::explain::push_tail;
use crate::words::reason::{Reason, tests};

/// The verdict of a stress run's `decision` on `attempts`.
pub(crate) fn stress_verdict(decision: &StressDecision<'_>, attempts: &[Attempt]) -> Verdict {
    let n = attempts.len();
    let mut reason = Reason::new();
    match decision {
        StressDecision::Stopped(decided) => match plan(decided).step {
            Step::Done(verdict) => verdict,
            Step::Run(_) => Verdict::Inconclusive {
                cause: Cause::NoTestsRan,
                reason: "the stress run ended before anything was proved".to_owned(),
            },
        },
        StressDecision::NoAttempt => Verdict::Inconclusive {
            cause: Cause::NoTestsRan,
            reason: "no attempt ran".to_owned(),
        },
        StressDecision::Varied(varied) => {
            let names: Vec<&str> = varied.iter().map(|v| v.name.as_str()).collect();
            reason.names(&names, |name| {
                varied
                    .iter()
                    .find(|v| v.name == name)
                    .map_or_else(String::new, |v| {
                        format!(" (failed in {} of {})", v.failed_in, v.out_of)
                    })
            });
            reason.line(&format!(
                "{} varied across {n} runs of the same suite: quarantine {} \
                 (`--quarantine`) or fix {}",
                tests(varied.len()),
                if varied.len() == 1 { "it" } else { "them" },
                if varied.len() == 1 { "it" } else { "them" },
            ));
            if let Some(last) = attempts.last() {
                push_tail(&mut reason, last, n);
            }
            Verdict::Inconclusive {
                cause: Cause::Flaky,
                reason: reason.finish(),
            }
        }
        StressDecision::Failed(always) => {
            reason.names(always, |_| String::new());
            reason.line(&format!(
                "{} failed in every one of {n} runs",
                tests(always.len())
            ));
            if let Some(last) = attempts.last() {
                push_tail(&mut reason, last, n);
            }
            Verdict::Fail {
                failing: always.iter().map(|n| (*n).to_owned()).collect(),
                reason: reason.finish(),
            }
        }
        StressDecision::Unexplained(decided) => match plan(decided).step {
            Step::Done(verdict) if !verdict.is_pass() => verdict,
            Step::Done(_) | Step::Run(_) => named_no_test(),
        },
        StressDecision::NamedNoTest => named_no_test(),
        StressDecision::Passed(seen) => {
            reason.line(&format!("{} passed in every one of {n} runs", tests(*seen)));
            Verdict::Pass {
                reason: reason.finish(),
            }
        }
    }
}

/// The stress runs named no test.
fn named_no_test() -> Verdict {
    Verdict::Inconclusive {
        cause: Cause::NoTestsRan,
        reason: "the stress runs named no test, so no test's outcome could be \
                 compared between runs: run the runner in a mode that names every \
                 test (go test -v, pytest -v, jest --verbose, vitest \
                 --reporter=verbose)"
            .to_owned(),
    }
}
