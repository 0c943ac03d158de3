"""Runs the `testgate` binary installed with this package and reads its JSON."""

from __future__ import annotations

import collections
import contextlib
import datetime
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Union

from ._documents import BatchResult, Report, Result, SchemaError

#: Exit codes of `testgate` (docs/cli.md, crates/testgate-cli/src/exit.rs).
EXIT_PASS = 0
EXIT_FAIL = 1
EXIT_TROUBLE = 2
EXIT_INCONCLUSIVE = 125
EXIT_INTERRUPTED = 130

StrPath = Union[str, "os.PathLike[str]"]


class TestgateError(Exception):
    """testgate could not do its job: a usage error, an unreadable input,
    a binary that would not start. `message` is testgate's one-line message
    (without the `testgate: ` prefix), `exit_code` its exit code (None when
    it did not run), `stderr` the end of what it printed there."""

    __test__ = False  # not a pytest test class

    def __init__(self, message: str, exit_code: int | None = None, stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.stderr = stderr


class Interrupted(TestgateError):
    """testgate was interrupted (SIGINT, SIGTERM, SIGHUP) and ended the
    run's whole process tree (exit 130); `result` is its Inconclusive
    verdict when it printed one."""

    def __init__(self, message: str, result: Result | None, stderr: str = "") -> None:
        super().__init__(message, EXIT_INTERRUPTED, stderr)
        self.result = result


@dataclass(frozen=True)
class Expectation:
    """What a caller expects of a check: a verdict, and optionally its cause
    and (for a Fail) exactly which tests fail, in any order."""

    verdict: str
    cause: str | None = None
    failing: list[str] | None = None

    def met_by(self, result: Result) -> bool:
        """Whether `result` is what was expected."""
        if result.verdict != self.verdict:
            return False
        if self.cause is not None and result.cause != self.cause:
            return False
        if self.failing is not None and sorted(result.failing) != sorted(self.failing):
            return False
        return True


@dataclass(frozen=True)
class AttemptProgress:
    """One attempt of a running check, as `check(on_attempt=...)` hears of
    it: when it starts (`outcome` None) and when it ends (`outcome` such as
    "exited 0", "exited 1", "timed out"; `seconds` its duration, `failing`
    how many tests failed in it). Read from testgate's progress lines on
    stderr, which the tests' own output could imitate: for display only,
    the verdict is the returned `Result`."""

    number: int
    command: str
    outcome: str | None = None
    seconds: float | None = None
    failing: int | None = None


_STARTED = re.compile(r"testgate: attempt (\d+) of at most \d+(?: \([^)]*\))?: (.*)")
_ENDED = re.compile(r"testgate: attempt (\d+) (.+) after ([0-9.]+)s(?:, (\d+) failing tests?)?")


class _AttemptLines:
    """Turns testgate's attempt lines into `AttemptProgress` calls; the
    first exception the callback raises is kept, to raise after the run."""

    def __init__(self, callback: Callable[[AttemptProgress], None]) -> None:
        self.callback = callback
        self.commands: dict[int, str] = {}
        self.error: BaseException | None = None

    def __call__(self, line: str) -> None:
        if self.error is not None:
            return
        text = line.strip()
        progress: AttemptProgress | None = None
        started = _STARTED.fullmatch(text)
        ended = _ENDED.fullmatch(text)
        if started:
            number = int(started.group(1))
            self.commands[number] = started.group(2)
            progress = AttemptProgress(number, started.group(2))
        elif ended:
            number = int(ended.group(1))
            failing = ended.group(4)
            progress = AttemptProgress(
                number,
                self.commands.get(number, ""),
                ended.group(2),
                float(ended.group(3)),
                int(failing) if failing is not None else 0,
            )
        if progress is None:
            return
        try:
            self.callback(progress)
        except BaseException as e:  # raised in the caller's thread after the run
            self.error = e


def binary() -> str:
    """The path of the `testgate` binary: `$TESTGATE_BIN`, else the one this
    package installed next to its Python (the venv's or the user's scripts
    directory), else the first on PATH."""
    override = os.environ.get("TESTGATE_BIN")
    if override:
        return override
    schemes = [sysconfig.get_default_scheme(), sysconfig.get_preferred_scheme("user")]
    for scheme in schemes:
        try:
            scripts = sysconfig.get_path("scripts", scheme)
        except KeyError:
            continue
        candidate = Path(scripts) / "testgate"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which("testgate")
    if found:
        return found
    raise TestgateError(
        "cannot find the testgate binary: install the testgate wheel, put testgate on PATH, "
        "or set TESTGATE_BIN"
    )


# What makes a string more than words to split: the shell would act on it.
_SHELL_SYNTAX = frozenset(";&|<>()$`*?[]{}~#!\\\n")


def _shell_words(command: str) -> list[str]:
    """The argv that runs `command` as `sh -c` would: the words themselves
    when the shell would only split them, else `sh -c command`."""
    try:
        words = shlex.split(command)
    except ValueError:
        return ["sh", "-c", command]
    plain = not any(c in _SHELL_SYNTAX for c in command)
    if plain and words and "=" not in words[0]:
        return words
    return ["sh", "-c", command]


def check(
    workspace: StrPath,
    command: str | Sequence[str] | None = None,
    *,
    retries: int = 0,
    timeout: float | datetime.timedelta | str = "10m",
    sandbox: str = "auto",
    allow_network: bool = False,
    writable: Iterable[StrPath] = (),
    env: Mapping[str, str | None] | Iterable[str] | None = None,
    prepare: Iterable[str] = (),
    rerun: str = "all",
    format: str = "auto",
    restore: bool = False,
    keep_changes: bool = False,
    trusted: str | None = None,
    apply: StrPath | None = None,
    tmpfs_size: str | int | None = None,
    record: StrPath | None = None,
    expect: StrPath | Mapping[str, Any] | Sequence[str] | None = None,
    baseline: StrPath | None = None,
    quarantine: StrPath | None = None,
    missing: str = "not-run",
    strict: bool = False,
    stress: int | None = None,
    report: StrPath | None = None,
    structured: bool = False,
    evidence: str = "any",
    sign: StrPath | None = None,
    name: str | None = None,
    version: str | None = None,
    junit: StrPath | None = None,
    swebench_report: StrPath | None = None,
    stream: bool = False,
    on_attempt: Callable[[AttemptProgress], None] | None = None,
    expect_verdict: str | Expectation | None = None,
) -> Result:
    """Run `command` in `workspace` under testgate and return its verdict.

    `command` is a list of words (an argv, run as given), or a string run
    as `sh -c` runs it: one with shell syntax (`&&`, `;`, `|`, redirections,
    `$VAR`, globs, a leading `VAR=value`, `cd dir && …`) is run through
    `sh -c STRING`; one of plain words is split as the shell would split it
    (`shlex.split`) and run as those words, which is what `sh -c` would run,
    so that testgate recognises the runner; without one (None, the default),
    testgate finds the project's runner from its files, as `testgate check`
    with no command does, and `Result.detected` says what it chose (a
    project where it finds none, or several, raises `TestgateError`).
    `timeout` bounds one attempt: seconds,
    a `timedelta`, or testgate's own spelling (`"90s"`, `"5m"`). `env` maps
    a name to its value, or to None to pass the host's value through (a
    list of names passes each through). `expect` grades the change against
    listed tests only (`check --expect`): the path of such a file, a dict
    (`{"must_pass": [...], "keep_passing": [...]}`, or a whole SWE-bench or
    Multi-SWE-bench instance record), or a list of names that must pass;
    `baseline` the base commit's check (`--baseline`: what passed there must
    keep passing); `quarantine` a file of tests that never gate
    (`--quarantine`); `missing` and `strict` are `--missing` and `--strict`.
    `stress` runs the suite that many times to find flaky tests
    (`--stress N`); `report` is the JUnit XML report the runner writes (a
    path inside the project, `--report`), read where testgate obtained no
    report of its own (pytest's is obtained by default, outside the
    project), `structured=True` asks the runner for one (`--structured`);
    `evidence="report"` gives no Pass without the runner's own report
    (`--evidence report`: Inconclusive `no_report` where it cannot be asked);
    `record` writes the verdict record, `sign`
    signs it with that key, `name` and `version` name the suite in it.
    `junit` writes the check's tests as JUnit XML (`--junit`);
    `swebench_report`, with `expect`, writes SWE-bench's evaluation report
    of the listed tests (`--swebench-report`: `resolved`, `tests_status`;
    a flaky or never-run listed test is a failure there). With
    `stream=True` the test output goes to this process's stderr as it runs.
    `on_attempt` is called (from another thread) with an `AttemptProgress`
    as each attempt starts and as it ends; an exception it raises is raised
    once the check is over.
    The tree is put back as submitted after every attempt; `keep_changes=True`
    (`--keep-changes`) leaves what the last attempt changed in place, and
    `restore` is accepted and does nothing (restoring is the default).
    `trusted="REV"` (`--trusted`) runs the test files and their
    configuration of git revision REV instead of the submitted ones
    (`"none"`: as submitted, also with an instance record's `base_commit`);
    `apply=PATH` (`--apply`) applies a patch file to the submitted tree
    first (`"record"`: the `expect` record's patch). The tree is left as
    found; the check document's `view` says what ran.
    With `expect_verdict` (a verdict name or an `Expectation`),
    `Result.as_expected` says whether the verdict met it.

    Returns the Result for Pass, Fail and Inconclusive alike; raises
    `Interrupted` when testgate was interrupted and `TestgateError` when it
    could not run the check (with its one-line message and exit code 2).
    """
    if command is None:
        words: list[str] = []
    elif isinstance(command, str):
        words = _shell_words(command)
    else:
        words = [str(w) for w in command]
    argv = [binary(), "check", "--json", "-C", os.fspath(workspace)]
    # --stress takes no --retries: given only when asked for (or not stressed).
    if stress is None or retries:
        argv += ["--retries", str(int(retries))]
    argv += ["--timeout", _duration(timeout)]
    argv += ["--sandbox", sandbox, "--rerun", rerun, "--format", format]
    if not stream and on_attempt is None:
        argv.append("--quiet")
    if allow_network:
        argv.append("--allow-network")
    if restore:
        argv.append("--restore")
    if keep_changes:
        argv.append("--keep-changes")
    if trusted is not None:
        argv.append(f"--trusted={trusted}")
    if apply is not None:
        argv += ["--apply", os.fspath(apply)]
    if tmpfs_size is not None:
        argv += ["--tmpfs-size", str(tmpfs_size)]
    if record is not None:
        argv += ["--record", os.fspath(record)]
    if sign is not None:
        argv += ["--sign", os.fspath(sign)]
    if name is not None:
        argv += ["--name", name]
    if version is not None:
        argv += ["--version", version]
    if junit is not None:
        argv += ["--junit", os.fspath(junit)]
    if swebench_report is not None:
        argv += ["--swebench-report", os.fspath(swebench_report)]
    if stress is not None:
        argv += ["--stress", str(int(stress))]
    if report is not None:
        argv += ["--report", os.fspath(report)]
    if structured:
        argv.append("--structured")
    if evidence != "any":
        argv += ["--evidence", evidence]
    for path in writable:
        argv += ["--writable", os.fspath(path)]
    for entry in _env_entries(env):
        argv += ["--env", entry]
    for step in prepare:
        argv += ["--prepare", step]
    with _expect_file(expect) as expect_path:
        if expect_path is not None:
            argv += ["--expect", expect_path]
        if baseline is not None:
            argv += ["--baseline", os.fspath(baseline)]
        if quarantine is not None:
            argv += ["--quarantine", os.fspath(quarantine)]
        if expect_path is not None or baseline is not None:
            argv += ["--missing", missing]
            if strict:
                argv.append("--strict")
        argv.append("--")
        argv += words
        attempts = _AttemptLines(on_attempt) if on_attempt is not None else None
        code, stdout, stderr = _run(argv, stdin=None, stream=stream, on_line=attempts)
        if attempts is not None and attempts.error is not None:
            raise attempts.error
        given_inline = expect is not None and not isinstance(expect, (str, os.PathLike))
        stand_in = expect_path if given_inline else None
    if code in (EXIT_PASS, EXIT_FAIL, EXIT_INCONCLUSIVE, EXIT_INTERRUPTED):
        try:
            result = Result.from_json(_one_document(stdout), exit_code=code)
        except SchemaError as e:
            if code == EXIT_INTERRUPTED:
                raise Interrupted(_message(stderr, code), None, stderr) from e
            raise TestgateError(str(e), code, stderr) from e
        if code == EXIT_INTERRUPTED:
            raise Interrupted(_message(stderr, code), result, stderr)
        if expect_verdict is not None:
            wanted = (
                expect_verdict
                if isinstance(expect_verdict, Expectation)
                else Expectation(verdict=expect_verdict)
            )
            result = dataclasses.replace(result, as_expected=wanted.met_by(result))
        return result
    message = _message(stderr, code)
    if stand_in is not None:
        # The temporary file is ours, not the caller's: name what they gave.
        given = "the `expect` dict" if isinstance(expect, Mapping) else "the `expect` list"
        message = message.replace(stand_in, given)
    raise TestgateError(message, code, stderr)


def parse(text_or_path: str | bytes | os.PathLike[str], *, format: str = "auto") -> Report:
    """What testgate's parser understands of one runner log.

    A `pathlib.Path` (any path-like) is read by testgate, streamed; `bytes`
    and `str` are the log's text. Raises `TestgateError` when the file
    cannot be read or the format is unknown (exit code 2).
    """
    argv = [binary(), "parse", "--json", "--format", format]
    stdin: bytes | None = None
    if isinstance(text_or_path, os.PathLike):
        argv.append(os.fspath(text_or_path))
    else:
        argv.append("-")
        stdin = text_or_path.encode() if isinstance(text_or_path, str) else bytes(text_or_path)
    code, stdout, stderr = _run(argv, stdin=stdin, stream=False)
    if code != EXIT_PASS:
        raise TestgateError(_message(stderr, code), code, stderr)
    try:
        return Report.from_json(_one_document(stdout))
    except SchemaError as e:
        raise TestgateError(str(e), code, stderr) from e


def batch(
    manifest: StrPath,
    *,
    index: int | None = None,
    jobs: int = 1,
    shard: tuple[int, int] | str | None = None,
) -> list[BatchResult]:
    """Run the checks of a `testgate batch` manifest (one JSON object per
    line, docs/cli.md) and return one `BatchResult` per check, in the order
    they ended. `index` runs only the manifest's check number `index`
    (0-based, blank lines not counted): what one task of a distributed run
    does. `shard` (`(i, n)` or `"i/n"`, 1 <= i <= n) runs only the checks
    whose index modulo n is i-1 (`--shard I/N`). The results are held in memory: for a long manifest, run
    `testgate batch --out FILE`, which writes them as they end and resumes.

    Raises `TestgateError` when the manifest cannot be read (exit code 2)
    and `Interrupted` (with `result` None) when testgate was interrupted; a
    line that is no check is a `BatchResult` with `error`, not an exception.
    """
    argv = [binary(), "batch", os.fspath(manifest), "--jobs", str(int(jobs)), "--quiet"]
    if index is not None:
        argv += ["--index", str(int(index))]
    if shard is not None:
        argv += ["--shard", shard if isinstance(shard, str) else f"{shard[0]}/{shard[1]}"]
    code, stdout, stderr = _run(argv, stdin=None, stream=False)
    try:
        results = [
            BatchResult.from_json(_object(line)) for line in stdout.splitlines() if line.strip()
        ]
    except SchemaError as e:
        raise TestgateError(str(e), code, stderr) from e
    if code == EXIT_INTERRUPTED:
        raise Interrupted(_message(stderr, code), None, stderr)
    if not results and code not in (EXIT_PASS, EXIT_FAIL):
        raise TestgateError(_message(stderr, code), code, stderr)
    return results


@contextlib.contextmanager
def _expect_file(
    expect: StrPath | Mapping[str, Any] | Sequence[str] | None,
) -> Iterator[str | None]:
    """The path to give `--expect`: the caller's file, or a temporary one
    holding the dict or the names (read by testgate on the host, never by
    the tests), removed afterwards."""
    if expect is None:
        yield None
        return
    if isinstance(expect, (str, os.PathLike)):
        yield os.fspath(expect)
        return
    text = (
        json.dumps(dict(expect))
        if isinstance(expect, Mapping)
        else "".join(f"{name}\n" for name in expect)
    )
    with tempfile.NamedTemporaryFile("w", prefix="testgate-expect-", suffix=".json") as file:
        file.write(text)
        file.flush()
        yield file.name


def _duration(timeout: float | datetime.timedelta | str) -> str:
    if isinstance(timeout, str):
        return timeout
    seconds = timeout.total_seconds() if isinstance(timeout, datetime.timedelta) else timeout
    return f"{max(0, round(float(seconds) * 1000))}ms"


def _env_entries(env: Mapping[str, str | None] | Iterable[str] | None) -> list[str]:
    if env is None:
        return []
    if isinstance(env, Mapping):
        return [name if value is None else f"{name}={value}" for name, value in env.items()]
    return [str(name) for name in env]


def _one_document(stdout: bytes) -> dict[str, Any]:
    lines = [line for line in stdout.splitlines() if line.strip()]
    if len(lines) != 1:
        raise SchemaError(f"testgate printed {len(lines)} JSON lines where one was expected")
    return _object(lines[0])


def _object(line: bytes) -> dict[str, Any]:
    try:
        document = json.loads(line)
    except json.JSONDecodeError as e:
        raise SchemaError(f"testgate printed a line that is not JSON: {e}") from e
    if not isinstance(document, dict):
        raise SchemaError(f"testgate printed {type(document).__name__}, not a JSON object")
    return document


def _message(stderr: str, code: int) -> str:
    """testgate's one-line message: its last `testgate: ` line, or clap's
    `error: ` line for a usage error, or the last line it printed."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith("testgate: ") and not line.startswith("testgate: attempt"):
            return line.removeprefix("testgate: ")
    # clap: `error: …` and the lines up to the next blank one (the
    # arguments it names), without the usage and tips that follow.
    raw = stderr.splitlines()
    for at, line in enumerate(raw):
        if line.startswith("error: "):
            paragraph = [line.removeprefix("error: ").strip()]
            for more in raw[at + 1 :]:
                if not more.strip() or more.startswith("Usage:"):
                    break
                paragraph.append(more.strip())
            return " ".join(paragraph)
    if code < 0:
        return f"testgate was killed by signal {-code}"
    return lines[-1] if lines else f"testgate exited with code {code}"


#: Lines of stderr kept for the error message when it is streamed.
_KEPT_LINES = 200


def _run(
    argv: list[str],
    *,
    stdin: bytes | None,
    stream: bool,
    on_line: Callable[[str], None] | None = None,
) -> tuple[int, bytes, str]:
    """Runs testgate; on KeyboardInterrupt, interrupts it too (it then ends
    the whole tree of the check) and waits for it before re-raising."""
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as e:
        raise TestgateError(f"cannot start {argv[0]}: {e.strerror or e}") from e
    kept: collections.deque[str] = collections.deque(maxlen=_KEPT_LINES)
    threads = [
        threading.Thread(target=_read_stderr, args=(process.stderr, kept, stream, on_line))
    ]
    if stdin is not None:
        threads.append(threading.Thread(target=_write_stdin, args=(process.stdin, stdin)))
    for thread in threads:
        thread.daemon = True
        thread.start()
    try:
        assert process.stdout is not None
        stdout = process.stdout.read()
        process.wait()
    except KeyboardInterrupt:
        process.send_signal(signal.SIGINT)
        process.wait()
        raise
    finally:
        for thread in threads:
            thread.join()
    return process.returncode, stdout, "".join(kept)


def _write_stdin(pipe: IO[bytes] | None, data: bytes) -> None:
    if pipe is None:
        return
    try:
        pipe.write(data)
    except BrokenPipeError:
        pass  # testgate stopped reading: its exit code says why
    finally:
        try:
            pipe.close()
        except BrokenPipeError:
            pass


def _read_stderr(
    pipe: IO[bytes] | None,
    kept: collections.deque[str],
    stream: bool,
    on_line: Callable[[str], None] | None = None,
) -> None:
    if pipe is None:
        return
    for raw in iter(pipe.readline, b""):
        line = raw.decode(errors="replace")
        kept.append(line)
        if on_line is not None:
            on_line(line)
        if stream:
            sys.stderr.write(line)
            sys.stderr.flush()
    pipe.close()
