//! Toolchains in the shapes users have them, under the default bubblewrap
//! sandbox (issue 11): Go's build cache after an edit, an activated venv
//! under `/tmp` outside the project, a cargo crate with a registry
//! dependency and a `CARGO_TARGET_DIR` outside the project, jest's cache.
//! Each of these was a false Fail (or a silent rebuild) before.
#![expect(
    clippy::disallowed_methods,
    reason = "the tests set projects up as users do: touch, python3 -m venv, cargo generate-lockfile"
)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use testgate::parse::Runner;
use testgate::{Record, Sandbox, SandboxedTests, TestConfig};

use crate::projects::{Project, bwrap_for, landlock_for};
use crate::{NoObserver, assert_pass, repo_root};

pub(crate) fn run(sandbox: Sandbox, config: TestConfig) -> Record {
    SandboxedTests::new(sandbox, config.within(Duration::from_secs(300)))
        .run_observed(&mut NoObserver)
}

/// A fresh directory beside the repository's target dir (not under /tmp,
/// where the tests of the venv put theirs on purpose).
pub(crate) fn scratch() -> tempfile::TempDir {
    let base = repo_root().join("target/e2e");
    fs::create_dir_all(&base).unwrap();
    tempfile::tempdir_in(&base).unwrap()
}

/// testgate's private cache directory for the project `dir`
/// (`testgate-run`'s `host_view.rs`: the path with `/` as `+`; the paths here
/// have no other byte that it escapes).
fn private_cache(dir: &Path) -> PathBuf {
    let root = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache"));
    let name = dir
        .canonicalize()
        .unwrap()
        .to_str()
        .expect("a UTF-8 path")
        .replace('/', "+");
    root.join("testgate/sandbox").join(name)
}

fn entries(dir: &Path) -> usize {
    fs::read_dir(dir).map(Iterator::count).unwrap_or(0)
}

pub(crate) fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// Sets the modification time of `paths` `seconds` back, as an edit made
/// that long before the check (no sleeping).
fn backdate(paths: &[PathBuf], seconds: u32) {
    let status = Command::new("touch")
        .arg("-d")
        .arg(format!("{seconds} seconds ago"))
        .args(paths)
        .status()
        .expect("touch");
    assert!(status.success());
}

/// A Go module whose files were edited more than 2 s before the check, with
/// no host `go` command since: go 1.19 then writes a package index into its
/// build cache, which the read-only home made `read-only file system` and
/// a Fail with no names. The build cache is testgate's private one for the
/// project, and the second check is warm: go answers from its cache.
#[test]
fn go_builds_into_a_private_cache_that_is_warm_the_second_time() {
    let tmp = scratch();
    let dir = tmp.path().join("gomod");
    write(&dir.join("go.mod"), "module example.com/gomod\n\ngo 1.19\n");
    write(
        &dir.join("add.go"),
        "package gomod\n\nfunc Add(a, b int) int { return a + b }\n",
    );
    write(
        &dir.join("add_test.go"),
        "package gomod\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal(\"2+2\")\n\t}\n}\n",
    );
    backdate(&[dir.join("add.go"), dir.join("add_test.go")], 30);
    let first = run(Sandbox::default(), TestConfig::go(&dir));
    assert_pass(&first, "go, first check");
    let cache = private_cache(&dir).join("home-cache/go-build");
    assert!(entries(&cache) > 0, "{} stayed empty", cache.display());
    let second = run(Sandbox::default(), TestConfig::go(&dir));
    assert_pass(&second, "go, second check");
    let tail = &second.attempts[0].attempt.tail;
    assert!(
        tail.contains("(cached)"),
        "the second check was cold:\n{tail}"
    );
}

/// A venv under `/tmp` (in the directory `venvs`), outside the project,
/// with a module only it holds, and a pytest project that imports it.
fn venv_and_project(venvs: &Path) -> (PathBuf, tempfile::TempDir, PathBuf) {
    let venv = venvs.join("project-venv");
    // The system site-packages give it pytest without a download.
    let made = Command::new("python3")
        .args(["-m", "venv", "--system-site-packages"])
        .arg(&venv)
        .status()
        .expect("python3 -m venv");
    assert!(made.success(), "python3 -m venv failed");
    let site = Command::new(venv.join("bin/python"))
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
        ])
        .output()
        .expect("the venv's python");
    let site = PathBuf::from(String::from_utf8(site.stdout).unwrap().trim());
    write(&site.join("only_in_the_venv.py"), "ANSWER = 42\n");

    let tmp = scratch();
    let dir = tmp.path().join("pyproject");
    write(
        &dir.join("tests/test_venv.py"),
        "import only_in_the_venv\n\n\ndef test_the_venv_is_seen():\n    assert only_in_the_venv.ANSWER == 42\n",
    );
    (venv, tmp, dir)
}

/// A venv under `/tmp`, outside the project, activated as users do (its
/// `bin` first on `PATH`, `VIRTUAL_ENV` set): the sandbox's private `/tmp`
/// hid it, `PATH` fell through to another python, and the import of what
/// only the venv holds failed — a Fail naming the test files.
#[test]
fn an_activated_venv_under_tmp_is_the_one_the_tests_see() {
    let venvs = tempfile::Builder::new()
        .prefix("testgate-venvs-")
        .tempdir_in("/tmp")
        .unwrap();
    let (venv, _tmp, dir) = venv_and_project(venvs.path());
    let mut path = venv.join("bin").into_os_string();
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    let config = TestConfig::new(
        &dir,
        "python",
        ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
    )
    .format(Runner::Pytest)
    .env("VIRTUAL_ENV", &venv)
    .env("PATH", path);
    let record = run(Sandbox::default(), config);
    assert_pass(&record, "pytest from a venv under /tmp");
    assert_eq!(record.attempts[0].report.counts.passed, Some(1));
}

/// The same venv's python called by its path, not activated (no
/// `VIRTUAL_ENV`, `PATH` as the host has it), as harnesses do: only its
/// `bin` was shown, so Python did not find `pyvenv.cfg`, ran as the base
/// interpreter without the venv's packages, and the import failed — a
/// false Fail where the bare run passes.
#[test]
fn a_venvs_python_called_by_path_is_the_venv() {
    let venvs = tempfile::Builder::new()
        .prefix("testgate-venvs-")
        .tempdir_in("/tmp")
        .unwrap();
    let (venv, _tmp, dir) = venv_and_project(venvs.path());
    let config = TestConfig::new(
        &dir,
        venv.join("bin/python"),
        ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
    )
    .format(Runner::Pytest);
    let record = run(Sandbox::default(), config);
    assert_pass(&record, "a venv's python by path");
    assert_eq!(record.attempts[0].report.counts.passed, Some(1));
}

/// A crate with a registry dependency (read from the host's registry,
/// read-only) and a `CARGO_TARGET_DIR` outside the project, as a folder
/// shared with other projects would be: the command builds in the
/// project's private build folder, which the next check reuses, and the
/// host's folder is not written (issue 34: a test binary replaced there ran
/// in the host's next `cargo test`). Before, it was bound writable.
#[test]
fn a_target_dir_outside_the_project_is_not_written_and_the_build_is_kept_privately() {
    let lock = fs::read_to_string(repo_root().join("Cargo.lock")).unwrap();
    let version = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"libc\""))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = \"")))
        .and_then(|v| v.strip_suffix('"'))
        .expect("libc in the workspace's Cargo.lock")
        .to_owned();
    let tmp = scratch();
    let dir = tmp.path().join("crate");
    write(
        &dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"uses-libc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dependencies]\nlibc = \"={version}\"\n\n[workspace]\n"
        ),
    );
    write(
        &dir.join("src/lib.rs"),
        "#[test]\nfn has_a_pid() {\n    assert!(unsafe { libc::getpid() } > 0);\n}\n",
    );
    // The lock file, from the host's registry index, as a user has it.
    let locked = Command::new("cargo")
        .args(["generate-lockfile", "--offline", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .status()
        .expect("cargo generate-lockfile");
    assert!(locked.success(), "cargo generate-lockfile --offline failed");
    let private = private_cache(&dir).join("cargo-target/debug/deps");
    for target in [
        tmp.path().join("outside-target"),
        tempfile::Builder::new()
            .prefix("testgate-target-")
            .tempdir_in("/tmp")
            .unwrap()
            .keep(),
    ] {
        let config = TestConfig::cargo(&dir).env("CARGO_TARGET_DIR", &target);
        let record = run(Sandbox::default(), config);
        let written = entries(&target);
        let _ = fs::remove_dir_all(&target);
        assert_pass(
            &record,
            &format!("cargo with CARGO_TARGET_DIR={}", target.display()),
        );
        assert_eq!(written, 0, "{} was written", target.display());
        assert!(
            entries(&private) > 0,
            "{} holds nothing after the check",
            private.display()
        );
    }
}

/// A project with its own `.venv` (a module only the venv holds), run by
/// the venv's python: the venv is read-only under bubblewrap and watched
/// under Landlock (nothing planted there is left for the host's next
/// `python`), and the tests still see it in both.
#[test]
fn a_venv_inside_the_project_is_read_only_and_used() {
    let tmp = scratch();
    let dir = tmp.path().join("pyproject");
    let venv = dir.join(".venv");
    let (made, _, _) = venv_and_project(tmp.path());
    fs::create_dir_all(&dir).unwrap();
    fs::rename(&made, &venv).unwrap();
    // The venv's scripts name its old place; `python -m` needs none of them.
    write(
        &dir.join("tests/test_venv.py"),
        "import only_in_the_venv\n\n\ndef test_the_venv_is_seen():\n    assert only_in_the_venv.ANSWER == 42\n",
    );
    for sandbox in [bwrap_for(false), landlock_for(false)] {
        let config = TestConfig::new(
            &dir,
            venv.join("bin/python"),
            ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
        )
        .format(Runner::Pytest);
        let record = run(sandbox, config);
        assert_pass(&record, "pytest from the project's own .venv");
        assert_eq!(record.attempts[0].report.counts.passed, Some(1));
    }
}

/// jest's transform cache is `/tmp/jest_<uid>`, in the sandbox's private
/// `/tmp`: cold in every attempt. It is testgate's private cache for the
/// project now, kept between checks.
#[test]
fn jest_keeps_its_cache_between_checks() {
    let project = Project::copy(Runner::Jest);
    let record = run(bwrap_for(true), project.config());
    assert_pass(&record, "jest");
    let cache = private_cache(&project.dir).join("jest");
    assert!(entries(&cache) > 0, "{} stayed empty", cache.display());
}

/// Under Landlock too jest reads its transform cache again: the attempt's
/// `TMPDIR`, under which jest names its `cacheDirectory` (a key of every
/// cached transform), is the same path in the next check. When it was
/// new every attempt, each check transformed the test file again and
/// added an entry (docs/scale.md).
#[test]
fn jest_reads_its_transform_cache_again_under_landlock() {
    let project = Project::copy(Runner::Jest);
    let cache = private_cache(&project.dir).join("jest");
    let mut counts = Vec::new();
    for _ in 0..3 {
        let record = run(landlock_for(true), project.config());
        assert_pass(&record, "jest");
        counts.push(transformed(&cache));
    }
    assert!(counts[0] > 0, "{} holds no transform", cache.display());
    assert_eq!(
        counts[0], counts[2],
        "transforms after each check: {counts:?}"
    );
}

/// The transformed files in jest's cache (`jest-transform-cache-*/*/*`,
/// the source maps left out).
fn transformed(cache: &Path) -> usize {
    let dirs = |dir: &Path| -> Vec<PathBuf> {
        fs::read_dir(dir)
            .map(|entries| entries.flatten().map(|e| e.path()).collect())
            .unwrap_or_default()
    };
    dirs(cache)
        .iter()
        .filter(|d| {
            d.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("jest-transform-cache-"))
        })
        .flat_map(|d| dirs(d))
        .flat_map(|d| dirs(&d))
        .filter(|f| f.extension().is_none_or(|e| e != "map"))
        .count()
}

/// A preparation step writes where the attempts read: `go build` in
/// `--prepare` fills the project's private build cache (under the
/// read-only home it failed with `read-only file system`, and the check
/// was `prepare_failed`), and the attempt after it passes.
#[test]
fn a_preparation_fills_the_private_cache_the_attempts_use() {
    let tmp = scratch();
    let dir = tmp.path().join("gomod");
    write(
        &dir.join("go.mod"),
        "module example.com/prepared\n\ngo 1.19\n",
    );
    write(
        &dir.join("sum.go"),
        "package prepared\n\nfunc Sum(xs ...int) (s int) {\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn\n}\n",
    );
    write(
        &dir.join("sum_test.go"),
        "package prepared\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(1, 2, 3) != 6 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n",
    );
    let cache = private_cache(&dir);
    let record = run(
        Sandbox::default(),
        TestConfig::go(&dir).prepare("go build ./... && go vet ./..."),
    );
    assert_eq!(record.preparations.len(), 1);
    assert!(
        record.verdict.is_pass(),
        "{:#?}\n{}",
        record.verdict,
        record.preparations[0].preparation.tail
    );
    assert!(entries(&cache.join("home-cache/go-build")) > 0);
}

/// The host's caches are what the first check sees. A Go module whose
/// dependency is only in the host's module cache (`~/go/pkg/mod`, read-only
/// files as go leaves them), with `GOPROXY=off` and no network: it builds.
/// And the host's build cache, warmed by a host `go test`, is the private
/// cache's starting point: the first check under the sandbox answers from
/// it (`(cached)`), where it used to rebuild from nothing (5.9x the bare
/// run).
#[test]
fn the_hosts_module_and_build_caches_are_used_by_the_first_check() {
    let tmp = scratch();
    let home = tmp.path().join("home");
    let proxy = tmp.path().join("proxy");
    // The dependency, served once from a file proxy to fill the host's
    // module cache, as `go mod download` would from the network.
    let module = proxy.join("example.com/dep/@v");
    write(
        &module.join("v1.0.0.mod"),
        "module example.com/dep\n\ngo 1.19\n",
    );
    write(&module.join("list"), "v1.0.0\n");
    write(
        &module.join("v1.0.0.info"),
        "{\"Version\":\"v1.0.0\",\"Time\":\"2024-01-01T00:00:00Z\"}\n",
    );
    let zipped = Command::new("python3")
        .arg("-c")
        .arg(
            "import sys, zipfile\n\
             with zipfile.ZipFile(sys.argv[1], 'w') as z:\n\
             \x20   z.writestr('example.com/dep@v1.0.0/go.mod', 'module example.com/dep\\n\\ngo 1.19\\n')\n\
             \x20   z.writestr('example.com/dep@v1.0.0/dep.go', 'package dep\\n\\nfunc Answer() int { return 42 }\\n')\n",
        )
        .arg(module.join("v1.0.0.zip"))
        .status()
        .expect("python3");
    assert!(zipped.success(), "python3 could not write the module's zip");

    let dir = tmp.path().join("uses-dep");
    write(
        &dir.join("go.mod"),
        "module example.com/usesdep\n\ngo 1.19\n\nrequire example.com/dep v1.0.0\n",
    );
    write(
        &dir.join("answer_test.go"),
        "package usesdep\n\nimport (\n\t\"testing\"\n\n\t\"example.com/dep\"\n)\n\nfunc TestAnswer(t *testing.T) {\n\tif dep.Answer() != 42 {\n\t\tt.Fatal(\"answer\")\n\t}\n}\n",
    );
    let host_go = |args: &[&str], proxy_url: &str| {
        let out = Command::new("go")
            .args(args)
            .current_dir(&dir)
            .env("HOME", &home)
            .env_remove("GOPATH")
            .env_remove("GOMODCACHE")
            .env_remove("GOCACHE")
            .env_remove("XDG_CACHE_HOME")
            .env("GOPROXY", proxy_url)
            .env("GOSUMDB", "off")
            .env("GOFLAGS", "-mod=mod")
            .output()
            .expect("go");
        assert!(
            out.status.success(),
            "host go {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    host_go(&["mod", "tidy"], &format!("file://{}", proxy.display()));
    let source = home.join("go/pkg/mod/example.com/dep@v1.0.0/dep.go");
    assert!(source.is_file(), "the host's module cache was not filled");
    fs::remove_dir_all(&proxy).unwrap();
    // The host's build cache, warm for this module, with the test result
    // of the command testgate runs: `go test ./...` gets `-v=test2json`
    // (go 1.20+: the framing testgate converts to its report), and a cached
    // result is kept per set of test binary flags.
    host_go(&["test", "./...", "-v=test2json"], "off");

    let config = TestConfig::new(&dir, "go", ["test", "./..."])
        .format(Runner::Go)
        .preset()
        .env("HOME", &home)
        .env("GOPROXY", "off")
        .env("GOFLAGS", "-mod=mod");
    let first = run(Sandbox::default(), config);
    assert_pass(
        &first,
        "go with a dependency only in the host's module cache",
    );
    let tail = &first.attempts[0].attempt.tail;
    assert!(
        tail.contains("(cached)"),
        "the first check did not use the host's build cache:\n{tail}"
    );
    // The module cache was read where it is, not copied.
    assert!(!private_cache(&dir).join("home-cache/go").exists());
    // go leaves its module cache read-only; the removal needs it writable.
    let _ = Command::new("chmod")
        .args(["-R", "u+w"])
        .arg(&home)
        .status();
}

/// Node projects with their own `node_modules` (a hard-linked copy of the
/// fixtures'), read-only in the sandbox: vitest with an ES-module
/// configuration, which vite bundles into `node_modules/.vite-temp` (a
/// scratch folder of the attempt's own inside; without it vitest failed
/// with `ENOENT` under bubblewrap and `EACCES` under Landlock), and jest.
/// Both pass under bubblewrap and under Landlock.
#[test]
fn node_projects_with_their_own_node_modules_pass_with_them_read_only() {
    let tmp = scratch();
    let dir = tmp.path().join("web");
    fs::create_dir_all(&dir).unwrap();
    let copied = Command::new("cp")
        .arg("-al")
        .arg(crate::projects::node_modules())
        .arg(dir.join("node_modules"))
        .status()
        .expect("cp -al");
    assert!(copied.success(), "cp -al node_modules failed");
    write(
        &dir.join("package.json"),
        "{\"name\": \"web\", \"private\": true, \"type\": \"module\"}\n",
    );
    write(
        &dir.join("vitest.config.js"),
        "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { include: [\"*.vitest.js\"] } });\n",
    );
    write(
        &dir.join("one.vitest.js"),
        "import { test, expect } from \"vitest\";\ntest(\"one\", () => { expect(1).toBe(1); });\n",
    );
    write(
        &dir.join("one.test.cjs"),
        "test(\"one\", () => { expect(1).toBe(1); });\n",
    );
    write(
        &dir.join("jest.config.cjs"),
        "module.exports = { testMatch: [\"**/*.test.cjs\"] };\n",
    );
    for sandbox in [bwrap_for(false), landlock_for(false)] {
        for (runner, args) in [
            (Runner::Vitest, vec!["vitest", "run"]),
            (Runner::Jest, vec!["jest", "--config", "jest.config.cjs"]),
        ] {
            let config = TestConfig::new(&dir, "npx", args).format(runner);
            let record = run(sandbox.clone(), config);
            assert_pass(
                &record,
                &format!("{} with its own node_modules", runner.name()),
            );
            assert_eq!(record.attempts[0].report.counts.passed, Some(1));
        }
    }
}
