//! The retry driver, `Policy::plan`, run as the facade runs it on an
//! arbitrary sequence of attempts, and `tail` on arbitrary text.
//!
//! The bytes are decoded by hand (a missing byte reads as 0), so that every
//! input is a valid sequence and the fuzzer's mutations stay meaningful:
//! byte 0 the retries, byte 1 the rerun mode, then one record per attempt
//! the driver asks for (see `next_attempt`).
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use testgate_policy::{
    Attempt, Counts, Ending, Environment, MAX_REASON, Plan, Policy, Rerun, Selection, Step, Verdict,
};

/// The bytes, read front to back; past the end every byte is 0.
struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    fn bit(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    fn take(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.data.len());
        let (head, rest) = self.data.split_at(n);
        self.data = rest;
        head
    }

    fn text(&mut self, max: usize) -> String {
        let n = usize::from(self.byte()) * max / 255;
        String::from_utf8_lossy(self.take(n)).into_owned()
    }

    fn count(&mut self) -> Option<u64> {
        match self.byte() % 6 {
            0 => None,
            1 => Some(0),
            2 => Some(1),
            3 => Some(u64::from(self.byte())),
            4 => Some(u64::MAX),
            _ => Some(u64::from(u32::from_le_bytes([
                self.byte(),
                self.byte(),
                self.byte(),
                self.byte(),
            ]))),
        }
    }
}

/// Names from a small pool, so that attempts agree and disagree often, plus
/// long and odd ones.
fn name(bytes: &mut Bytes<'_>) -> String {
    match bytes.byte() % 8 {
        0 => "tests::a".to_owned(),
        1 => "tests::b".to_owned(),
        2 => "TestC/sub".to_owned(),
        3 => "test_d.py::test_d[é]".to_owned(),
        4 => "x".repeat(600),
        5 => "ü".repeat(usize::from(bytes.byte()) * 4),
        6 => String::new(),
        _ => bytes.text(64),
    }
}

fn ending(bytes: &mut Bytes<'_>) -> Ending {
    match bytes.byte() % 8 {
        0 | 1 => Ending::Exited { code: 0 },
        2 => Ending::Exited {
            code: [1, 101, 2, 4, 5, 130, 137, -1][usize::from(bytes.byte() % 8)],
        },
        3 => Ending::Exited {
            code: i32::from_le_bytes([bytes.byte(), bytes.byte(), bytes.byte(), bytes.byte()]),
        },
        4 => Ending::Signalled {
            signal: i32::from(bytes.byte() % 40),
        },
        5 => Ending::TimedOut {
            after: Duration::from_millis(u64::from(bytes.byte()) * 1000),
        },
        6 => match bytes.byte() % 3 {
            0 => Ending::SandboxRefused {
                why: bytes.text(1024),
            },
            1 => Ending::WouldNotStart {
                why: bytes.text(1024),
            },
            _ => Ending::Cancelled,
        },
        _ => Ending::Exited { code: 1 },
    }
}

/// One attempt of `asked`, as the facade would record it.
fn next_attempt(bytes: &mut Bytes<'_>, asked: Selection, note: Option<String>) -> Attempt {
    let ending = ending(bytes);
    // The facade records what it ran: what was asked, or the full suite
    // when the command cannot be narrowed.
    let selection = if bytes.bit() { Selection::Full } else { asked };
    let flags = bytes.byte();
    let failing: Vec<String> = match bytes.byte() % 8 {
        n @ 0..=5 => (0..n).map(|_| name(bytes)).collect(),
        6 => (0..usize::from(bytes.byte()))
            .map(|_| name(bytes))
            .collect(),
        _ => match &selection {
            Selection::Only(names) => names.clone(),
            Selection::Full => Vec::new(),
        },
    };
    let counts = if flags & 1 == 1 {
        None
    } else {
        Some(Counts::new(bytes.count(), bytes.count(), bytes.count()))
    };
    // The facade cuts the output with `testgate_parse::tail`.
    let output = bytes.text(4096);
    let max = usize::from(bytes.byte()) * 64;
    let tail = testgate_parse::tail(&output, max);
    check_tail(&output, max, tail);

    let mut attempt = Attempt::new(ending)
        .with_selection(selection)
        .with_failing(failing)
        .with_no_tests_ran(flags & 2 == 2)
        .with_recognised(flags & 4 == 4)
        .with_leaked_processes(flags & 8 == 8)
        .with_duration(Duration::from_millis(u64::from(flags)))
        .with_truncated(flags & 16 == 16)
        .with_coverage_below_threshold(flags & 32 == 32)
        .with_tail(tail);
    if flags & 64 == 64 {
        attempt = attempt.with_environment(Environment::new(bytes.text(256), bytes.text(256)));
    }
    if let Some(counts) = counts {
        attempt = attempt.with_counts(counts);
    }
    if let Some(note) = note {
        attempt = attempt.with_note(note);
    }
    attempt
}

fn check_tail(text: &str, max: usize, tail: &str) {
    assert!(tail.len() <= max, "tail of {max} is {} bytes", tail.len());
    assert!(text.ends_with(tail), "tail {tail:?} is not a suffix");
    if text.len() <= max {
        assert_eq!(tail, text);
    }
}

/// A full attempt that passed. `docs/policy.md`: "a full run that passed
/// never leads to a Fail". A targeted pass may: the failing tests passed
/// alone and failed again in the full suite (order dependence).
fn full_pass(attempt: &Attempt) -> bool {
    attempt.selection == Selection::Full
        && attempt.ending == (Ending::Exited { code: 0 })
        && attempt.failing.is_empty()
}

/// A targeted attempt that passed and showed that its tests ran.
fn targeted_pass(attempt: &Attempt) -> bool {
    let Selection::Only(names) = &attempt.selection else {
        return false;
    };
    let selected: std::collections::BTreeSet<&String> = names.iter().collect();
    attempt.ending == (Ending::Exited { code: 0 })
        && attempt.failing.is_empty()
        && !attempt.no_tests_ran
        && attempt
            .counts
            .and_then(|c| c.ran())
            .is_some_and(|ran| ran >= selected.len() as u64)
}

fn check_verdict(verdict: &Verdict, attempts: &[Attempt]) {
    assert!(
        verdict.reason().len() <= MAX_REASON,
        "reason of {} bytes",
        verdict.reason().len()
    );
    let exited_zero = |a: &Attempt| a.ending == Ending::Exited { code: 0 };
    match verdict {
        Verdict::Pass { .. } => {
            assert!(
                attempts.first().is_some_and(exited_zero),
                "Pass, yet the first attempt did not exit 0: {attempts:#?}"
            );
            assert_eq!(attempts.len(), 1, "Pass after a retry: {attempts:#?}");
        }
        Verdict::Fail { reason, .. } => {
            assert!(
                !attempts.iter().any(full_pass),
                "Fail, yet a full attempt passed: {attempts:#?}"
            );
            // However many names failed (testgate-policy keeps room for it).
            if attempts.iter().any(targeted_pass) {
                assert!(
                    reason.contains("passed when run alone"),
                    "Fail after a targeted pass without saying so: {reason}"
                );
            }
        }
        Verdict::Inconclusive { .. } => {}
    }
}

fuzz_target!(|data: &[u8]| {
    // Also `tail` alone, on the raw bytes and a fuzzer-chosen max.
    if let Some((&max, text)) = data.split_first() {
        let text = String::from_utf8_lossy(text);
        let max = usize::from(max) * 3;
        check_tail(&text, max, testgate_parse::tail(&text, max));
    }

    let mut bytes = Bytes { data };
    let retries = u32::from(bytes.byte() % 12);
    let rerun = if bytes.bit() {
        Rerun::Failed
    } else {
        Rerun::All
    };
    let policy = Policy::new(retries).with_rerun(rerun);

    let mut attempts: Vec<Attempt> = Vec::new();
    let verdict = loop {
        let Plan { step, note, .. } = policy.plan(&attempts);
        assert_eq!(policy.step(&attempts), step, "step and plan disagree");
        match step {
            Step::Done(verdict) => break verdict,
            Step::Run(selection) => {
                assert!(
                    (attempts.len() as u64) < policy.max_attempts(),
                    "{policy:?} asked for attempt {} of at most {}",
                    attempts.len() + 1,
                    policy.max_attempts()
                );
                if let Selection::Only(names) = &selection {
                    assert!(!names.is_empty(), "a targeted retry of no test");
                    assert!(!attempts.is_empty(), "the first attempt is targeted");
                }
                attempts.push(next_attempt(&mut bytes, selection, note));
            }
        }
    };
    assert!(
        !attempts.is_empty(),
        "a verdict with no attempt: {verdict:?}"
    );
    check_verdict(&verdict, &attempts);
    assert_eq!(
        policy.verdict(&attempts),
        verdict,
        "verdict() and the driver disagree"
    );
    // A sequence cut short (interrupted between attempts) still gets a
    // verdict that keeps the laws.
    for n in 0..attempts.len() {
        check_verdict(&policy.verdict(&attempts[..n]), &attempts[..n]);
    }
});
