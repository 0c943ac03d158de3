"""The testgate wheel as a user installs it: real checks of the e2e pytest
project through the binary inside the wheel, under bwrap, and the parser on
real captured logs. Run by scripts/python-test in a fresh venv."""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig

import pytest

import testgate

REPO = pathlib.Path(os.environ["TESTGATE_REPO"])
PROJECT = REPO / "tests" / "projects" / "e2e" / "pytest"
FIXTURES = REPO / "crates" / "testgate-parse" / "tests" / "fixtures"
PYTEST = ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
# The e2e project's failing tests in fail mode (tests/projects/e2e/README.md).
FAILING = [
    "tests/test_calc.py::test_adds_negative",
    "tests/test_calc.py::TestBig::test_big_numbers",
]


@pytest.fixture
def project(tmp_path):
    """A fresh copy of the e2e pytest project (tmp_path is under the target
    directory, never /tmp: the sandbox gives every run a private /tmp)."""
    copy = tmp_path / "project"
    shutil.copytree(PROJECT, copy)
    return copy


def test_the_package_is_the_installed_wheel():
    scripts = pathlib.Path(sysconfig.get_path("scripts"))
    assert pathlib.Path(testgate.__file__).is_relative_to(sys.prefix), testgate.__file__
    assert pathlib.Path(testgate.binary()) == scripts / "testgate"
    assert not str(testgate.__file__).startswith(str(REPO / "python"))


def test_the_wheel_installs_on_glibc_2_28():
    # Built with zig against glibc 2.28 (scripts/python-test): it needed
    # glibc 2.34 (manylinux_2_34) when linked against the build machine's.
    import importlib.metadata

    wheel = importlib.metadata.distribution("testgate").read_text("WHEEL") or ""
    tags = [line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")]
    assert tags and all("manylinux_2_28" in tag for tag in tags), wheel


def test_a_passing_suite_passes(project):
    result = testgate.check(project, PYTEST)
    assert isinstance(result, testgate.Result)
    assert result.schema == testgate.CHECK_SCHEMA
    assert result.verdict == "pass", result.reason
    assert result.passed and result.exit_code == testgate.EXIT_PASS
    assert result.cause is None and result.failing == []
    [attempt] = result.attempts
    assert isinstance(attempt, testgate.Attempt)
    assert attempt.outcome == "exited" and attempt.exit_code == 0
    assert attempt.format == "pytest"
    assert isinstance(attempt.counts, testgate.Counts) and attempt.counts.passed == 5
    assert isinstance(result.findings, testgate.Findings)
    # pytest's own report, obtained by default, judged beside the console.
    assert result.evidence == ["exit", "report", "console"]
    assert attempt.evidence == ["exit", "report", "console"] and attempt.report == "read"
    assert attempt.console_failing == [] and "evidence" not in attempt.extra


def test_the_sandbox_used_and_why_are_in_the_result(project):
    chosen = testgate.check(project, PYTEST)
    assert isinstance(chosen.sandbox, testgate.SandboxUsed)
    # `auto` (the default) says why; on this machine bubblewrap starts.
    assert chosen.sandbox.kind in ("bwrap", "landlock"), chosen.sandbox
    assert chosen.sandbox.why, chosen.sandbox
    landlock = testgate.check(project, PYTEST, sandbox="landlock", env={"TESTGATE_FIXTURE": "fail"})
    assert landlock.verdict == "fail", landlock.reason
    assert landlock.failing == FAILING
    assert landlock.sandbox == testgate.SandboxUsed(kind="landlock", why=None)


def test_a_failing_suite_fails_with_the_names_after_every_retry(project):
    result = testgate.check(project, PYTEST, retries=1, env={"TESTGATE_FIXTURE": "fail"})
    assert result.verdict == "fail", result.reason
    assert result.exit_code == testgate.EXIT_FAIL
    assert sorted(result.failing) == sorted(FAILING)
    assert len(result.attempts) == 2
    assert sorted(result.findings.always_failed) == sorted(FAILING)
    assert result.tests is not None
    outcomes = {t.name: t.outcomes for t in result.tests}
    assert all(outcomes[name] == ["failed", "failed"] for name in FAILING), outcomes
    assert result.reason.startswith(FAILING[0]) or result.reason.startswith(FAILING[1])


def test_a_command_string_is_split_as_a_shell_would(project):
    result = testgate.check(project, "python3 -m pytest -q -p no:cacheprovider 'tests/test_calc.py'")
    assert result.attempts[0].command[-1] == "tests/test_calc.py"
    assert result.verdict == "pass", result.reason


def test_a_command_string_with_shell_syntax_runs_through_sh(project):
    # `VAR=1 cmd`, `cd x && …` and `a && b` were split without a shell:
    # would_not_start, or a bogus Fail in 0.1 s.
    failing = testgate.check(project, "TESTGATE_FIXTURE=fail python3 -m pytest -q -p no:cacheprovider")
    assert failing.attempts[0].command[:2] == ["sh", "-c"]
    assert failing.verdict == "fail", failing.reason
    assert sorted(failing.failing) == sorted(FAILING)
    passing = testgate.check(project, "cd tests && cd .. && python3 -m pytest -q -p no:cacheprovider")
    assert passing.verdict == "pass", passing.reason
    both = testgate.check(project, "true && python3 -m pytest -q -p no:cacheprovider tests/*.py")
    assert both.verdict == "pass", both.reason
    assert both.attempts[0].counts.passed == 5


def test_without_a_command_the_projects_runner_is_found(project, tmp_path, monkeypatch):
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    result = testgate.check(project, env={"TESTGATE_FIXTURE": "fail"})
    assert result.verdict == "fail", result.reason
    assert result.failing == FAILING
    assert result.detected == testgate.Detected(
        command=["python3", "-m", "pytest"], runner="pytest", why="found conftest.py"
    )
    assert result.attempts[0].command == ["python3", "-m", "pytest"]
    given = testgate.check(project, PYTEST)
    assert given.detected is None
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(testgate.TestgateError) as caught:
        testgate.check(empty)
    assert caught.value.exit_code == testgate.EXIT_TROUBLE
    assert caught.value.message.startswith(f"found no test runner in {empty}")
    assert "\n" not in caught.value.message


def test_a_batch_line_without_a_command_finds_the_runner(project, tmp_path, monkeypatch):
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(json.dumps({"id": "found", "workspace": str(project)}) + "\n")
    [only] = testgate.batch(manifest)
    assert only.result is not None and only.result.verdict == "pass", only
    assert only.result.detected is not None
    assert only.result.detected.command == ["python3", "-m", "pytest"]


def test_a_hung_suite_is_inconclusive_at_the_timeout(project):
    result = testgate.check(project, PYTEST, timeout=3, env={"TESTGATE_FIXTURE": "hang"})
    assert result.verdict == "inconclusive"
    assert result.cause == "timed_out"
    assert result.exit_code == testgate.EXIT_INCONCLUSIVE
    assert result.attempts[0].outcome == "timed_out"


def test_an_expected_verdict_is_checked_against_the_verdict(project):
    fail = {"TESTGATE_FIXTURE": "fail"}
    met = testgate.check(
        project, PYTEST, env=fail, expect_verdict=testgate.Expectation("fail", failing=FAILING)
    )
    assert met.as_expected is True
    unmet = testgate.check(project, PYTEST, env=fail, expect_verdict="pass")
    assert unmet.as_expected is False
    assert testgate.check(project, PYTEST).as_expected is None


VERBOSE = ["python3", "-m", "pytest", "-v", "-p", "no:cacheprovider"]


def test_expected_tests_grade_the_change_as_a_dict_a_list_or_a_file(project, tmp_path):
    # In fail mode test_adds passes and test_adds_negative fails; -v names passes.
    fail = {"TESTGATE_FIXTURE": "fail"}
    graded = testgate.check(
        project, VERBOSE, env=fail, expect={"FAIL_TO_PASS": ["tests/test_calc.py::test_adds"]}
    )
    assert graded.verdict == "pass", graded.reason
    assert isinstance(graded.grading, testgate.Grading)
    (test,) = graded.grading.tests
    assert isinstance(test, testgate.GradedTest)
    assert (test.name, test.list, test.grade) == ("tests/test_calc.py::test_adds", "must_pass", "passed")
    assert test.results == ["passed"]
    assert "tests/test_calc.py::test_adds_negative" in graded.grading.unlisted_failed
    listed = testgate.check(project, VERBOSE, env=fail, expect=["tests/test_calc.py::test_adds_negative"])
    assert listed.verdict == "fail" and listed.failing == ["tests/test_calc.py::test_adds_negative"]
    strict = testgate.check(
        project, VERBOSE, env=fail, expect=["tests/test_calc.py::test_adds"], strict=True
    )
    assert strict.verdict == "fail"
    file = tmp_path / "expect.txt"
    file.write_text("tests/test_calc.py::test_not_there\n")
    missing = testgate.check(project, VERBOSE, env=fail, expect=file, missing="fail")
    assert missing.verdict == "fail", missing.reason
    assert testgate.check(project, VERBOSE, env=fail).grading is None


def test_an_expect_error_names_the_callers_dict_not_a_temporary_file(project):
    with pytest.raises(testgate.TestgateError) as caught:
        testgate.check(project, PYTEST, expect={"must_pass": "tests/test_calc.py::test_adds"})
    message = caught.value.message
    assert caught.value.exit_code == testgate.EXIT_TROUBLE
    assert message.startswith("the expected tests in the `expect` dict: "), message
    assert "`must_pass` is not a list" in message and "testgate-expect-" not in message


def test_every_check_option_reaches_the_binary(project, tmp_path):
    stressed = testgate.check(project, VERBOSE, stress=2)
    assert stressed.verdict == "pass", stressed.reason
    assert isinstance(stressed.stress, testgate.Stress) and stressed.stress.runs == 2
    assert stressed.stress.varied == [] and "stress" not in stressed.extra
    structured = testgate.check(project, PYTEST, structured=True)
    assert structured.verdict == "pass", structured.reason
    record = tmp_path / "record.json"
    named = testgate.check(project, PYTEST, record=record, name="calc", version="v9")
    assert named.verdict == "pass", named.reason
    suite = json.loads(record.read_text())["record"]["suite"]
    assert (suite["name"], suite["version"]) == ("calc", "v9")
    with pytest.raises(testgate.TestgateError) as caught:
        testgate.check(project, PYTEST, report="junit.xml", structured=True)
    assert "cannot be used with" in caught.value.message
    # --evidence report: pytest asked for its report passes; with its
    # report's plugin off it cannot be asked, and no Pass stands.
    asked = testgate.check(project, PYTEST, evidence="report")
    assert asked.verdict == "pass", asked.reason
    unasked = testgate.check(project, PYTEST + ["-p", "no:junitxml"], evidence="report")
    assert (unasked.verdict, unasked.cause) == ("inconclusive", "no_report"), unasked.reason


def test_junit_and_swebench_report_are_written(project, tmp_path):
    junit = tmp_path / "junit.xml"
    report = tmp_path / "report.json"
    instance = {
        "instance_id": "example__calc-1",
        "FAIL_TO_PASS": json.dumps([FAILING[0]]),
        "PASS_TO_PASS": json.dumps(["tests/test_calc.py::test_adds"]),
    }
    result = testgate.check(
        project,
        PYTEST,
        env={"TESTGATE_FIXTURE": "fail"},
        expect=instance,
        junit=junit,
        swebench_report=report,
    )
    assert result.verdict == "fail", result.reason
    assert junit.read_text().startswith("<?xml")
    assert FAILING[0] in junit.read_text()
    written = json.loads(report.read_text())["example__calc-1"]
    assert written["resolved"] is False
    assert written["tests_status"]["FAIL_TO_PASS"] == {"success": [], "failure": [FAILING[0]]}
    assert written["tests_status"]["PASS_TO_PASS"]["success"] == ["tests/test_calc.py::test_adds"]


def test_on_attempt_hears_each_attempt_start_and_end(project):
    heard: list[testgate.AttemptProgress] = []
    result = testgate.check(
        project, PYTEST, env={"TESTGATE_FIXTURE": "fail"}, retries=1, on_attempt=heard.append
    )
    assert result.verdict == "fail", result.reason
    assert [(p.number, p.outcome is None) for p in heard] == [
        (1, True), (1, False), (2, True), (2, False)
    ], heard
    first_end = heard[1]
    assert first_end.outcome == "exited 1" and first_end.failing == len(FAILING), heard
    assert first_end.seconds is not None and "pytest" in first_end.command


def test_an_exception_in_on_attempt_is_raised_after_the_check(project):
    def refuse(progress: testgate.AttemptProgress) -> None:
        raise ValueError(f"no thanks: {progress.number}")

    with pytest.raises(ValueError, match="no thanks: 1"):
        testgate.check(project, PYTEST, on_attempt=refuse)


def test_a_usage_error_raises_with_the_message_and_exit_code(tmp_path):
    missing = tmp_path / "no-such-project"
    with pytest.raises(testgate.TestgateError) as caught:
        testgate.check(missing, PYTEST)
    assert caught.value.exit_code == testgate.EXIT_TROUBLE
    assert caught.value.message.startswith(f"cannot use {missing} as the project directory")
    assert "\n" not in caught.value.message
    assert str(caught.value) == caught.value.message


def test_the_root_or_a_home_is_never_the_project():
    for folder, why in [("/", "it is the root directory"), ("/root", "it is the home directory /root")]:
        with pytest.raises(testgate.TestgateError) as caught:
            testgate.check(folder, PYTEST)
        assert caught.value.exit_code == testgate.EXIT_TROUBLE
        assert caught.value.message.startswith(
            f"refusing {folder} as the project directory: {why}"
        ), caught.value.message
        assert "\n" not in caught.value.message


def test_a_bad_option_value_raises_with_the_parsers_message(project):
    with pytest.raises(testgate.TestgateError) as caught:
        testgate.check(project, PYTEST, timeout="soon")
    assert caught.value.exit_code == testgate.EXIT_TROUBLE
    assert "`soon` is not a duration" in caught.value.message
    # A message over several lines arrives as one, without the usage.
    with pytest.raises(testgate.TestgateError) as caught:
        testgate.check(project, PYTEST, sandbox="docker")
    assert caught.value.message.startswith("invalid value 'docker' for '--sandbox <SANDBOX>'")
    assert "\n" not in caught.value.message and "Usage" not in caught.value.message


def test_a_watch_mode_command_is_refused(project):
    with pytest.raises(testgate.TestgateError) as caught:
        testgate.check(project, ["npx", "jest", "--watch"])
    assert caught.value.exit_code == testgate.EXIT_TROUBLE
    assert "watch for changes" in caught.value.message


def test_a_missing_binary_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("TESTGATE_BIN", str(tmp_path / "nowhere" / "testgate"))
    with pytest.raises(testgate.TestgateError) as caught:
        testgate.parse("")
    assert caught.value.exit_code is None
    assert caught.value.message.startswith(f"cannot start {tmp_path}/nowhere/testgate")


def test_parse_reads_a_path_and_text_alike():
    log = FIXTURES / "pytest" / "default.log"
    from_path = testgate.parse(log)
    from_text = testgate.parse(log.read_text())
    from_bytes = testgate.parse(log.read_bytes())
    assert isinstance(from_path, testgate.Report)
    assert from_path.file == str(log) and from_text.file == "-"
    assert from_path.format == "pytest"
    assert from_path.failing_names, "the captured log names failing tests"
    assert all(isinstance(t, testgate.FailingTest) for t in from_path.failing)
    assert from_text.failing_names == from_path.failing_names == from_bytes.failing_names
    assert from_path.counts.failed == len(from_path.failing_names)
    assert from_path.tests is not None
    failed = [t.name for t in from_path.tests if t.outcome in ("failed", "error")]
    assert failed == from_path.failing_names


def test_parse_gives_each_failing_tests_message_and_excerpt():
    report = testgate.parse(FIXTURES / "go" / "verbose.log")
    by_name = {t.name: t for t in report.failing}
    test = by_name["TestParse/empty_input"]
    assert test.message == "failing_test.go:19: empty input rejected"
    assert test.excerpt == "    failing_test.go:19: empty input rejected"
    # A parent that printed nothing of its own has neither.
    assert (by_name["TestParse"].message, by_name["TestParse"].excerpt) == (None, None)
    assert "message" not in test.extra and "excerpt" not in test.extra


def test_check_documents_give_each_failing_tests_output():
    document = {
        "schema": 1,
        "verdict": "fail",
        "failing": ["a", "b"],
        "failures": [
            {"name": "a", "message": "boom", "excerpt": "x\nboom", "attempt": 2},
            {"name": "b", "message": None, "excerpt": None, "attempt": None},
        ],
    }
    result = testgate.Result.from_json(document, exit_code=1)
    assert all(isinstance(f, testgate.Failure) for f in result.failures)
    assert [(f.name, f.message, f.excerpt, f.attempt) for f in result.failures] == [
        ("a", "boom", "x\nboom", 2),
        ("b", None, None, None),
    ]
    assert testgate.Result.from_json({"schema": 1, "verdict": "pass"}).failures == []


def test_parse_says_which_test_binary_died():
    report = testgate.parse(FIXTURES / "go" / "goroutine_panic_verbose.log")
    assert report.failing_names == []
    assert [type(c) for c in report.crashes] == [testgate.Crash]
    crash = report.crashes[0]
    assert (crash.format, crash.cause) == ("go", "panic")
    assert crash.binary == "example.com/tgfixture/goroutinepanic"
    assert crash.running == "TestPanicsInAGoroutine"


def test_parse_of_an_unreadable_file_raises(tmp_path):
    with pytest.raises(testgate.TestgateError) as caught:
        testgate.parse(tmp_path / "missing.log")
    assert caught.value.exit_code == testgate.EXIT_TROUBLE
    assert caught.value.message.startswith(f"cannot read {tmp_path}/missing.log")


def test_parse_of_an_unknown_format_raises():
    with pytest.raises(testgate.TestgateError) as caught:
        testgate.parse("", format="surefire")
    assert caught.value.exit_code == testgate.EXIT_TROUBLE
    assert "surefire" in caught.value.message


def test_documents_keep_unknown_fields_and_read_per_test_outcomes():
    document = {
        "schema": 1,
        "verdict": "fail",
        "cause": None,
        "failing": ["a"],
        "reason": "a\n…",
        "findings": {"always_failed": ["a"], "later_field": 1},
        "attempts": [{"number": 1, "outcome": "exited", "exit_code": 1, "counts": None}],
        "tests": [
            {"name": "a", "outcomes": ["failed", None], "kind": "test", "context": None, "new": True},
            {"name": "b", "outcomes": ["passed", "passed"], "kind": "test", "context": "mod"},
        ],
        "a_field_from_the_future": {"x": 1},
    }
    result = testgate.Result.from_json(document, exit_code=1)
    assert result.extra == {"a_field_from_the_future": {"x": 1}}
    assert result.findings.extra == {"later_field": 1}
    assert result.findings.sometimes_failed == []
    assert result.attempts[0].counts is None and result.attempts[0].exit_code == 1
    assert [t.name for t in result.tests] == ["a", "b"]
    assert all(isinstance(t, testgate.TestOutcome) for t in result.tests)
    assert result.tests[0].outcomes == ["failed", None] and result.tests[0].extra == {"new": True}
    assert testgate.Result.from_json({k: v for k, v in document.items() if k != "tests"}).tests is None


def test_a_document_of_another_schema_is_refused():
    with pytest.raises(testgate.SchemaError, match="schema 2"):
        testgate.Result.from_json({"schema": 2, "verdict": "pass"})
    with pytest.raises(testgate.SchemaError, match="schema None"):
        testgate.Report.from_json({"verdict": "pass"})


def _manifest(tmp_path: pathlib.Path, project: pathlib.Path) -> pathlib.Path:
    lines = [
        {"id": "pass", "workspace": str(project), "command": PYTEST, "expect_verdict": "pass"},
        {"id": "fail", "workspace": str(project), "command": PYTEST,
         "env": {"TESTGATE_FIXTURE": "fail"},
         "expect_verdict": {"verdict": "fail", "failing": FAILING}},
        {"id": "typo", "workspace": str(project), "command": PYTEST, "retires": 1},
    ]
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return manifest


def test_batch_returns_one_result_per_line(project, tmp_path):
    results = {r.id: r for r in testgate.batch(_manifest(tmp_path, project))}
    assert sorted(results) == ["fail", "pass", "typo"]
    assert all(isinstance(r, testgate.BatchResult) for r in results.values())
    assert results["pass"].result is not None and results["pass"].result.verdict == "pass"
    assert results["fail"].result is not None and results["fail"].result.failing == FAILING
    assert results["fail"].exit_code == testgate.EXIT_FAIL and results["fail"].as_expected is True
    assert results["fail"].line == 2 and results["fail"].raw["id"] == "fail"
    assert results["typo"].result is None and results["typo"].exit_code == testgate.EXIT_TROUBLE
    assert results["typo"].error is not None and "unknown field `retires`" in results["typo"].error


def test_batch_with_an_index_runs_that_line_only(project, tmp_path):
    [only] = testgate.batch(_manifest(tmp_path, project), index=1)
    assert only.id == "fail" and only.result is not None and only.result.verdict == "fail"
    assert testgate.batch(_manifest(tmp_path, project), index=3) == []


def test_batch_shards_split_the_manifest(project, tmp_path):
    first = {r.id for r in testgate.batch(_manifest(tmp_path, project), shard=(1, 2))}
    second = {r.id for r in testgate.batch(_manifest(tmp_path, project), shard="2/2")}
    assert first == {"pass", "typo"} and second == {"fail"}


def test_batch_of_an_unreadable_manifest_raises(tmp_path):
    with pytest.raises(testgate.TestgateError) as caught:
        testgate.batch(tmp_path / "missing.jsonl")
    assert caught.value.exit_code == testgate.EXIT_TROUBLE
    assert caught.value.message.startswith(f"cannot read {tmp_path}/missing.jsonl")


def test_a_baseline_fails_the_tests_that_broke_since(project, tmp_path):
    base = subprocess.run(
        [testgate.binary(), "check", "--json", "-q", "-C", str(project), "--", *VERBOSE],
        capture_output=True, check=True,
    )
    baseline = tmp_path / "base.json"
    baseline.write_bytes(base.stdout)
    result = testgate.check(project, VERBOSE, env={"TESTGATE_FIXTURE": "fail"}, baseline=baseline)
    assert result.verdict == "fail", result.reason
    assert sorted(result.failing) == sorted(FAILING)
    assert result.grading is not None


def test_quarantined_tests_never_gate(project, tmp_path):
    quarantine = tmp_path / "quarantine.txt"
    quarantine.write_text("".join(f"{name}\n" for name in FAILING))
    fail = {"TESTGATE_FIXTURE": "fail"}
    result = testgate.check(project, VERBOSE, env=fail, quarantine=quarantine)
    assert result.verdict == "pass", result.reason
    assert testgate.check(project, VERBOSE, env=fail).verdict == "fail"


# A hook forgery: every failed report of the run turned into a pass.
FORGED_CONFTEST = """\
import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome = "passed"
"""


def _git(cwd, *args):
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    return subprocess.run(
        ["git", "-C", str(cwd), *args], check=True, capture_output=True, env=env
    ).stdout


def test_trusted_tests_undo_a_hook_forgery_and_a_patch_that_edits_the_tests(project, tmp_path):
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "the honest tests")
    env = {"TESTGATE_FIXTURE": "fail"}

    # A model patch that makes the failing tests pass by editing them.
    tests = project / "tests" / "test_calc.py"
    honest = tests.read_text()
    tests.write_text(honest.replace('MODE = os.environ.get("TESTGATE_FIXTURE", "pass")', 'MODE = "pass"'))
    patch = tmp_path / "model.patch"
    patch.write_bytes(_git(project, "diff"))
    _git(project, "checkout", "--", ".")
    assert testgate.check(project, PYTEST, env=env, apply=patch).verdict == "pass"
    result = testgate.check(project, PYTEST, env=env, apply=patch, trusted="HEAD")
    assert result.verdict == "fail", result.reason
    assert sorted(result.failing) == sorted(FAILING)

    # A hook forgery in the submitted tree.
    (project / "conftest.py").write_text(FORGED_CONFTEST)
    assert testgate.check(project, PYTEST, env=env).verdict == "pass"
    result = testgate.check(project, PYTEST, env=env, trusted="HEAD")
    assert result.verdict == "fail", result.reason
    assert sorted(result.failing) == sorted(FAILING)

    # The tree as it was found: the forgery still there, the patch not.
    assert (project / "conftest.py").read_text() == FORGED_CONFTEST
    assert tests.read_text() == honest
    assert _git(project, "status", "--porcelain").decode() == " M conftest.py\n"
