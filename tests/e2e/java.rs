//! Maven's and Gradle's cases beyond the shared tests of `main.rs`, each
//! in bubblewrap and under Landlock: a reactor module run by `-pl` and
//! retried by name in it, a compile error (test code, and a reactor's
//! module after another wrote its reports), a crashed fork, a hang,
//! Surefire's own reruns, and Surefire's reports behind `make` and
//! `./mvnw`.

use std::path::Path;
use std::time::Duration;

use testgate::parse::Runner;
use testgate::policy::Rerun;
use testgate::{Cause, Record, SandboxedTests, TestConfig, Verdict};

use crate::projects::{Project, copy_dir};
use crate::{NoObserver, Where, assert_fail, assert_inconclusive, repo_root};

const BOTH: [Where; 2] = [Where::Bwrap, Where::Landlock];

/// `config` run in `place`, its project in `mode`.
fn run(place: Where, config: TestConfig, mode: &str) -> Record {
    let config = config
        .env("TESTGATE_FIXTURE", mode)
        .within(Duration::from_secs(300));
    SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver)
}

/// A fresh copy of the two-module reactor `tests/projects/e2e/maven-reactor`
/// (core, then app).
fn reactor() -> (tempfile::TempDir, std::path::PathBuf) {
    let base = repo_root().join("target/e2e");
    std::fs::create_dir_all(&base).unwrap();
    let tmp = tempfile::tempdir_in(&base).unwrap();
    let dir = tmp.path().join("maven-reactor");
    copy_dir(&repo_root().join("tests/projects/e2e/maven-reactor"), &dir);
    (tmp, dir)
}

/// `mvn -o -B ARGS test` in `dir`.
fn mvn(dir: &Path, args: &[&str]) -> TestConfig {
    let mut all = vec!["-o", "-B"];
    all.extend_from_slice(args);
    all.push("test");
    TestConfig::new(dir, "mvn", all)
        .format(Runner::Maven)
        .preset()
}

/// A file of Java that does not compile, written at `path` under `dir`.
fn break_compile(dir: &Path, path: &str, package: &str) {
    let file = dir.join(path);
    std::fs::write(
        &file,
        format!("package {package};\nclass Broken {{ int x = \"no\"; }}\n"),
    )
    .unwrap();
}

/// `mvn -pl app test`: a failure is named in its module, and the retry
/// selects it by `-Dtest=Class#method` with the module kept.
#[test]
fn a_reactor_module_is_retried_by_name_in_its_module() {
    for place in BOTH {
        let what = format!("maven -pl app in {place:?}");
        let (_tmp, dir) = reactor();
        let config = mvn(&dir, &["-pl", "app"]).retrying(1).rerun(Rerun::Failed);
        let record = run(place, config, "fail");
        assert_fail(&record, &["com.example.app.GreetTest#greets"], &what);
        assert_eq!(record.attempts.len(), 2, "{what}: {:#?}", record.attempts);
        let retry = &record.attempts[1].command;
        assert!(
            retry.windows(2).any(|w| w == ["-pl", "app"])
                && retry.contains(&"-Dtest=com.example.app.GreetTest#greets".to_owned()),
            "{what}: the retry runs the failing test alone in its module: {retry:?}"
        );
        assert_eq!(
            record.attempts[1].report.counts.ran(),
            Some(1),
            "{what}: the retry ran the selected test alone"
        );
    }
}

/// A reactor whose second module does not compile after the first wrote
/// its reports: the module that failed is named by the console alone (the
/// first module's reports hold passes only), with the compiler's message
/// in the reason.
#[test]
fn a_reactor_compile_error_is_named_by_its_module() {
    for place in BOTH {
        let what = format!("maven reactor compile error in {place:?}");
        let (_tmp, dir) = reactor();
        break_compile(
            &dir,
            "app/src/main/java/com/example/app/Broken.java",
            "com.example.app",
        );
        let record = run(place, mvn(&dir, &[]), "pass");
        assert_fail(&record, &["app"], &what);
        let reason = record.verdict.reason();
        assert!(reason.contains("incompatible types"), "{what}:\n{reason}");
        assert!(
            record.attempts[0].report.counts.passed >= Some(1),
            "{what}: core's test ran and passed: {:?}",
            record.attempts[0].report.counts
        );
    }
}

/// Test code that does not compile: a build failure, a Fail naming the
/// module (docs/policy.md), the compiler's message in the reason.
#[test]
fn a_compile_error_fails_naming_the_module() {
    for place in BOTH {
        let what = format!("maven compile error in {place:?}");
        let project = Project::copy(Runner::Maven);
        break_compile(
            &project.dir,
            "src/test/java/com/example/Broken.java",
            "com.example",
        );
        let record = run(place, project.config(), "pass");
        assert_fail(&record, &["e2e"], &what);
        let reason = record.verdict.reason();
        assert!(reason.contains("incompatible types"), "{what}:\n{reason}");
    }
}

/// A test that calls `System.exit`: Surefire lists its class under
/// `Crashed tests:`; the attempt fails without a test's name, the reason
/// led by the class that was running (docs/policy.md, "non-zero exit, no
/// names found").
#[test]
fn a_crashed_fork_says_the_running_class() {
    for place in BOTH {
        let what = format!("maven crash in {place:?}");
        let project = Project::copy(Runner::Maven);
        let record = run(place, project.config().retrying(0), "crash");
        match &record.verdict {
            Verdict::Fail { failing, reason } => {
                assert!(failing.is_empty(), "{what}: {failing:?}");
                let first = reason.lines().next().unwrap_or_default();
                assert!(
                    first.contains("died") && first.contains("com.example.CalcTest"),
                    "{what}:\n{reason}"
                );
            }
            other @ (Verdict::Pass { .. } | Verdict::Inconclusive { .. }) => {
                panic!("{what}: expected Fail, got {other:#?}")
            }
        }
    }
}

/// A hang: timed out, the reason naming the class that was running (the
/// timeout leaves Maven time to compile first on a loaded machine).
#[test]
fn a_hang_times_out_naming_the_running_class() {
    for place in BOTH {
        let what = format!("maven hang in {place:?}");
        let project = Project::copy(Runner::Maven);
        let config = project
            .config()
            .env("TESTGATE_FIXTURE", "hang")
            .within(Duration::from_secs(90));
        let record = SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver);
        assert_inconclusive(&record, Cause::TimedOut, &what);
        let reason = record.verdict.reason();
        assert!(
            reason.contains("com.example.CalcTest (running when the attempt timed out)"),
            "{what}:\n{reason}"
        );
    }
}

/// Surefire's own reruns (`-Dsurefire.rerunFailingTestsCount=2`): a test
/// that failed and then passed within the attempt is flaky at once.
#[test]
fn surefire_reruns_make_a_test_flaky_within_one_attempt() {
    for place in BOTH {
        let what = format!("maven rerunFailingTestsCount in {place:?}");
        let project = Project::copy(Runner::Maven);
        let config = mvn(&project.dir, &["-Dsurefire.rerunFailingTestsCount=2"]).retrying(2);
        let record = run(place, config, "flaky");
        assert_inconclusive(&record, Cause::Flaky, &what);
        assert_eq!(record.attempts.len(), 1, "{what}: flaky within attempt 1");
        assert_eq!(
            record.attempts[0].report.flaky,
            ["com.example.CalcTest#sometimes"],
            "{what}"
        );
    }
}

/// Behind a wrapper no argument reaches (`make test` running `mvn`) and
/// behind the project's `./mvnw` (here a script that runs the host's
/// `mvn`, as the real one does once it has its distribution), the
/// `TEST-*.xml` the attempt wrote judge beside the console, as for a bare
/// `mvn`. Behind `make` the old code judged by the console alone.
#[test]
fn maven_reports_count_behind_make_and_mvnw() {
    use std::os::unix::fs::PermissionsExt;
    for (program, args) in [("make", &["test"][..]), ("./mvnw", &["-o", "-B", "test"])] {
        let what = format!("{program} {args:?}");
        let project = Project::copy(Runner::Maven);
        std::fs::write(project.dir.join("Makefile"), "test:\n\tmvn -o -B test\n").unwrap();
        let mvnw = project.dir.join("mvnw");
        std::fs::write(&mvnw, "#!/bin/sh\nexec mvn \"$@\"\n").unwrap();
        std::fs::set_permissions(&mvnw, std::fs::Permissions::from_mode(0o755)).unwrap();
        let config = TestConfig::new(&project.dir, program, args).retrying(1);
        let record = run(Where::Bwrap, config.clone(), "pass");
        crate::assert_pass(&record, &what);
        assert!(
            matches!(
                record.attempts[0].attempt.evidence,
                testgate::policy::Evidence::Report { .. }
            ),
            "{what}: {:?}",
            record.attempts[0].attempt.evidence
        );
        let record = run(Where::Bwrap, config, "fail");
        assert_fail(
            &record,
            crate::projects::failing_names(Runner::Maven),
            &what,
        );
    }
}
