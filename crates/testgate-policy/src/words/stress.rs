//! The words of a stress run's decision.

use crate::attempt::Attempt;
use crate::decide_stress::StressDecision;
use crate::variation::shared_names;
use crate::words::decision::reason;
use crate::words::explain::push_tail;
use crate::words::reason::{Reason, tests};

/// The reason of a stress run's verdict ([`StressDecision::outcome`]).
pub(crate) fn stress_reason(decision: &StressDecision<'_>, attempts: &[Attempt]) -> String {
    let n = attempts.len();
    let mut words = Reason::new();
    match decision {
        StressDecision::Stopped(decided) | StressDecision::Unexplained(decided) => {
            return reason(decided);
        }
        StressDecision::NoAttempt => return "no attempt ran".to_owned(),
        StressDecision::NamedNoTest => return named_no_test(),
        StressDecision::Varied(varied) => {
            let shared = shared_names(attempts);
            let names: Vec<&str> = varied.iter().map(|v| v.name.as_str()).collect();
            words.names_placed(
                &names,
                |i, _| {
                    varied.get(i).map_or_else(String::new, |v| {
                        format!(
                            " ({}failed in {} of {})",
                            in_file(shared.contains(v.name.as_str()), v.context.as_deref()),
                            v.failed_in,
                            v.out_of
                        )
                    })
                },
                &[],
            );
            words.line(&format!(
                "{} varied across {n} runs of the same suite: quarantine {} \
                 (`--quarantine`) or fix {}",
                tests(varied.len()),
                if varied.len() == 1 { "it" } else { "them" },
                if varied.len() == 1 { "it" } else { "them" },
            ));
            if let Some(last) = attempts.last() {
                push_tail(&mut words, last, n);
            }
        }
        StressDecision::Failed(always) => {
            let shared = shared_names(attempts);
            let names: Vec<&str> = always.iter().map(|(name, _)| *name).collect();
            words.names_placed(
                &names,
                |i, name| match always.get(i) {
                    Some((_, Some(file))) if shared.contains(name) => format!(" (in {file})"),
                    Some(_) | None => String::new(),
                },
                &[],
            );
            words.line(&format!(
                "{} failed in every one of {n} runs",
                tests(always.len())
            ));
            if let Some(last) = attempts.last() {
                push_tail(&mut words, last, n);
            }
        }
        StressDecision::Passed(seen) => {
            words.line(&format!("{} passed in every one of {n} runs", tests(*seen)));
        }
    }
    words.finish()
}

/// `in FILE, ` where a varied test shares its name with a test in another
/// place (one title in two files): which of them varied.
fn in_file(shared: bool, context: Option<&str>) -> String {
    match (shared, context) {
        (true, Some(file)) => format!("in {file}, "),
        (true, None) | (false, _) => String::new(),
    }
}

/// The stress runs named no test.
fn named_no_test() -> String {
    "the stress runs named no test, so no test's outcome could be \
     compared between runs: run the runner in a mode that names every \
     test (go test -v, pytest -v, jest --verbose, vitest \
     --reporter=verbose)"
        .to_owned()
}
