//! What go's output says of a test binary that a panic ended: the cause
//! from its `panic:` line, and the test whose code started the goroutine
//! that panicked, from the trace's `created by` line.

/// The most crashes kept: one per package, and a log can claim any number.
pub(super) const MAX_CRASHES: usize = 1024;

/// What ended a test binary, from go's `panic: MESSAGE` line at column 0:
/// go's own `-timeout` (`test timed out after 1s`), or a panic (its
/// message is the test's, and stays in the output).
pub(super) fn panic_cause(text: &str) -> Option<String> {
    let message = text.strip_prefix("panic: ")?;
    match message.strip_prefix("test timed out after ") {
        Some(after) if !after.is_empty() && after.len() <= 32 && !after.contains(' ') => {
            Some(format!("go test -timeout: test timed out after {after}"))
        }
        Some(_) | None => Some("panic".to_owned()),
    }
}

/// The test that started a goroutine, from go's trace line `created by
/// example.com/pkg.TestX.func1` (go 1.21+ adds ` in goroutine 7`): `TestX`.
/// `None` where the creator is no test (`testing.(*T).Run`: the test's own
/// goroutine, `main.main`, a helper).
pub(super) fn goroutine_creator(text: &str) -> Option<&str> {
    let function = text.strip_prefix("created by ")?;
    let function = function.split(' ').next()?;
    // The package path may hold dots (`example.com/x`); the function starts
    // after its last `/`, at the first `.`.
    let after_path = function.rsplit('/').next()?;
    let (_, function) = after_path.split_once('.')?;
    let test = function.split('.').next()?;
    let is_test = ["Test", "Benchmark", "Fuzz", "Example"]
        .iter()
        .any(|prefix| {
            test.strip_prefix(prefix)
                .is_some_and(|rest| !rest.starts_with(|c: char| c.is_lowercase()))
        });
    is_test.then_some(test)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_cause_tells_gos_timeout_from_a_panic() {
        assert_eq!(
            panic_cause("panic: test timed out after 1s").as_deref(),
            Some("go test -timeout: test timed out after 1s")
        );
        assert_eq!(
            panic_cause("panic: toml: line 236: expected '.' or '='").as_deref(),
            Some("panic")
        );
        // Where it must not fire: indented, or not go's spelling.
        assert_eq!(panic_cause("\tpanic: boom"), None);
        assert_eq!(panic_cause("panicked at src/lib.rs:1:1:"), None);
    }

    #[test]
    fn goroutine_creator_names_only_a_test() {
        assert_eq!(
            goroutine_creator("created by github.com/BurntSushi/toml.TestDecodeParallel"),
            Some("TestDecodeParallel")
        );
        assert_eq!(
            goroutine_creator("created by example.com/gp.TestGoroutinePanics.func1 in goroutine 7"),
            Some("TestGoroutinePanics")
        );
        // Where it must not fire: go's own test goroutine, a helper, prose.
        assert_eq!(goroutine_creator("created by testing.(*T).Run"), None);
        assert_eq!(
            goroutine_creator("created by example.com/gp.startWorkers"),
            None
        );
        assert_eq!(goroutine_creator("created by example.com/gp.Testing"), None);
        assert_eq!(goroutine_creator("created by hand"), None);
    }
}
