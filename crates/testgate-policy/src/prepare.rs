//! A preparation step that ran before the attempts, as a fact; the verdict
//! of one that failed is worded in `words/prepare.rs`.

use crate::attempt::{Ending, Environment};

/// A preparation step (`--prepare CMD`: `npm ci`, `cargo fetch`) that ran
/// before the attempts, as the facade reports it when it did not succeed.
///
/// ```
/// use testgate_policy::{Cause, Ending, Preparation};
///
/// let verdict = Preparation::new("npm ci", Ending::Exited { code: 1 })
///     .with_tail("npm error code ENOENT\n")
///     .verdict();
/// assert_eq!(verdict.cause(), Some(Cause::PrepareFailed));
/// assert!(verdict.reason().starts_with("the preparation `npm ci` exited with code 1"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Preparation {
    /// The command as the user gave it.
    pub command: String,
    /// How it ended.
    pub ending: Ending,
    /// The end of its output.
    pub tail: String,
    /// What the preparation removed from the project directory that was
    /// there before it ran (a failing `npm ci` deletes `node_modules`).
    pub removed: Vec<String>,
    /// The environment failure its output showed (a registry or a venv
    /// the sandbox keeps read-only), with the fix.
    pub environment: Option<Environment>,
}

impl Preparation {
    /// The preparation `command`, ended as `ending`.
    pub fn new(command: impl Into<String>, ending: Ending) -> Self {
        Preparation {
            command: command.into(),
            ending,
            tail: String::new(),
            removed: Vec::new(),
            environment: None,
        }
    }

    /// Sets the end of its output.
    pub fn with_tail(mut self, tail: impl Into<String>) -> Self {
        self.tail = tail.into();
        self
    }

    /// Sets the top-level entries of the project it removed.
    pub fn with_removed<I, S>(mut self, removed: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.removed = removed.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the environment failure its output showed. A failed
    /// preparation's reason then says what failed and the fix, which is
    /// rarely to run the same preparation again.
    pub fn with_environment(mut self, environment: impl Into<Option<Environment>>) -> Self {
        self.environment = environment.into();
        self
    }

    /// Whether it succeeded: exit status 0.
    pub fn succeeded(&self) -> bool {
        matches!(self.ending, Ending::Exited { code: 0 })
    }
}
