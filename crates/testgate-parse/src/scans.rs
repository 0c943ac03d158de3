//! The scans a parser runs beside its recognisers ([`Scans`]): the
//! environment's failures and the coverage threshold, read on the same
//! lines; below both the stream and its dispatch.

use crate::coverage::{self, CoverageScan};
use crate::environment::{self, EnvironmentScan};

/// The scans a parser runs beside its recognisers, on the same lines.
#[derive(Debug, Default)]
pub(crate) struct Scans {
    pub(crate) environment: EnvironmentScan,
    pub(crate) coverage: CoverageScan,
}

impl Scans {
    /// Reads one cleaned line: its pre-filter once, for both scans.
    pub(crate) fn line(&mut self, text: &str) {
        let wanted = Wanted::of(text);
        self.environment.line(text, wanted.environment);
        self.coverage.line(text, wanted.coverage);
    }
}

/// Which scans' recognisers a line may interest, from one pass over it:
/// how it starts, and the words within it that each scan's searches need,
/// found from their rare bytes (`G`, `N`, `z` for the environment's, `C`
/// for coverage's), sixteen bytes at a time. Most lines of a test run
/// interest neither, and cost this pass and nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Wanted {
    pub(crate) environment: bool,
    pub(crate) coverage: bool,
}

impl Wanted {
    pub(crate) fn of(line: &str) -> Wanted {
        let mut wanted = Wanted {
            environment: environment::starts_as_a_toolchain(line),
            coverage: coverage::starts_as_a_verdict(line),
        };
        let bytes = line.as_bytes();
        each_rare_byte(bytes, |at| {
            let rest = bytes.get(at..).unwrap_or_default();
            if rest.first() == Some(&coverage::RARE_BYTE) {
                wanted.coverage = wanted.coverage || coverage::word_at(rest);
            } else {
                wanted.environment = wanted.environment || environment::word_at(rest);
            }
            wanted.environment && wanted.coverage
        });
        wanted
    }
}

/// 1 where `b` is one of the scans' rare bytes, else 0: comparisons
/// joined without branches, which the compiler makes into vector
/// instructions over a block ([`any_rare`]).
const fn rare(b: u8) -> u8 {
    let [g, n, z] = environment::RARE_BYTES;
    (b == g) as u8 | (b == n) as u8 | (b == z) as u8 | (b == coverage::RARE_BYTE) as u8
}

/// Whether `b` is one of the scans' rare bytes, by table: the loop over
/// a block that holds one costs a load and a test a byte.
fn is_rare(b: u8) -> bool {
    RARE[usize::from(b)]
}

/// [`rare`] of each byte value.
const RARE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = rare(b as u8) != 0;
        b += 1;
    }
    table
};

/// Whether a block holds a rare byte: a few vector instructions for its
/// sixteen bytes, where `memchr3` and `memchr` each cost a call.
#[inline(always)]
fn any_rare(block: &[u8; 16]) -> bool {
    block.iter().fold(0, |any, &b| any | rare(b)) != 0
}

/// Calls `see` with the index of each rare byte of `bytes`, in order,
/// until it returns `true`: sixteen bytes at a time, byte by byte only in
/// a block that holds one, or in a line shorter than sixteen.
fn each_rare_byte(bytes: &[u8], mut see: impl FnMut(usize) -> bool) {
    let (blocks, tail) = bytes.as_chunks::<16>();
    let mut at = 0;
    for block in blocks {
        if any_rare(block) && !each_in(block, at, &mut see) {
            return;
        }
        at += 16;
    }
    // The tail is read as the last sixteen bytes, which end the line.
    let tail_may_hold = match bytes.last_chunk::<16>() {
        Some(last) => !tail.is_empty() && any_rare(last),
        None => true,
    };
    if tail_may_hold {
        each_in(tail, at, &mut see);
    }
}

/// Calls `see` with `at` plus the index of each rare byte of `part`;
/// `false` where `see` returned `true`.
fn each_in(part: &[u8], at: usize, see: &mut impl FnMut(usize) -> bool) -> bool {
    for (i, &b) in part.iter().enumerate() {
        if is_rare(b) && see(at + i) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{Wanted, each_rare_byte, is_rare};

    /// The pass finds every rare byte where a byte-by-byte reading does,
    /// at every length and offset around the sixteen-byte blocks.
    #[test]
    fn each_rare_byte_is_found_at_every_length() {
        let text: Vec<u8> = (0..80u8)
            .map(|i| {
                if i % 7 == 3 || i % 11 == 5 {
                    b"GNzC"[usize::from(i % 4)]
                } else {
                    b'a' + i % 26
                }
            })
            .collect();
        for start in 0..text.len() {
            for end in start..=text.len() {
                let bytes = &text[start..end];
                let mut found = Vec::new();
                each_rare_byte(bytes, |at| {
                    found.push(at);
                    false
                });
                let expected: Vec<usize> =
                    (0..bytes.len()).filter(|&i| is_rare(bytes[i])).collect();
                assert_eq!(found, expected, "{start}..{end}");
            }
        }
    }

    /// The pass reads what each scan's former pre-filter read: how a line
    /// starts, and the words from each rare byte, wherever they are.
    #[test]
    fn each_scan_is_wanted_by_its_own_words() {
        let wanted = |line: &str| {
            let Wanted {
                environment,
                coverage,
            } = Wanted::of(line);
            (environment, coverage)
        };
        assert_eq!(wanted("test tests::adds ... ok"), (false, false));
        assert_eq!(
            wanted("--- PASS: TestConfigGetNothing (0.00s)"),
            (false, false)
        );
        assert_eq!(wanted("error: failed to get `x`"), (true, false));
        assert_eq!(
            wanted("  Jest: \"global\" coverage threshold"),
            (false, true)
        );
        assert_eq!(wanted("\u{a0}FAIL Required test coverage"), (false, true));
        assert_eq!(wanted("\u{b}Jest: x"), (false, true));
        let padded = format!("{}No module named pytest", "x".repeat(29));
        assert_eq!(wanted(&padded), (true, false));
        let both = format!(
            "{}Coverage failure{}ze build cache at ",
            "y".repeat(15),
            "C".repeat(17)
        );
        assert_eq!(wanted(&both), (true, true));
        assert_eq!(wanted("ERROR: Coverage for lines"), (true, true));
    }

    /// The one pass wants a line for a scan exactly where that scan's
    /// own pre-filter (a first-byte test and `memchr3` or `memchr`) passes
    /// it: every line of the environment fixtures and of captured runs,
    /// each scan's words built in, and lines around the blocks' edges.
    #[test]
    fn the_one_pass_wants_what_each_scans_pre_filter_passes() {
        let captured = [
            include_str!("../tests/fixtures/cargo/several_binaries.log"),
            include_str!("../tests/fixtures/cargo/colour.log"),
            include_str!("../tests/fixtures/go/verbose.log"),
            include_str!("../tests/fixtures/go/gjr_012-subtests.log"),
            include_str!("../tests/fixtures/pytest/verbose.log"),
            include_str!("../tests/fixtures/jest/failing.log"),
            include_str!("../tests/fixtures/vitest/failing.log"),
        ];
        let logs = crate::environment::tests::FIXTURES.iter().chain(&captured);
        let mut lines: Vec<String> = logs
            .flat_map(|log| log.lines().map(str::to_owned))
            .collect();
        for word in [
            "GOROOT (",
            "Get \"http",
            "No module named ",
            "ze build cache at ",
            "Coverage ",
            "GOROOT",
            "Get \"",
            "No module",
            "ze build",
            "Coverage",
        ] {
            for pad in 0..40 {
                lines.push(format!("{}{word}", "x".repeat(pad)));
                lines.push(format!("{}{word}tail", "CGNz".repeat(pad / 4)));
            }
        }
        lines.extend(
            [
                "  Jest: \"global\" coverage threshold for lines (100%) not met: 50%",
                "\u{3000}FAIL Required test coverage of 90% not reached.",
                "\tJest: x",
                "\u{85}Jest: x",
                "",
                " ",
            ]
            .map(str::to_owned),
        );
        let mut wanted_any = 0;
        for line in &lines {
            let wanted = Wanted::of(line);
            let each = Wanted {
                environment: crate::environment::may_be_environment(line),
                coverage: crate::coverage::may_be_below(line),
            };
            assert_eq!(wanted, each, "{line:?}");
            wanted_any += usize::from(wanted.environment || wanted.coverage);
        }
        assert!(wanted_any > 400, "only {wanted_any} lines wanted");
    }
}
