//! A flood of connections the sandbox refused, seen in the output.
//!
//! Where no network namespace can be made (a container's default profile),
//! Landlock and the seccomp filter refuse every TCP connect and every bind
//! but to port 0: a suite that talks to servers it starts itself then
//! fails test after test with EACCES, and often hangs (an express app
//! under supertest: ~1,040 failures, then the 10-minute timeout). With a
//! network namespace of its own the same connect gives ECONNREFUSED, never
//! EACCES or EPERM, so these lines mean the sandbox, not the code. Where
//! the loopback is supervised ([`crate::loopback`]) a suite's own servers
//! answer, and the supervisor counts every other connect it refused: the
//! kernel's evidence, read alongside the output's.

/// How many refusals make a flood: one test that asserts a refusal is not.
pub(crate) const FLOOD: u32 = 3;

/// Counts lines of the output that report a socket call refused with EACCES
/// or EPERM, as each runtime words it.
#[derive(Debug, Default)]
pub(crate) struct Refusals {
    /// Lines seen so far, stopping at [`FLOOD`].
    count: u32,
    /// The connects the loopback's supervisor refused (the kernel's
    /// evidence, [`crate::loopback`]), where it runs.
    kernel: Option<std::sync::Arc<std::sync::atomic::AtomicU32>>,
    /// The first such line, cut to 200 bytes.
    pub(crate) first: Option<String>,
}

impl Refusals {
    /// Reads `chunk`, one or more whole lines (or a line cut at the pipe's
    /// bound).
    pub(crate) fn see(&mut self, chunk: &[u8]) {
        if self.is_flood() || !may_hold_a_refusal(chunk) {
            return;
        }
        for line in chunk.split(|b| *b == b'\n') {
            if refused_by_the_sandbox(line) {
                self.count += 1;
                if self.first.is_none() {
                    let cut = &line[..line.len().min(200)];
                    self.first = Some(String::from_utf8_lossy(cut).trim().to_owned());
                }
                if self.is_flood() {
                    return;
                }
            }
        }
    }

    /// Counts the refusals of the loopback's supervisor too.
    pub(crate) fn count_the_kernels(
        &mut self,
        refused: std::sync::Arc<std::sync::atomic::AtomicU32>,
    ) {
        self.kernel = Some(refused);
    }

    /// Whether [`FLOOD`] refusals were seen, in the output or by the
    /// loopback's supervisor.
    pub(crate) fn is_flood(&self) -> bool {
        let kernel = self
            .kernel
            .as_ref()
            .map_or(0, |k| k.load(std::sync::atomic::Ordering::Relaxed));
        self.count >= FLOOD || kernel >= FLOOD
    }
}

/// Whether `chunk` holds a word every refusal line holds one of: a few
/// passes of memmem over the whole chunk, so that the lines of an output
/// without any (nearly all) are never split and searched one by one
/// (issue 36: every line of every run under Landlock came through here).
fn may_hold_a_refusal(chunk: &[u8]) -> bool {
    use std::sync::LazyLock;
    static WORDS: LazyLock<[memchr::memmem::Finder<'static>; 4]> = LazyLock::new(|| {
        [
            memchr::memmem::Finder::new("EACCES"),
            memchr::memmem::Finder::new("EPERM"),
            memchr::memmem::Finder::new("ermission denied"),
            memchr::memmem::Finder::new("Operation not permitted"),
        ]
    });
    WORDS.iter().any(|word| word.find(chunk).is_some())
}

/// Whether `line` reports a socket call refused with EACCES or EPERM, as
/// node (`connect EACCES 127.0.0.1:3000`, `listen EACCES: permission
/// denied`), go (`dial tcp 127.0.0.1:80: connect: permission denied`,
/// `listen tcp 127.0.0.1:80: bind: permission denied`), Python (a bare
/// `PermissionError: [Errno 13] Permission denied`, the way a socket call
/// fails; a file's adds `: 'PATH'`) and Java (`java.net.SocketException:
/// Permission denied`) word it. Never a file's EACCES, nor a refused
/// connection (ECONNREFUSED).
pub(crate) fn refused_by_the_sandbox(line: &[u8]) -> bool {
    // Most lines hold neither word: one pass of memchr2 decides.
    if memchr::memchr2(b'E', b'P', line).is_none() && !contains(line, b"permission denied") {
        return false;
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    const ANYWHERE: [&[u8]; 10] = [
        b"connect EACCES",
        b"connect EPERM",
        b"listen EACCES",
        b"listen EPERM",
        b"bind EACCES",
        b"bind EPERM",
        b": connect: permission denied",
        b": bind: permission denied",
        b"java.net.SocketException: Permission denied",
        b"java.net.BindException: Permission denied",
    ];
    const AT_THE_END: [&[u8]; 2] = [
        b"PermissionError: [Errno 13] Permission denied",
        b"PermissionError: [Errno 1] Operation not permitted",
    ];
    ANYWHERE.iter().any(|word| contains(line, word))
        || AT_THE_END
            .iter()
            .any(|word| line.trim_ascii_end().ends_with(word))
}

fn contains(line: &[u8], word: &[u8]) -> bool {
    memchr::memmem::find(line, word).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_by_runtime_and_where_it_must_not_fire() {
        let cases: &[(&str, bool)] = &[
            ("    Error: connect EACCES 127.0.0.1:41234", true),
            (
                "Error: listen EACCES: permission denied 0.0.0.0:3000\r",
                true,
            ),
            (
                "    server_test.go:12: Get \"http://127.0.0.1:8080/\": dial tcp 127.0.0.1:8080: connect: permission denied",
                true,
            ),
            ("listen tcp 127.0.0.1:8080: bind: permission denied", true),
            ("E   PermissionError: [Errno 13] Permission denied", true),
            ("PermissionError: [Errno 1] Operation not permitted  ", true),
            (
                "java.net.SocketException: Permission denied (connect failed)",
                true,
            ),
            // A file's EACCES, a refused connection, words in a message.
            (
                "PermissionError: [Errno 13] Permission denied: '/etc/shadow'",
                false,
            ),
            (
                "Error: EACCES: permission denied, open '/root/.npmrc'",
                false,
            ),
            ("Error: connect ECONNREFUSED 127.0.0.1:3000", false),
            ("dial tcp 127.0.0.1:1: connect: connection refused", false),
            ("open /x: permission denied", false),
            ("test result: ok. 3 passed; 0 failed", false),
        ];
        for (line, expected) in cases {
            assert_eq!(refused_by_the_sandbox(line.as_bytes()), *expected, "{line}");
        }
    }

    /// The chunk's prefilter never hides a line the line's test finds.
    #[test]
    fn every_refusal_passes_the_chunks_prefilter() {
        for line in [
            "connect EACCES 1",
            "listen EPERM",
            "x: connect: permission denied",
            "java.net.BindException: Permission denied",
            "PermissionError: [Errno 1] Operation not permitted",
        ] {
            assert!(refused_by_the_sandbox(line.as_bytes()), "{line}");
            assert!(
                may_hold_a_refusal(format!("ok\n{line}\n").as_bytes()),
                "{line}"
            );
        }
        assert!(!may_hold_a_refusal(
            b"=== RUN   TestA\n    a_test.go:9: step 1\n"
        ));
    }

    #[test]
    fn a_flood_is_three_lines_in_any_chunking() {
        let output = "ok 1\nError: connect EACCES 127.0.0.1:1\nok 2\n\
                      Error: connect EACCES 127.0.0.1:2\nError: connect EACCES 127.0.0.1:3\n";
        let mut whole = Refusals::default();
        whole.see(output.as_bytes());
        assert!(whole.is_flood());
        assert_eq!(
            whole.first.as_deref(),
            Some("Error: connect EACCES 127.0.0.1:1")
        );
        let mut two = Refusals::default();
        two.see(b"Error: connect EACCES 127.0.0.1:1\nError: connect EACCES 127.0.0.1:2\n");
        assert!(!two.is_flood());
    }
}
