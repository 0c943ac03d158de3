//! The host's toolchain caches: readable in the sandbox, never written.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::harness::{Attack, Place, contains};

/// Every file and symlink under `dir` but `skip`, with its mode and
/// content (a symlink's target): what a later host build would read.
fn snapshot(dir: &Path, skip: &Path) -> BTreeMap<PathBuf, (u32, Vec<u8>)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("read_dir").flatten() {
            let path = entry.path();
            if path.starts_with(skip) {
                continue;
            }
            let meta = fs::symlink_metadata(&path).expect("metadata");
            let content = if meta.is_dir() {
                stack.push(path.clone());
                Vec::new()
            } else if meta.is_symlink() {
                fs::read_link(&path)
                    .expect("read_link")
                    .into_os_string()
                    .into_encoded_bytes()
            } else {
                fs::read(&path).expect("read")
            };
            out.insert(path, (meta.permissions().mode(), content));
        }
    }
    out
}

#[test]
fn the_hosts_caches_are_readable_and_nothing_can_be_planted_in_them() {
    the_hosts_caches_are_readable_and_nothing_can_be_planted_in_them_in(Place::Bwrap);
}

pub(super) fn the_hosts_caches_are_readable_and_nothing_can_be_planted_in_them_in(place: Place) {
    let attack = Attack::new_in("caches", place).keeping_changes();
    let home = attack.outside().join("home");
    // One entry in each host cache, as the toolchain lays it out: (path
    // under the home, content, whether the sandbox shows a private copy).
    let entries = [
        (
            ".cache/go-build/ab/ab5f0c1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f-d",
            "host-go-build-object",
            true,
        ),
        (
            "go/pkg/mod/example.com/dep@v1.0.0/dep.go",
            "host-go-module-source",
            false,
        ),
        (
            "go/pkg/mod/cache/download/example.com/dep/@v/v1.0.0.zip",
            "host-go-module-zip",
            false,
        ),
        (
            ".npm/_cacache/index-v5/1f/2e/3d4c5b6a79881726354453627180a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2",
            "host-npm-index",
            true,
        ),
        (
            ".npm/_cacache/content-v2/sha512/aa/bb/ccddeeff00112233445566778899aabbccddeeff",
            "host-npm-content",
            true,
        ),
        (
            ".cache/pip/http-v2/a/b/c/d/e/abcde0123456789abcdef0123456789abcdef0123456789abcdef01",
            "host-pip-http",
            true,
        ),
        (
            ".cache/pip/wheels/ab/cd/ef/pkg-1.0-py3-none-any.whl",
            "host-pip-wheel",
            true,
        ),
        (
            ".cargo/registry/cache/index.crates.io-1949cf8c6b5b557f/libc-0.2.0.crate",
            "host-cargo-crate",
            false,
        ),
        (
            ".cargo/registry/src/index.crates.io-1949cf8c6b5b557f/libc-0.2.0/src/lib.rs",
            "host-cargo-source",
            false,
        ),
    ];
    let mut attack = attack;
    for (rel, content, _) in entries {
        let path = home.join(rel);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(&path, format!("{content}\n")).expect("plant the host entry");
        attack = attack.script_arg(rel);
    }
    // Go's module cache is read-only files in read-only directories, as
    // go leaves it (GOFLAGS=-modcacherw is not set).
    for rel in [
        "go/pkg/mod/example.com/dep@v1.0.0/dep.go",
        "go/pkg/mod/cache/download/example.com/dep/@v/v1.0.0.zip",
    ] {
        fs::set_permissions(home.join(rel), fs::Permissions::from_mode(0o444)).expect("chmod");
    }
    fs::set_permissions(
        home.join("go/pkg/mod/example.com/dep@v1.0.0"),
        fs::Permissions::from_mode(0o555),
    )
    .expect("chmod");
    // testgate keeps the private caches under XDG_CACHE_HOME: not a host
    // toolchain's cache, and not compared.
    let private_root = home.join(".cache/testgate");
    let before = snapshot(&home, &private_root);
    let attack = attack
        .testgate_env("HOME", &home)
        .testgate_env("XDG_CACHE_HOME", home.join(".cache"));
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    let dump = fs::read(attack.project().join("dump.bin")).expect("the suite's dump");
    for (rel, content, private) in entries {
        assert!(
            contains(&dump, format!("read: {content}")),
            "{rel} was not readable in the sandbox:\n{}",
            String::from_utf8_lossy(&dump)
        );
        // A private copy takes the writes (as the toolchain's own would);
        // the rest is read-only. Either way the host's file is untouched.
        for verb in ["overwrote", "appended", "added beside"] {
            assert_eq!(
                contains(&dump, format!("{verb} {rel}")),
                private,
                "{verb} {rel}:\n{}",
                String::from_utf8_lossy(&dump)
            );
        }
    }
    let after = snapshot(&home, &private_root);
    for (path, entry) in &after {
        // Under Landlock the suite's `chmod u+w` of the host's read-only
        // Go module cache succeeds (Landlock does not govern a file's
        // mode: not promised, docs/security.md); the contents hold.
        let compared = |entry: Option<&(u32, Vec<u8>)>| match place {
            Place::Bwrap => entry.cloned(),
            Place::Landlock => entry.map(|(_, content)| (0, content.clone())),
        };
        assert_eq!(
            compared(before.get(path)),
            compared(Some(entry)),
            "{} was planted or changed on the host",
            path.display()
        );
    }
    assert_eq!(before.len(), after.len(), "a host cache entry went missing");
    // The writes landed in the project's private copies.
    // One project's caches (beside them the eviction's `.evicted` stamp).
    let projects: Vec<PathBuf> = fs::read_dir(private_root.join("sandbox"))
        .expect("the private caches")
        .flatten()
        .filter(|e| !e.file_name().as_encoded_bytes().starts_with(b"."))
        .map(|e| e.path())
        .collect();
    assert_eq!(projects.len(), 1, "{projects:?}");
    let copy = projects[0].join(
        "home-cache/go-build/ab/ab5f0c1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f-d",
    );
    assert_eq!(
        fs::read_to_string(&copy).expect("the private copy"),
        "planted-by-the-test\nappended-by-the-test\n"
    );
    assert!(!contains(&outcome.stderr, "could not be seeded"));
    attack.assert_contained(&outcome);
}

/// What testgate learnt of the project's tree in earlier checks (the
/// stamps it trusts instead of reading a file, the copies it puts files
/// back from: docs/sandbox.md, "Across checks") lies in its private state
/// beside the project's private caches: in neither sandbox can a test
/// list, read or write it, by the host's path or beside any cache the
/// sandbox shows, and the host's record holds nothing of the suite's.
/// Checked to fail with the record placed inside a private cache the
/// sandbox binds (`home-cache/tree-record`).
#[test]
fn the_tree_record_is_out_of_reach_in_both_sandboxes() {
    for place in [Place::Bwrap, Place::Landlock] {
        let attack = Attack::new_in("tree-record", place).keeping_changes();
        let home = attack.outside().join("home");
        let root = home.join(".cache/testgate/sandbox");
        fs::create_dir_all(&root).expect("mkdir");
        let attack = attack
            .script_arg(&root)
            .testgate_env("HOME", &home)
            .testgate_env("XDG_CACHE_HOME", home.join(".cache"));
        let outcome = attack.run();
        outcome.assert_verdict("pass", None, 0);
        let dump = fs::read(attack.project().join("dump.bin")).expect("the suite's dump");
        let dump = String::from_utf8_lossy(&dump);
        // Under Landlock the folder can be found (`stat` is not among
        // what its rules govern, and the private caches' paths tell where
        // it lies), never opened.
        for verb in ["listed", "read", "wrote", "planted"] {
            assert!(
                !dump.lines().any(|line| line.starts_with(verb)),
                "{place:?}: the suite {verb} a record:\n{dump}"
            );
        }
        // The control: the record is there on the host, as the check left
        // it, with nothing of the suite's in it.
        let records: Vec<PathBuf> = fs::read_dir(&root)
            .expect("the cache root")
            .flatten()
            .map(|project| project.path().join("tree-record"))
            .filter(|record| record.join("stamps").is_file())
            .collect();
        assert_eq!(records.len(), 1, "{place:?}: {records:?}");
        let stamps = fs::read(records[0].join("stamps")).expect("stamps");
        assert!(!contains(&stamps, "forged-by-the-test"), "{place:?}");
        assert!(!records[0].join("copies/planted").exists(), "{place:?}");
    }
}
