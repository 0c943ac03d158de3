//! The reports a runner writes inside the project, one file per test class
//! (Surefire's `target/surefire-reports/TEST-*.xml`, Gradle's
//! `build/test-results/*/TEST-*.xml`), which no argument moves out: found
//! and stamped before an attempt, and only those the attempt wrote read
//! after it (docs/formats.md, "Where the outcomes come from").

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};

use testgate_run::{Dir, EntryKind, EntryStat};

use crate::runners::WrittenReports;

/// The deepest folder below the project's top looked into for a module.
const MAX_DEPTH: usize = 8;
/// The most folders walked to find the modules: a tree the code under test
/// filled costs no more.
const MAX_FOLDERS: usize = 20_000;
/// The most names read of one folder.
const MAX_NAMES: usize = 20_000;

/// What an entry's status says of its content: any write moves `ctime`,
/// which no process can set back, and a replaced file has another inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    ctime_ns: i128,
    size: u64,
}

impl Stamp {
    fn of(stat: &EntryStat) -> Stamp {
        Stamp {
            dev: stat.dev,
            ino: stat.ino,
            ctime_ns: stat.ctime_ns,
            size: stat.size,
        }
    }
}

/// The report files found under a project, by their path relative to it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Found {
    files: BTreeMap<PathBuf, Stamp>,
}

impl Found {
    /// Every report file `places` says of under `root`, stamped. A folder
    /// that cannot be read is passed over: what it held is then read as
    /// new after the attempt, which only a report parse can accept.
    pub(crate) fn under(root: &Path, places: &[WrittenReports]) -> Found {
        let mut found = Found::default();
        let Ok(top) = Dir::open(root) else {
            return found;
        };
        let mut budget = MAX_FOLDERS;
        found.walk(&top, Path::new(""), 0, places, &mut budget);
        found
    }

    /// The files in `self` that `before` did not hold, or held with another
    /// stamp: those written since, in path order.
    pub(crate) fn written_since(&self, before: &Found) -> Vec<PathBuf> {
        self.files
            .iter()
            .filter(|(path, stamp)| before.files.get(*path) != Some(*stamp))
            .map(|(path, _)| path.clone())
            .collect()
    }

    fn walk(
        &mut self,
        dir: &Dir,
        rel: &Path,
        depth: usize,
        places: &[WrittenReports],
        budget: &mut usize,
    ) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let Ok(names) = dir.names_at_most(MAX_NAMES) else {
            return;
        };
        let has = |name: &str| names.iter().any(|n| n == name);
        let mut outputs: Vec<&str> = Vec::new();
        for place in places.iter().filter(|p| p.beside.iter().any(|m| has(m))) {
            let output = place.folder.split('/').next().unwrap_or_default();
            outputs.push(output);
            self.collect(dir, rel, place.folder);
        }
        if depth >= MAX_DEPTH {
            return;
        }
        for name in &names {
            let Some(text) = name.to_str() else {
                continue;
            };
            // Sources, dependencies, hidden folders (`.git`, `.gradle`) and
            // the build output already read hold no module.
            if text.starts_with('.')
                || matches!(text, "src" | "node_modules")
                || outputs.contains(&text)
            {
                continue;
            }
            if !dir.stat(name).is_ok_and(|s| s.kind == EntryKind::Dir) {
                continue;
            }
            let Ok(sub) = dir.open_dir(name) else {
                continue;
            };
            self.walk(&sub, &rel.join(name), depth + 1, places, budget);
        }
    }

    /// The `TEST-*.xml` files of the folder `folder` (`target/surefire-reports`;
    /// a last `*` stands for each folder there) beneath `dir`.
    fn collect(&mut self, dir: &Dir, rel: &Path, folder: &str) {
        let Some(open) = descend(dir, rel, folder.split('/')) else {
            return;
        };
        for (folder, path) in open {
            let Ok(names) = folder.names_at_most(MAX_NAMES) else {
                continue;
            };
            for name in names {
                if !is_report_name(&name) {
                    continue;
                }
                if let Ok(stat) = folder.stat(&name)
                    && stat.kind == EntryKind::File
                {
                    self.files.insert(path.join(&name), Stamp::of(&stat));
                }
            }
        }
    }
}

/// The folders the components `parts` reach beneath `dir` (at `rel`),
/// each opened without following a link; `*` is every folder there.
fn descend<'a>(
    dir: &Dir,
    rel: &Path,
    mut parts: impl Iterator<Item = &'a str> + Clone,
) -> Option<Vec<(Dir, PathBuf)>> {
    let Some(part) = parts.next() else {
        return Some(Vec::new());
    };
    let last = parts.clone().next().is_none();
    let names: Vec<OsString> = if part == "*" {
        dir.names_at_most(MAX_NAMES).ok()?
    } else {
        vec![OsString::from(part)]
    };
    let mut out = Vec::new();
    for name in names {
        let Ok(sub) = dir.open_dir(&name) else {
            continue;
        };
        let path = rel.join(&name);
        if last {
            out.push((sub, path));
        } else if let Some(deeper) = descend(&sub, &path, parts.clone()) {
            out.extend(deeper);
        }
    }
    Some(out)
}

/// Whether `name` is a report file's: `TEST-<class>.xml`.
fn is_report_name(name: &OsStr) -> bool {
    name.to_str()
        .is_some_and(|n| n.starts_with("TEST-") && n.ends_with(".xml"))
}

/// The report files `paths` under `root`, read (without following a link,
/// at most `limit` bytes in all) and joined under one `<testsuites>` root,
/// each file's XML declaration left out: one document for the JUnit parser.
/// `Err` names the file that could not be read, or says the files are
/// larger than `limit`.
pub(crate) fn joined(root: &Path, paths: &[PathBuf], limit: u64) -> Result<Vec<u8>, String> {
    let top = Dir::open(root).map_err(|e| format!("{}: {e}", root.display()))?;
    let mut out = b"<testsuites>\n".to_vec();
    for path in paths {
        let shown = || root.join(path).display().to_string();
        let mut dir = top
            .open_dir(OsStr::new("."))
            .map_err(|e| format!("{}: {e}", shown()))?;
        let mut components = path.iter().peekable();
        let mut name = OsStr::new("");
        while let Some(part) = components.next() {
            if components.peek().is_none() {
                name = part;
            } else {
                dir = dir
                    .open_dir(part)
                    .map_err(|e| format!("{}: {e}", shown()))?;
            }
        }
        let file = dir
            .open_file(name)
            .map_err(|e| format!("{}: {e}", shown()))?;
        let left = limit.saturating_sub(out.len() as u64);
        let mut bytes = Vec::new();
        file.take(left + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{}: {e}", shown()))?;
        if bytes.len() as u64 > left {
            return Err(format!(
                "the reports are larger than the {} MiB testgate reads",
                limit >> 20
            ));
        }
        out.extend_from_slice(without_declaration(&bytes));
        out.push(b'\n');
    }
    out.extend_from_slice(b"</testsuites>\n");
    Ok(out)
}

/// `xml` without its leading byte-order mark and `<?xml …?>` declaration.
fn without_declaration(xml: &[u8]) -> &[u8] {
    let xml = xml.strip_prefix(b"\xef\xbb\xbf").unwrap_or(xml);
    let start = xml
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(xml.len());
    let rest = &xml[start..];
    if rest.starts_with(b"<?xml")
        && let Some(end) = rest.windows(2).position(|w| w == b"?>")
    {
        return &rest[end + 2..];
    }
    rest
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests plant reports in folders of their own"
)]
mod tests {
    use super::*;

    const SUREFIRE: &[WrittenReports] = &[WrittenReports {
        beside: &["pom.xml"],
        folder: "target/surefire-reports",
    }];
    const GRADLE: &[WrittenReports] = &[WrittenReports {
        beside: &["build.gradle"],
        folder: "build/test-results/*",
    }];

    fn plant(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
        std::fs::write(path, text).expect("a file");
    }

    /// Only what the attempt wrote counts: a stale report of an earlier
    /// build does not, one rewritten does, every module's is found, and a
    /// file of another name, a folder without its manifest or a link are
    /// passed over.
    #[test]
    fn the_reports_written_since_are_every_modules_new_or_rewritten_ones() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path();
        plant(root, "pom.xml", "<project/>");
        plant(root, "core/pom.xml", "<project/>");
        plant(root, "core/target/surefire-reports/TEST-a.A.xml", "stale");
        plant(root, "core/target/surefire-reports/TEST-a.B.xml", "stale");
        plant(root, "nopom/target/surefire-reports/TEST-a.C.xml", "x");
        let before = Found::under(root, SUREFIRE);
        assert_eq!(before.files.len(), 2);
        plant(
            root,
            "core/target/surefire-reports/TEST-a.B.xml",
            "rewritten",
        );
        plant(root, "app/pom.xml", "<project/>");
        plant(root, "app/target/surefire-reports/TEST-b.A.xml", "new");
        plant(root, "app/target/surefire-reports/b.A.txt", "not a report");
        std::os::unix::fs::symlink(
            root.join("app/target"),
            root.join("core/target/surefire-reports/TEST-link.xml"),
        )
        .expect("a link");
        let after = Found::under(root, SUREFIRE);
        assert_eq!(
            after.written_since(&before),
            [
                PathBuf::from("app/target/surefire-reports/TEST-b.A.xml"),
                PathBuf::from("core/target/surefire-reports/TEST-a.B.xml"),
            ]
        );
        let joined = joined(root, &after.written_since(&before), 1 << 20).expect("read");
        assert_eq!(
            String::from_utf8_lossy(&joined),
            "<testsuites>\nnew\nrewritten\n</testsuites>\n"
        );
        assert!(super::joined(root, &after.written_since(&before), 5).is_err());
    }

    /// Gradle's test tasks each write their own folder.
    #[test]
    fn every_test_tasks_folder_of_gradle() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path();
        plant(root, "build.gradle", "");
        let before = Found::under(root, GRADLE);
        plant(root, "build/test-results/test/TEST-a.A.xml", "x");
        plant(root, "build/test-results/integrationTest/TEST-a.B.xml", "x");
        plant(root, "build/test-results/test/binary/results.bin", "x");
        let after = Found::under(root, GRADLE);
        assert_eq!(after.written_since(&before).len(), 2);
    }

    #[test]
    fn a_declaration_is_left_out_and_only_it() {
        assert_eq!(
            without_declaration(b"\xef\xbb\xbf<?xml version=\"1.0\"?>\n<testsuite/>"),
            b"\n<testsuite/>"
        );
        assert_eq!(without_declaration(b"  <testsuite/>"), b"<testsuite/>");
    }
}
