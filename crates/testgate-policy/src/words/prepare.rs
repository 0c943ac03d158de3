//! The words of a preparation step that failed before any attempt ran.

use crate::attempt::{Attempt, Ending};
use crate::prepare::Preparation;
use crate::signal;
use crate::words::phrase::exit_hint;
use crate::words::reason::{MAX_NAME, Reason, cut_end};

/// The reason of a failed preparation's verdict
/// ([`Preparation::verdict`]): how it ended, what it removed, and the end
/// of its output.
pub(crate) fn preparation_reason(preparation: &Preparation) -> String {
    preparation.reason()
}

impl Preparation {
    fn reason(&self) -> String {
        let command = cut_end(self.command.trim(), MAX_NAME);
        let how = match &self.ending {
            Ending::Exited { code } => format!("exited with code {code}"),
            Ending::Signalled { signal } => {
                format!("was ended by {}", signal::describe(*signal))
            }
            Ending::TimedOut { after } => format!("timed out after {after:?}"),
            Ending::SandboxRefused { why } => format!(
                "was refused by the sandbox ({})",
                cut_end(why.trim(), MAX_NAME)
            ),
            Ending::WouldNotStart { why } => {
                format!("would not start ({})", cut_end(why.trim(), MAX_NAME))
            }
            Ending::Cancelled => "was interrupted because testgate itself was stopped".to_owned(),
            Ending::Lost { why } => format!("was lost ({})", cut_end(why.trim(), MAX_NAME)),
        };
        let mut reason = Reason::new();
        reason.line(&format!(
            "the preparation `{command}` {how} before any attempt ran: no test ran, so \
             nothing was proved"
        ));
        if let Some(environment) = &self.environment {
            reason.line(&format!("{}: {}", environment.what, environment.fix));
        }
        if let Ending::Exited { code } = self.ending
            && let Some(hint) = exit_hint(&Attempt::new(Ending::Exited { code }))
        {
            reason.line(&hint);
        }
        if !self.removed.is_empty() {
            reason.line(&format!(
                "it removed from the project what was there before it ran: {}",
                cut_end(&self.removed.join(", "), MAX_NAME)
            ));
        }
        reason.tail("the end of the output of the preparation:", &self.tail);
        reason.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::Environment;
    use crate::verdict::Cause;

    #[test]
    fn every_ending_is_inconclusive_and_says_what_it_removed() {
        for ending in [
            Ending::Exited { code: 1 },
            Ending::Exited { code: 127 },
            Ending::Signalled { signal: 9 },
            Ending::TimedOut {
                after: std::time::Duration::from_secs(5),
            },
            Ending::WouldNotStart { why: "x".into() },
            Ending::Cancelled,
        ] {
            let verdict = Preparation::new("npm ci", ending)
                .with_removed(["node_modules"])
                .verdict();
            assert_eq!(verdict.cause(), Some(Cause::PrepareFailed));
            assert!(verdict.reason().contains("removed"), "{}", verdict.reason());
        }
        let quiet = Preparation::new("true", Ending::Exited { code: 3 }).verdict();
        assert!(!quiet.reason().contains("the end of the output"));
    }

    #[test]
    fn an_environment_failure_is_said_with_its_fix_after_the_first_line() {
        let verdict = Preparation::new("cargo fetch", Ending::Exited { code: 101 })
            .with_environment(Environment::new(
                "cargo could not unpack a dependency into its registry",
                "run `cargo fetch` in the project on the host first",
            ))
            .with_tail("  Read-only file system (os error 30)\n")
            .verdict();
        assert_eq!(verdict.cause(), Some(Cause::PrepareFailed));
        let lines: Vec<&str> = verdict.reason().lines().collect();
        assert!(lines[0].starts_with("the preparation `cargo fetch` exited with code 101"));
        assert_eq!(
            lines[1],
            "cargo could not unpack a dependency into its registry: run `cargo fetch` in the \
             project on the host first"
        );
        let plain = Preparation::new("cargo fetch", Ending::Exited { code: 101 }).verdict();
        assert!(!plain.reason().contains("on the host first"));
    }
}
