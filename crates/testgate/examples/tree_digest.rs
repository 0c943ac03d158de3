//! Measures the tree digest on a 50,000-file project in 2,500 folders:
//! record (with and without the copies kept to put the tree back), compare,
//! restore, and recording beside a large sparse file.
//!
//! `cargo run --release -p testgate --example tree_digest [FILES] [DIR] [SPARSE_GIB]`
//! (DIR defaults to a fresh folder under /var/tmp, removed at the end;
//! SPARSE_GIB, default 2, is the size of the sparse file planted last).
//! Only `Snapshot::take`, `compare`, `restore`, `digest` and `len` are
//! used, so the same program measures older versions of the library.
#![expect(
    clippy::disallowed_methods,
    reason = "a benchmark writes the project it generates and edits"
)]

use std::error::Error;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use testgate::project_tree::Snapshot;

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let files: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(50_000);
    let given = args.next().map(PathBuf::from);
    let sparse_gib: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(2);
    let root = given.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "/var/tmp/testgate-tree-bench-{}",
            std::process::id()
        ))
    });
    fs::create_dir_all(&root)?;
    let mut bytes = 0u64;
    let folder = |i: usize| root.join(format!("src/m{:02}/n{:02}", i % 50, (i / 50) % 50));
    for i in 0..files {
        let dir = folder(i);
        fs::create_dir_all(&dir)?;
        let body = format!("// file {i}\n{}", "fn f() {}\n".repeat(i % 200));
        bytes += body.len() as u64;
        fs::write(dir.join(format!("f{i}.rs")), body)?;
    }
    println!(
        "tree: {files} files in 2,500 folders, {:.1} MiB, in {}",
        bytes as f64 / 1048576.0,
        root.display()
    );

    let t = Instant::now();
    let snap = Snapshot::take(&root, false)?;
    println!(
        "record (digest only):  {:>8.1} ms  ({} entries, digest {})",
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
        fs::write(folder(i).join(format!("f{i}.rs")), "changed")?;
    }
    let t = Instant::now();
    let change = with_copies.compare();
    println!(
        "compare (100 changed): {:>8.1} ms  ({} changed)",
        ms(t),
        change.changed.len()
    );
    let t = Instant::now();
    let restored = with_copies.restore(&change)?;
    println!(
        "restore (100 files):   {:>8.1} ms  ({restored} restored)",
        ms(t)
    );
    assert!(
        snap.compare().is_empty(),
        "restore must give the recorded tree back"
    );

    // A suite's leftover: a sparse file, recorded at the next check.
    let big = fs::File::create(root.join("big.bin"))?;
    big.set_len(sparse_gib << 30)?;
    drop(big);
    let t = Instant::now();
    let with_big = Snapshot::take(&root, false)?;
    println!(
        "record beside a {sparse_gib} GiB sparse file: {:>8.1} ms  ({} entries)",
        ms(t),
        with_big.len()
    );
    fs::remove_file(root.join("big.bin"))?;
    if given.is_none() {
        fs::remove_dir_all(&root)?;
    }
    Ok(())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}
