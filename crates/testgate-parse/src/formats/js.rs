//! What jest and vitest share: their summaries' `N word` lists, the
//! shape of a test file's name, and the file a shared title's name carries.

use crate::report::Counts;
use crate::runner::Runner;

/// Whether `file`'s last component has a short extension (`calc.test.js`,
/// `a.spec.tsx`): a test file, not a test's title.
pub(super) fn has_file_extension(file: &str) -> bool {
    let last = file.rsplit(['/', '\\']).next().unwrap_or(file);
    match last.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
        }
        None => false,
    }
}

/// The `N <word>` count in a summary's list of items split by `separator`
/// (jest: `1 failed, 2 passed, 3 total`; vitest: `1 failed | 2 passed (3)`,
/// the total in parentheses cut off), if listed.
pub(super) fn summary_count(list: &str, separator: char, word: &str) -> Option<u64> {
    let list = list.rsplit_once(" (").map_or(list, |(head, _)| head);
    list.split(separator).find_map(|item| {
        let (number, what) = item.trim().split_once(' ')?;
        (what == word).then(|| number.parse().ok()).flatten()
    })
}

/// The counts of a summary's tests list (see [`summary_count`]); `todo`
/// counts as skipped.
pub(super) fn tests_counts(list: &str, separator: char) -> Counts {
    let count = |word| summary_count(list, separator, word);
    Counts {
        passed: Some(count("passed").unwrap_or(0)),
        failed: Some(count("failed").unwrap_or(0)),
        skipped: crate::report::sum(count("skipped"), count("todo")),
    }
}

/// What joins a jest or vitest test's file to its name where the name
/// carries it ([`shared_titles`]): the runner's own level separator, as
/// vitest's console prints `src/a.test.js > adds`.
pub(crate) fn file_separator(runner: Runner) -> &'static str {
    match runner {
        Runner::Jest => " › ",
        Runner::Vitest => " > ",
        Runner::Cargo
        | Runner::Nextest
        | Runner::Pytest
        | Runner::Go
        | Runner::Mocha
        | Runner::Node => " ",
    }
}

/// The canonical name of a failing jest or vitest test `name` of `file`
/// whose title another file's failing test shares: the file, the runner's
/// separator, the name (`src/a.test.js › adds`). docs/formats.md.
pub(crate) fn with_file(runner: Runner, file: &str, name: &str) -> String {
    format!("{file}{}{name}", file_separator(runner))
}

/// The names among `failing` (name, file) that failing tests of two or
/// more files share: each of them is named with its file
/// ([`with_file`]), so that one title in two files stays two entries. Only
/// failing tests are compared, so that a targeted retry (which runs only
/// the failing files) names a test that fails again as before.
pub(crate) fn shared_titles<'a>(
    failing: impl Iterator<Item = (&'a str, Option<&'a str>)>,
) -> std::collections::HashSet<String> {
    let mut first_file: std::collections::HashMap<&str, Option<&str>> =
        std::collections::HashMap::new();
    let mut shared = std::collections::HashSet::new();
    for (name, file) in failing {
        match first_file.get(name) {
            Some(first) if *first != file => {
                shared.insert(name.to_owned());
            }
            Some(_) => {}
            None => {
                first_file.insert(name, file);
            }
        }
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_runners_lists() {
        let jest = tests_counts(" 1 failed, 1 skipped, 1 todo, 2 passed, 5 total", ',');
        assert_eq!(
            (jest.passed, jest.failed, jest.skipped),
            (Some(2), Some(1), Some(2))
        );
        let vitest = tests_counts("  8 failed | 5 passed | 3 skipped | 1 todo (17)", '|');
        assert_eq!(
            (vitest.passed, vitest.failed, vitest.skipped),
            (Some(5), Some(8), Some(4))
        );
        assert_eq!(summary_count("2 passed (2)", '|', "failed"), None);
    }

    #[test]
    fn file_names_and_titles() {
        assert!(has_file_extension("src/calc.test.js"));
        assert!(has_file_extension("a\\b.spec.tsx"));
        assert!(!has_file_extension("adds two numbers"));
        assert!(!has_file_extension("v1.0 release notes are long words"));
    }
}
