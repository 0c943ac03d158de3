//! `cargo test` and `cargo nextest run`: libtest's exact filters and nextest's filtersets.

use super::{Target, names};

/// A doctest's name, `src/lib.rs - add (line 5)`: libtest's filter can
/// match it, but the line number moves with every edit above it, so
/// testgate does not claim to select it exactly.
pub(super) fn is_doctest(target: &Target<'_>) -> bool {
    target.context.is_some_and(|c| c.starts_with("Doc-tests "))
        || (target.name.contains(" - ")
            && target.name.ends_with(')')
            && target.name.contains(" (line "))
}

/// A whole test target cargo said failed, named by cargo's selector
/// (`--test it`, `--doc`, `-p a --lib`): no libtest test is named so, and
/// after `--` it would be read as libtest's options.
pub(super) fn is_whole_target(target: &Target<'_>) -> bool {
    target.name.starts_with('-')
}

/// `cargo test ARGS -- --exact NAME…`: libtest runs a test when a filter
/// equals its whole path. Test arguments already after `--` are kept.
pub(super) fn cargo(rest: &[String], targets: &[Target<'_>]) -> Result<Vec<String>, String> {
    if let Some(whole) = targets.iter().find(|t| is_whole_target(t)) {
        return Err(format!(
            "the test target `{}` failed as a whole, not as a test a filter selects",
            whole.name
        ));
    }
    if let Some(doctest) = targets.iter().find(|t| is_doctest(t)) {
        return Err(format!(
            "the doctest `{}` cannot be selected exactly",
            doctest.name
        ));
    }
    let mut out = rest.to_vec();
    match rest.iter().position(|a| a == "--") {
        Some(dashes) => {
            if !rest[dashes..].iter().any(|a| a == "--exact") {
                out.push("--exact".to_owned());
            }
        }
        None => out.extend(["--".to_owned(), "--exact".to_owned()]),
    }
    out.extend(names(targets).into_iter().map(str::to_owned));
    Ok(out)
}

/// A string for nextest's `=` (equality) name matcher, escaped as its
/// filterset reference says: `\`, `)`, `,`, `/` and control characters.
pub(super) fn nextest_escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ')' => out.push_str("\\)"),
            ',' => out.push_str("\\,"),
            '/' => out.push_str("\\/"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:X}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// `cargo nextest run ARGS -E 'binary_id(=B) & test(=N) | …' --no-tests=fail`:
/// each name in the binary that failed it, so a test of the same name in
/// another binary does not run; no test to run is an error, not a pass.
pub(super) fn nextest(rest: &[String], targets: &[Target<'_>]) -> Vec<String> {
    let mut terms: Vec<String> = Vec::with_capacity(targets.len());
    for target in targets {
        let test = format!("test(={})", nextest_escape(target.name));
        let term = match target.context {
            Some(binary) => format!("(binary_id(={}) & {test})", nextest_escape(binary)),
            None => test,
        };
        if !terms.contains(&term) {
            terms.push(term);
        }
    }
    // Arguments after `--` go to the test binaries; ours go before them.
    let split = rest.iter().position(|a| a == "--").unwrap_or(rest.len());
    let mut out = rest[..split].to_vec();
    out.extend(["-E".to_owned(), terms.join(" | ")]);
    if !rest[..split]
        .iter()
        .any(|a| a == "--no-tests" || a.starts_with("--no-tests="))
    {
        out.push("--no-tests=fail".to_owned());
    }
    out.extend(rest[split..].iter().cloned());
    out
}
