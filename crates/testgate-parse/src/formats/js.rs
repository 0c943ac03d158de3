//! What jest and vitest share: their summaries' `N word` lists and the
//! shape of a test file's name.

use crate::report::Counts;

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
