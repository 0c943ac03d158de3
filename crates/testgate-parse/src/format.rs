//! The runners whose output this crate understands.

use std::fmt;
use std::str::FromStr;

/// A test runner's output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum Format {
    /// Recognise every format below, also several in one log.
    Auto,
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
}

impl Format {
    /// Every concrete format, in the order auto-detection reports ties.
    pub const ALL: [Format; 6] = [
        Format::Cargo,
        Format::Nextest,
        Format::Pytest,
        Format::Go,
        Format::Jest,
        Format::Vitest,
    ];

    /// The lowercase name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Cargo => "cargo",
            Format::Nextest => "nextest",
            Format::Pytest => "pytest",
            Format::Go => "go",
            Format::Jest => "jest",
            Format::Vitest => "vitest",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`Format`] from a name that is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown format `{}` (expected auto, cargo, nextest, pytest, go, jest or vitest)",
            self.0
        )
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(Format::Auto),
            "cargo" | "libtest" => Ok(Format::Cargo),
            "nextest" => Ok(Format::Nextest),
            "pytest" => Ok(Format::Pytest),
            "go" => Ok(Format::Go),
            "jest" => Ok(Format::Jest),
            "vitest" => Ok(Format::Vitest),
            other => Err(UnknownFormat(other.to_owned())),
        }
    }
}
