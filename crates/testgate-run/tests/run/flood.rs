//! Output volume: a flood on stdout and stderr at once in flat memory.

use std::time::Duration;

use testgate_run::{Ending, run};

use super::{host, inner_role, reexec};

/// Bytes written to each of stdout and stderr in CI. The 2 GB figure is in
/// the benchmark (`examples/bench.rs`): in a debug build this one takes a
/// few seconds.
const EACH: u64 = 512 * 1024 * 1024;

fn vm_hwm_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

#[test]
fn a_flood_on_both_streams_keeps_memory_flat() {
    if inner_role().is_some() {
        return;
    }
    let output = reexec("flood::inner_flood", "flood", &[]);
    let line = output
        .lines()
        .find_map(|l| l.split_once("flood: ").map(|(_, rest)| rest))
        .unwrap_or_else(|| panic!("the inner flood reports: {output}"));
    let fields: Vec<u64> = line
        .split(' ')
        .map(|f| f.parse().expect("a number"))
        .collect();
    let [bytes, before, after] = fields[..] else {
        panic!("{line}")
    };
    assert_eq!(bytes, 2 * EACH);
    // Peak RSS of the whole runner process: under 32 MB, and the run itself
    // added under 8 MB however much passed through.
    assert!(after < 32 * 1024, "peak RSS {after} KiB");
    assert!(
        after - before < 8 * 1024,
        "peak RSS grew {before} -> {after} KiB"
    );
}

#[test]
fn inner_flood() {
    if inner_role().as_deref() != Some("flood") {
        return;
    }
    let before = vm_hwm_kib();
    let mut counted = 0u64;
    let spec = host(&format!(
        "head -c {EACH} /dev/zero & head -c {EACH} /dev/zero >&2; wait"
    ))
    .timeout(Duration::from_secs(200));
    let finished = run(&spec, &mut |chunk: &[u8]| counted += chunk.len() as u64).expect("runs");
    assert_eq!(finished.ending, Ending::Exited(0));
    assert_eq!(finished.output_bytes, counted);
    println!("flood: {} {before} {}", finished.output_bytes, vm_hwm_kib());
}
