//! Measures the tree digest on a 50,000-file project: record (with and
//! without the copies `--restore` keeps), compare, restore.
//!
//! `cargo run --release -p testgate --example tree_digest [FILES] [DIR]`
//! (DIR defaults to a fresh folder under /var/tmp, removed at the end).
#![expect(
    clippy::disallowed_methods,
    reason = "a benchmark writes the project it generates and edits"
)]

use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use testgate::tree::Snapshot;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let files: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(50_000);
    let root = args.next().map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(format!(
            "/var/tmp/testgate-tree-bench-{}",
            std::process::id()
        ))
    });
    fs::create_dir_all(&root)?;
    let mut bytes = 0u64;
    for i in 0..files {
        let dir = root.join(format!("src/m{:03}", i % 500));
        fs::create_dir_all(&dir)?;
        let body = format!("// file {i}\n{}", "fn f() {}\n".repeat(i % 200));
        bytes += body.len() as u64;
        fs::write(dir.join(format!("f{i}.rs")), body)?;
    }
    println!(
        "tree: {files} files, {:.1} MiB, in {}",
        bytes as f64 / 1048576.0,
        root.display()
    );

    let t = Instant::now();
    let snap = Snapshot::take(&root, false)?;
    println!(
        "record (digest only):  {:>8.1} ms  ({} files, digest {})",
        ms(t),
        snap.len(),
        &snap.digest()[..16]
    );
    let t = Instant::now();
    let with_copies = Snapshot::take(&root, true)?;
    println!("record (with copies):  {:>8.1} ms", ms(t));
    let t = Instant::now();
    let change = snap.compare();
    println!(
        "compare (unchanged):   {:>8.1} ms  (changed: {})",
        ms(t),
        !change.is_empty()
    );
    for i in 0..100 {
        let path = root.join(format!("src/m{:03}/f{i}.rs", i % 500));
        fs::write(path, "changed")?;
    }
    let t = Instant::now();
    let change = with_copies.compare();
    println!(
        "compare (100 changed): {:>8.1} ms  ({} changed)",
        ms(t),
        change.changed.len()
    );
    let t = Instant::now();
    let restored = with_copies
        .restore(&change)
        .map_err(std::io::Error::other)?;
    println!(
        "restore (100 files):   {:>8.1} ms  ({restored} restored)",
        ms(t)
    );
    assert!(
        snap.compare().is_empty(),
        "restore must give the recorded tree back"
    );
    if std::env::args().nth(2).is_none() {
        fs::remove_dir_all(&root)?;
    }
    Ok(())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}
