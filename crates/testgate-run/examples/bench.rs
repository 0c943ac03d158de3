//! Measures the runner's overhead against a bare spawn, and the flood's peak
//! RSS. Run with `cargo run --release -p testgate-run --example bench`.

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use testgate_run::{BwrapOptions, Ending, RunSpec, Sandbox, run};

/// Wall time and this process's CPU time (user + system) of one closure.
fn measure(mut f: impl FnMut()) -> (Duration, Duration) {
    let cpu_before = cpu_time();
    let started = Instant::now();
    f();
    (started.elapsed(), cpu_time() - cpu_before)
}

fn cpu_time() -> Duration {
    // SAFETY: getrusage fills a zeroed struct we own.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn vm_hwm_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The baseline: spawn `sh -c script` directly (after `prefix`, e.g. a bare
/// bwrap command line) and read its stdout.
fn direct(prefix: &[&str], script: &str) -> u64 {
    let mut argv: Vec<&str> = prefix.to_vec();
    argv.extend(["sh", "-c", script]);
    #[expect(
        clippy::disallowed_methods,
        reason = "the benchmark's baseline is a bare spawn, without the runner"
    )]
    let mut command = std::process::Command::new(argv[0]);
    let mut child = command
        .args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn sh");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut buffer = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        match stdout.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => total += n as u64,
        }
    }
    child.wait().expect("wait");
    total
}

fn through_runner(script: &str, sandbox: &Sandbox, dir: &std::path::Path) -> u64 {
    let spec = RunSpec::new("sh", ["-c", script])
        .dir(dir)
        .sandbox(sandbox.clone());
    let mut total = 0u64;
    let finished = run(&spec, &mut |c: &[u8]| total += c.len() as u64).expect("runs");
    assert_eq!(finished.ending, Ending::Exited(0));
    total
}

fn report(name: &str, iterations: u32, script: &str, dir: &std::path::Path) {
    let sum = |f: &mut dyn FnMut()| {
        let mut wall = Duration::ZERO;
        let mut cpu = Duration::ZERO;
        for _ in 0..iterations {
            let (w, c) = measure(&mut *f);
            wall += w;
            cpu += c;
        }
        (wall / iterations, cpu / iterations)
    };
    let (base_wall, base_cpu) = sum(&mut || {
        direct(&[], script);
    });
    println!("{name}: direct spawn      wall {base_wall:>10.3?} cpu {base_cpu:>10.3?}");
    let bare_bwrap = [
        "/usr/bin/bwrap",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--unshare-all",
        "--unshare-user",
        "--die-with-parent",
        "--",
    ];
    let (wall, cpu) = sum(&mut || {
        direct(&bare_bwrap, script);
    });
    println!(
        "{name}: bare bwrap        wall {wall:>10.3?} cpu {cpu:>10.3?}  ratio wall {:.2} cpu {:.2}",
        wall.as_secs_f64() / base_wall.as_secs_f64(),
        cpu.as_secs_f64() / base_cpu.as_secs_f64().max(1e-9),
    );
    for (label, sandbox) in [
        ("runner, host", Sandbox::Host),
        (
            "runner, bwrap",
            Sandbox::Bubblewrap(BwrapOptions::default()),
        ),
        (
            "  AF_UNIX allowed",
            Sandbox::Bubblewrap(BwrapOptions {
                allow_unix_sockets: true,
                ..BwrapOptions::default()
            }),
        ),
    ] {
        let (wall, cpu) = sum(&mut || {
            through_runner(script, &sandbox, dir);
        });
        println!(
            "{name}: {label:<17} wall {wall:>10.3?} cpu {cpu:>10.3?}  ratio wall {:.2} cpu {:.2}",
            wall.as_secs_f64() / base_wall.as_secs_f64(),
            cpu.as_secs_f64() / base_cpu.as_secs_f64().max(1e-9),
        );
    }
}

fn main() {
    let dir = tempfile::tempdir().expect("a scratch dir");
    // `quick` and `gig` run one part alone.
    match std::env::args().nth(1).as_deref() {
        Some("quick") => return report("true", 50, "true", dir.path()),
        Some("gig") => return report("1 GiB", 3, "head -c 1073741824 /dev/zero", dir.path()),
        Some(_) | None => {}
    }
    let each: u64 = 1 << 30;
    let before = vm_hwm_kib();
    let started = Instant::now();
    let flooded = through_runner(
        &format!("head -c {each} /dev/zero & head -c {each} /dev/zero >&2; wait"),
        &Sandbox::Host,
        dir.path(),
    );
    println!(
        "flood: {flooded} bytes (1 GiB on stdout and on stderr at once) in {:.2?}; \
         VmHWM {before} KiB before, {} KiB after",
        started.elapsed(),
        vm_hwm_kib()
    );
    report("true", 50, "true", dir.path());
    report("1 GiB", 3, &format!("head -c {each} /dev/zero"), dir.path());
}
