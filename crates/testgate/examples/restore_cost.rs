//! What putting the tree back between attempts costs (issue 34): every
//! attempt now starts from the tree as submitted, so testgate keeps a copy
//! of the recorded files and, after an attempt that changed them, puts
//! them back and compares again before the next attempt.
//!
//! `cargo run --release -p testgate --example restore_cost [FILES]`
//!
//! Two trees, made in fresh folders under /var/tmp and removed at the end:
//! a project of 1,000 files and a repository of FILES files (default
//! 50,000, in 2,500 folders, as `tree_digest`). On each, first the
//! library alone: recording the tree without and with the copies (the
//! copies are now always kept), comparing an untouched tree, then a suite's
//! rewrite of 1,000 of its files (new bytes, the same sizes) compared and
//! put back (`Snapshot::put_back`: the writes and the comparison after
//! them). Then whole checks under Landlock, `-k 2` of a command that fails
//! each time (so all three attempts run): one that rewrites the 1,000
//! files, one that writes each back with its own bytes (the same work,
//! nothing to put back); the difference, over three put-backs (after each
//! attempt), is what restoring costs a check; beside the copies, the peak memory they take.
//! Each check figure is the median of five runs,
//! the two kinds interleaved. Prints figures; asserts that every put-back
//! gives the recorded tree back.
#![expect(
    clippy::disallowed_methods,
    reason = "a benchmark writes the trees it generates and edits"
)]

mod harness;

use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use testgate::project_tree::Snapshot;
use testgate::run::LandlockOptions;
use testgate::{Sandbox, SandboxedTests, TestConfig, Verdict};

use harness::{Quiet, median};

/// How many times each check is measured.
const RUNS: usize = 5;

/// How many files the suite rewrites.
const REWRITTEN: usize = 1_000;

fn main() -> Result<(), Box<dyn Error>> {
    let files: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(50_000);
    for count in [REWRITTEN, files] {
        let root = PathBuf::from(format!(
            "/var/tmp/testgate-restore-cost-{}-{count}",
            std::process::id()
        ));
        let bytes = make_tree(&root, count)?;
        println!(
            "== {count} files in {} folders, {:.1} MiB",
            folders(count),
            bytes as f64 / 1048576.0
        );
        library(&root)?;
        checks(&root)?;
        fs::remove_dir_all(&root)?;
    }
    Ok(())
}

/// The folders `count` files are spread over.
fn folders(count: usize) -> usize {
    count.div_ceil(20)
}

/// The path of file `i` of the tree.
fn file(i: usize) -> PathBuf {
    PathBuf::from(format!("src/m{:03}/f{i}.rs", i / 20))
}

/// Writes `count` files of 10 B to 2 KB under `root`; returns their size.
fn make_tree(root: &Path, count: usize) -> Result<u64, Box<dyn Error>> {
    let mut bytes = 0u64;
    for i in 0..count {
        let path = root.join(file(i));
        fs::create_dir_all(path.parent().ok_or("a parent")?)?;
        let body = format!("// file {i:06}\n{}", "fn f() {}\n".repeat(i % 200));
        bytes += body.len() as u64;
        fs::write(path, body)?;
    }
    // The suite: `rewrite` changes the first 1,000 files' bytes (the same
    // sizes), `same` rewrites them with their own bytes (the same work,
    // nothing to put back); both then fail, so retries run.
    fs::write(
        root.join("suite.sh"),
        format!(
            "i=0\nwhile [ $i -lt {REWRITTEN} ]; do\n  f=src/m$(printf %03d $((i / 20)))/f$i.rs\n  \
             if [ \"$1\" = rewrite ]; then sed -i '1s/file/FILE/' \"$f\"; else sed -i '1s/file/file/' \"$f\"; fi\n  \
             i=$((i + 1))\ndone\necho '0 passed, 1 failed'\nexit 1\n"
        ),
    )?;
    Ok(bytes)
}

fn library(root: &Path) -> Result<(), Box<dyn Error>> {
    let t = Instant::now();
    let bare = Snapshot::take(root, false)?;
    println!(
        "record, digest only:          {:>9.1} ms  ({} entries)",
        ms(t.elapsed()),
        bare.len()
    );
    drop(bare);
    let before = peak_rss_mib();
    let t = Instant::now();
    let snapshot = Snapshot::take(root, true)?;
    println!(
        "record, with the copies:      {:>9.1} ms  (peak RSS {before:.0} -> {:.0} MiB)",
        ms(t.elapsed()),
        peak_rss_mib()
    );
    let t = Instant::now();
    let change = snapshot.compare();
    println!(
        "compare, untouched:           {:>9.1} ms  (untouched: {})",
        ms(t.elapsed()),
        change.is_untouched()
    );
    for i in 0..REWRITTEN.min(snapshot.len()) {
        let path = root.join(file(i));
        let body = fs::read_to_string(&path)?.replacen("file", "FILE", 1);
        fs::write(path, body)?;
    }
    let t = Instant::now();
    let change = snapshot.compare();
    let compared = t.elapsed();
    let t = Instant::now();
    let put = snapshot.put_back(&change)?;
    let put_back = t.elapsed();
    println!(
        "compare, {} rewritten:       {:>9.1} ms\nput back (writes + compare):  {:>9.1} ms  ({put} files)",
        change.changed.len(),
        ms(compared),
        ms(put_back)
    );
    assert!(
        snapshot.compare().is_untouched(),
        "the put-back gives the recorded tree back"
    );
    Ok(())
}

fn checks(root: &Path) -> Result<(), Box<dyn Error>> {
    let mut rewriting = Vec::new();
    let mut reading = Vec::new();
    for _ in 0..RUNS {
        rewriting.push(check(root, "rewrite")?);
        reading.push(check(root, "same")?);
    }
    let (rewriting, reading) = (median(rewriting), median(reading));
    println!(
        "check -k 2, the suite rewrites {REWRITTEN} files: {:>9.1} ms\n\
         check -k 2, the same bytes written back: {:>9.1} ms\n\
         restoring, per put-back:                {:>9.1} ms",
        ms(rewriting),
        ms(reading),
        ms(rewriting.saturating_sub(reading)) / 3.0
    );
    Ok(())
}

/// One check of `sh suite.sh WHAT` with `-k 2`: every attempt fails.
fn check(root: &Path, what: &str) -> Result<Duration, Box<dyn Error>> {
    let sandbox = Sandbox::Landlock(LandlockOptions::default());
    let config = TestConfig::new(root, "sh", ["suite.sh", what]).retrying(2);
    let t = Instant::now();
    let record = SandboxedTests::new(sandbox, config).run_observed(&mut Quiet);
    let took = t.elapsed();
    let passed = match &record.verdict {
        Verdict::Pass { .. } => true,
        Verdict::Fail { .. } | Verdict::Inconclusive { .. } => false,
    };
    if passed || record.attempts.len() != 3 {
        return Err(format!(
            "{what}: {:?} after {} attempts",
            record.verdict,
            record.attempts.len()
        )
        .into());
    }
    assert!(
        Snapshot::take(root, false)?.compare().is_untouched(),
        "{what}"
    );
    Ok(took)
}

/// This process's peak resident set (`VmHWM`), in MiB.
fn peak_rss_mib() -> f64 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
