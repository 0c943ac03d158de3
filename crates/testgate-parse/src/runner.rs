//! The runners whose output this crate understands, and the format a parser
//! is asked to read: one runner's, or any.

use std::fmt;
use std::str::FromStr;

/// A test runner whose output this crate understands.
///
/// This is the one list of runners in the workspace: the parser's
/// recognisers, the facade's presets and retry selectors, and the command
/// line's `--format` values all come from it. It is `#[non_exhaustive]`:
/// runners are added in minor versions, so a `match` outside this crate
/// needs an arm for the runners it does not know (within this crate every
/// `match` stays exhaustive, so a new runner is decided here first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Runner {
    /// `cargo test`: libtest's text output and its `--format json`.
    Cargo,
    /// `cargo nextest run`.
    Nextest,
    /// `pytest`, also with pytest-xdist.
    Pytest,
    /// `go test`: plain, `-v` and `-json` (test2json).
    Go,
    /// jest.
    Jest,
    /// vitest.
    Vitest,
    /// mocha: its spec (default), dot and tap reporters.
    Mocha,
    /// `node --test`: its tap and spec reporters.
    Node,
    /// Python's unittest (`python -m unittest`, dots and `-v`), also as
    /// Django's test runner prints it.
    Unittest,
    /// Maven's console with Surefire's lines (2.22 and 3.x; JUnit 4 and
    /// the JUnit Platform), also a multi-module reactor's.
    Maven,
    /// Gradle's console of its `test` task (`Class > method FAILED`, the
    /// `N tests completed, M failed` summary).
    Gradle,
    /// CTest's console (`ctest`, also through `cmake --build … --target
    /// test`), by the `add_test` names.
    Ctest,
    /// PHPUnit 9's console: progress characters, `-v`, `--debug` and
    /// `--testdox`, its defect sections and summary.
    Phpunit,
    /// RSpec 3: its progress and documentation formatters, rspec-retry's
    /// lines.
    Rspec,
    /// minitest 5: its progress and `-v` lines, also through `rake test`.
    Minitest,
    /// A GoogleTest binary's console (`Suite.Test` names, also
    /// parameterised; `--gtest_brief`, `--gtest_repeat`).
    Gtest,
}

impl Runner {
    /// Every runner, in the order auto-detection reports ties.
    pub const ALL: [Runner; 16] = [
        Runner::Cargo,
        Runner::Nextest,
        Runner::Pytest,
        Runner::Go,
        Runner::Jest,
        Runner::Vitest,
        Runner::Mocha,
        Runner::Node,
        Runner::Unittest,
        Runner::Maven,
        Runner::Gradle,
        Runner::Ctest,
        Runner::Phpunit,
        Runner::Rspec,
        Runner::Minitest,
        Runner::Gtest,
    ];

    /// The lowercase name used on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Runner::Cargo => "cargo",
            Runner::Nextest => "nextest",
            Runner::Pytest => "pytest",
            Runner::Go => "go",
            Runner::Jest => "jest",
            Runner::Vitest => "vitest",
            Runner::Mocha => "mocha",
            Runner::Node => "node",
            Runner::Unittest => "unittest",
            Runner::Maven => "maven",
            Runner::Gradle => "gradle",
            Runner::Ctest => "ctest",
            Runner::Phpunit => "phpunit",
            Runner::Rspec => "rspec",
            Runner::Minitest => "minitest",
            Runner::Gtest => "gtest",
        }
    }
}

impl fmt::Display for Runner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The output a parser reads: one runner's, or whichever runners'
/// lines appear ([`Format::Auto`]).
///
/// ```
/// use testgate_parse::{Format, Runner};
///
/// assert_eq!("go".parse::<Format>(), Ok(Format::Runner(Runner::Go)));
/// assert_eq!(Format::from(Runner::Jest).to_string(), "jest");
/// assert_eq!(Format::ALL.len(), Runner::ALL.len() + 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[non_exhaustive]
pub enum Format {
    /// Recognise every runner, also several in one log.
    #[default]
    Auto,
    /// Only this runner's output.
    Runner(Runner),
}

impl Format {
    /// `auto`, then every runner in [`Runner::ALL`]'s order: the values of
    /// the command line's `--format`.
    pub const ALL: [Format; Runner::ALL.len() + 1] = {
        let mut all = [Format::Auto; Runner::ALL.len() + 1];
        let mut i = 0;
        while i < Runner::ALL.len() {
            all[i + 1] = Format::Runner(Runner::ALL[i]);
            i += 1;
        }
        all
    };

    /// The lowercase name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Runner(runner) => runner.name(),
        }
    }

    /// The runner this format reads, `None` for [`Format::Auto`].
    pub const fn runner(self) -> Option<Runner> {
        match self {
            Format::Auto => None,
            Format::Runner(runner) => Some(runner),
        }
    }
}

impl From<Runner> for Format {
    fn from(runner: Runner) -> Self {
        Format::Runner(runner)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`Format`] or [`Runner`] from a name that is not
/// one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown format `{}` (expected ", self.0)?;
        for (i, format) in Format::ALL.iter().enumerate() {
            let sep = match i {
                0 => "",
                i if i + 1 == Format::ALL.len() => " or ",
                _ => ", ",
            };
            write!(f, "{sep}{format}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Runner {
    type Err = UnknownFormat;

    /// A runner's [`name`](Runner::name); `libtest` is also `cargo`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "libtest" {
            return Ok(Runner::Cargo);
        }
        Runner::ALL
            .into_iter()
            .find(|runner| runner.name() == s)
            .ok_or_else(|| UnknownFormat(s.to_owned()))
    }
}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(Format::Auto),
            runner => runner.parse().map(Format::Runner),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back() {
        for format in Format::ALL {
            assert_eq!(format.name().parse::<Format>(), Ok(format));
        }
        for runner in Runner::ALL {
            assert_eq!(runner.name().parse::<Runner>(), Ok(runner));
        }
        assert_eq!("libtest".parse::<Runner>(), Ok(Runner::Cargo));
    }

    #[test]
    fn all_lists_every_runner_once() {
        // Forces a decision here when a runner is added: ALL must grow too.
        let index = |runner: Runner| match runner {
            Runner::Cargo => 0,
            Runner::Nextest => 1,
            Runner::Pytest => 2,
            Runner::Go => 3,
            Runner::Jest => 4,
            Runner::Vitest => 5,
            Runner::Mocha => 6,
            Runner::Node => 7,
            Runner::Unittest => 8,
            Runner::Maven => 9,
            Runner::Gradle => 10,
            Runner::Ctest => 11,
            Runner::Phpunit => 12,
            Runner::Rspec => 13,
            Runner::Minitest => 14,
            Runner::Gtest => 15,
        };
        for (i, runner) in Runner::ALL.into_iter().enumerate() {
            assert_eq!(index(runner), i);
        }
    }

    #[test]
    fn every_name_is_its_variant_in_lowercase() {
        // fuzz/seed.sh reads `Runner::ALL` from this file and names each
        // runner so.
        for runner in Runner::ALL {
            assert_eq!(runner.name(), format!("{runner:?}").to_lowercase());
        }
    }

    #[test]
    fn unknown_names_list_the_known_ones() {
        assert_eq!(
            "surefire".parse::<Format>().unwrap_err().to_string(),
            "unknown format `surefire` (expected auto, cargo, nextest, pytest, go, jest, vitest, mocha, node, unittest, maven, gradle, ctest, phpunit, rspec, minitest or gtest)"
        );
        assert!("auto".parse::<Runner>().is_err());
    }
}
