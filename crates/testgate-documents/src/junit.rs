//! `check --junit`: the check's tests as a JUnit XML report.

use std::fmt::Write as _;

use crate::check::CheckDocument;
use crate::shared::Outcome;

/// `check --junit FILE`: every test the check's attempts named, with its
/// outcome across them, as the JUnit XML most CI systems read
/// (`testsuites` / `testsuite` / `testcase`, `failure`, `error`,
/// `skipped`, `system-out`). Build it with [`JunitReport::of`], write it
/// with [`JunitReport::to_xml`].
#[derive(Debug, Clone, PartialEq)]
pub struct JunitReport {
    /// The whole check's time in seconds: every attempt's.
    pub time: f64,
    /// One suite per place the runner named (a file, a package), in order
    /// of first appearance; tests with none in a suite named `testgate`.
    pub suites: Vec<JunitSuite>,
}

/// A `testsuite`.
#[derive(Debug, Clone, PartialEq)]
pub struct JunitSuite {
    /// Its name: the place the runner named.
    pub name: String,
    /// Its tests.
    pub cases: Vec<JunitCase>,
}

/// A `testcase`.
#[derive(Debug, Clone, PartialEq)]
pub struct JunitCase {
    /// The suite's name, as CI systems group by it.
    pub classname: String,
    /// The test, as the runner names it.
    pub name: String,
    /// Its outcome across the attempts.
    pub result: JunitResult,
    /// Its outcome in each attempt, in a line (`system-out`).
    pub outcomes: String,
    /// Its duration in seconds, in the latest attempt whose runner report
    /// gave one.
    pub time: Option<f64>,
}

/// A test's outcome across the attempts.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum JunitResult {
    /// It passed in every attempt that ran it.
    Passed,
    /// It failed in every attempt that ran it (`failure`), with the
    /// message and excerpt its output gave, where a parser kept them.
    Failed {
        /// The first line that states the failure.
        message: Option<String>,
        /// The test's own output, bounded.
        excerpt: Option<String>,
    },
    /// It errored outside its body, or had not ended when the output
    /// stopped, in every attempt that ran it (`error`).
    Error {
        /// What happened.
        message: String,
    },
    /// It failed in some attempts and passed in others, or within one:
    /// a `failure` of type `flaky`, since a flaky test proves nothing.
    Flaky {
        /// Which attempts it failed and passed in.
        note: String,
    },
    /// Every attempt that ran it skipped it (or saw it fail as marked
    /// expected to).
    Skipped,
}

impl JunitReport {
    /// The report of `check`'s tests.
    pub fn of(check: &CheckDocument<'_>) -> Self {
        let mut suites: Vec<JunitSuite> = Vec::new();
        for test in &check.tests {
            let Some(result) = result_of(check, &test.name, &test.outcomes) else {
                continue;
            };
            let suite_name = test.context.as_deref().unwrap_or("testgate");
            let case = JunitCase {
                classname: suite_name.to_owned(),
                name: test.name.clone().into_owned(),
                result,
                outcomes: outcomes_line(&test.outcomes),
                // Milliseconds as seconds: exact enough for a report.
                time: test
                    .durations_ms
                    .iter()
                    .rev()
                    .find_map(|d| *d)
                    .map(|ms| ms as f64 / 1000.0),
            };
            match suites.iter_mut().find(|s| s.name == suite_name) {
                Some(suite) => suite.cases.push(case),
                None => suites.push(JunitSuite {
                    name: suite_name.to_owned(),
                    cases: vec![case],
                }),
            }
        }
        let millis: u64 = check.attempts.iter().map(|a| a.duration_ms).sum();
        JunitReport {
            // Milliseconds as seconds: exact enough for a report.
            time: millis as f64 / 1000.0,
            suites,
        }
    }

    /// The report as JUnit XML text (UTF-8, XML 1.0: characters XML
    /// cannot hold become U+FFFD).
    pub fn to_xml(&self) -> String {
        let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let all = self.suites.iter().flat_map(|s| &s.cases);
        let totals = Totals::of(all);
        let _ = writeln!(
            xml,
            "<testsuites name=\"testgate\" tests=\"{}\" failures=\"{}\" errors=\"{}\" \
             skipped=\"{}\" time=\"{:.3}\">",
            totals.tests, totals.failures, totals.errors, totals.skipped, self.time
        );
        for suite in &self.suites {
            let totals = Totals::of(&suite.cases);
            let _ = writeln!(
                xml,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" \
                 skipped=\"{}\">",
                escape(&suite.name),
                totals.tests,
                totals.failures,
                totals.errors,
                totals.skipped
            );
            for case in &suite.cases {
                let time = case
                    .time
                    .map(|t| format!(" time=\"{t:.3}\""))
                    .unwrap_or_default();
                let _ = write!(
                    xml,
                    "    <testcase classname=\"{}\" name=\"{}\"{time}>",
                    escape(&case.classname),
                    escape(&case.name)
                );
                match &case.result {
                    JunitResult::Passed => {}
                    JunitResult::Failed { message, excerpt } => {
                        let message = message.as_deref().unwrap_or("failed");
                        let _ = write!(
                            xml,
                            "<failure message=\"{}\" type=\"failed\">{}</failure>",
                            escape(message),
                            escape(excerpt.as_deref().unwrap_or_default())
                        );
                    }
                    JunitResult::Error { message } => {
                        let _ = write!(
                            xml,
                            "<error message=\"{}\" type=\"error\"></error>",
                            escape(message)
                        );
                    }
                    JunitResult::Flaky { note } => {
                        let _ = write!(
                            xml,
                            "<failure message=\"{}\" type=\"flaky\"></failure>",
                            escape(note)
                        );
                    }
                    JunitResult::Skipped => xml.push_str("<skipped/>"),
                }
                let _ = writeln!(
                    xml,
                    "<system-out>{}</system-out></testcase>",
                    escape(&case.outcomes)
                );
            }
            xml.push_str("  </testsuite>\n");
        }
        xml.push_str("</testsuites>\n");
        xml
    }
}

/// The counts a `testsuite` or `testsuites` element carries.
struct Totals {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
}

impl Totals {
    fn of<'a>(cases: impl IntoIterator<Item = &'a JunitCase>) -> Self {
        let mut totals = Totals {
            tests: 0,
            failures: 0,
            errors: 0,
            skipped: 0,
        };
        for case in cases {
            totals.tests += 1;
            match case.result {
                JunitResult::Passed => {}
                JunitResult::Failed { .. } | JunitResult::Flaky { .. } => totals.failures += 1,
                JunitResult::Error { .. } => totals.errors += 1,
                JunitResult::Skipped => totals.skipped += 1,
            }
        }
        totals
    }
}

/// What `outcomes` (one per attempt, null where it did not name the test)
/// add up to; None when no attempt named it.
fn result_of(
    check: &CheckDocument<'_>,
    name: &str,
    outcomes: &[Option<Outcome>],
) -> Option<JunitResult> {
    let (mut passed, mut failed, mut errored, mut skipped, mut flaky) = (0, 0, 0, 0, 0);
    for outcome in outcomes.iter().flatten() {
        match outcome {
            Outcome::Passed | Outcome::XPassed => passed += 1,
            Outcome::Failed => failed += 1,
            Outcome::Error | Outcome::Running => errored += 1,
            Outcome::Skipped | Outcome::XFailed => skipped += 1,
            Outcome::Flaky => flaky += 1,
        }
    }
    let ran = passed + failed + errored + flaky;
    if ran + skipped == 0 {
        return None;
    }
    Some(if flaky > 0 || (passed > 0 && failed + errored > 0) {
        JunitResult::Flaky {
            note: format!(
                "flaky: failed in {} of {ran} attempts that ran it ({})",
                failed + errored + flaky,
                outcomes_line(outcomes)
            ),
        }
    } else if failed > 0 {
        let failure = check.failures.iter().find(|f| f.name == name);
        JunitResult::Failed {
            message: failure
                .and_then(|f| f.message.as_deref())
                .map(str::to_owned),
            excerpt: failure
                .and_then(|f| f.excerpt.as_deref())
                .map(str::to_owned),
        }
    } else if errored > 0 {
        let running = outcomes.iter().flatten().any(|o| *o == Outcome::Running);
        JunitResult::Error {
            message: if running {
                "it had not ended when the output stopped".to_owned()
            } else {
                "it errored outside its body".to_owned()
            },
        }
    } else if passed > 0 {
        JunitResult::Passed
    } else {
        JunitResult::Skipped
    })
}

/// `attempt 1: failed, attempt 2: passed`.
fn outcomes_line(outcomes: &[Option<Outcome>]) -> String {
    let words: Vec<String> = outcomes
        .iter()
        .enumerate()
        .map(|(i, outcome)| {
            let word = match outcome {
                None => "not named",
                Some(Outcome::Passed) => "passed",
                Some(Outcome::Failed) => "failed",
                Some(Outcome::Error) => "error",
                Some(Outcome::Skipped) => "skipped",
                Some(Outcome::XFailed) => "xfailed",
                Some(Outcome::XPassed) => "xpassed",
                Some(Outcome::Flaky) => "flaky",
                Some(Outcome::Running) => "running",
            };
            format!("attempt {}: {word}", i + 1)
        })
        .collect();
    words.join(", ")
}

/// `text` for an XML attribute or element: markup escaped, line breaks
/// kept as references, characters XML 1.0 cannot hold as U+FFFD.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}' => {
                out.push(c);
            }
            _ => out.push('\u{FFFD}'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn what_xml_cannot_hold_is_replaced_and_markup_escaped() {
        assert_eq!(
            escape("a<b & \"c\"\n\u{1b}[31m"),
            "a&lt;b &amp; &quot;c&quot;&#10;\u{FFFD}[31m"
        );
        assert_eq!(escape("\u{FFFE}ok"), "\u{FFFD}ok");
    }
}
