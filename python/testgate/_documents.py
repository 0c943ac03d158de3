"""The JSON documents of `testgate check --json` and `testgate parse --json`
as dataclasses (schema in docs/cli.md).

Within a schema version fields are only ever added, so a field this module
does not know yet is kept in the object's `extra` dict rather than refused,
and a field it knows but the document lacks keeps its default. A document of
another schema version is refused: its fields may mean something else.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from typing import Any, List, Optional, Union

#: The `schema` of `check --json` this module reads.
CHECK_SCHEMA = 1
#: The `schema` of `parse --json` this module reads.
PARSE_SCHEMA = 1


class SchemaError(ValueError):
    """A document that is not JSON of a schema version this module reads."""


@dataclass(frozen=True)
class Counts:
    """The runner's own summary counts; None where it did not state one."""

    passed: int | None = None
    failed: int | None = None
    skipped: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class TestOutcome:
    """A test the output named (`tests`): in `check --json`, `outcomes`
    holds one entry per attempt (None where the attempt did not name it);
    in `parse --json`, `outcome` is the run's. `kind` is `test`, `suite`,
    `file` or `package`. `durations_ms` (check only): how long it ran in
    each attempt where the runner's report said, None when none did."""

    __test__ = False  # not a pytest test class

    name: str = ""
    kind: str | None = None
    context: str | None = None
    outcomes: list[str | None] | None = None
    durations_ms: list[int | None] | None = None
    outcome: str | None = None
    format: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Suite:
    """The suite's name and version, when a library caller named it."""

    name: str = ""
    version: str = ""
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class SometimesFailed:
    """A test that failed in some attempts and not in others; `context`
    the place the runner gave it (a stress run's varied tests: one name in
    two files is two entries), None where it gave none."""

    name: str = ""
    context: str | None = None
    failed_in: int = 0
    out_of: int = 0
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class OrderDependence:
    """Tests that fail in every full run and pass alone."""

    names: list[str] = field(default_factory=list)
    passed_alone_in: int = 0
    failed_again_in: int = 0
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class StoppedBy:
    """The attempt that ended the sequence early, and its cause."""

    attempt: int = 0
    cause: str = ""
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Note:
    """A remark of the policy about one attempt."""

    attempt: int = 0
    text: str = ""
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Findings:
    """What the attempts showed, as data."""

    always_failed: list[str] = field(default_factory=list)
    sometimes_failed: list[SometimesFailed] = field(default_factory=list)
    order_dependence: OrderDependence | None = None
    stopped_by: StoppedBy | None = None
    notes: list[Note] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Environment:
    """The environment failed before the tests: what, and the fix."""

    what: str = ""
    fix: str = ""
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Crash:
    """A test binary that died naming no failing test (a go panic in a
    goroutine, go's `-timeout`): the binary as the runner names it (go's
    package), the cause (`panic`, `test timed out after 1s`), the test
    running when it died and the test that started the goroutine that
    panicked, where the output said."""

    format: str = ""
    binary: str | None = None
    cause: str = ""
    running: str | None = None
    started_by: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Preparation:
    """One `--prepare` step that ran."""

    number: int = 0
    command: str = ""
    outcome: str = ""
    exit_code: int | None = None
    signal: int | None = None
    detail: str | None = None
    duration_ms: int = 0
    removed: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Attempt:
    """One run of the test command."""

    number: int = 0
    command: list[str] = field(default_factory=list)
    selected: list[str] | None = None
    outcome: str = ""
    exit_code: int | None = None
    signal: int | None = None
    detail: str | None = None
    duration_ms: int = 0
    failing: list[str] = field(default_factory=list)
    counts: Counts | None = None
    no_tests_ran: bool = False
    format: str | None = None
    leaked_processes: bool = False
    note: str | None = None
    environment: Environment | None = None
    coverage_below_threshold: bool = False
    flaky_within: list[str] = field(default_factory=list)
    reruns: int = 0
    running: list[str] = field(default_factory=list)
    tests_omitted: int = 0
    crashes: list[Crash] = field(default_factory=list)
    #: The channels that judged the attempt: ["exit", "report", "console"],
    #: or ["exit", "console"] when no report of the runner's was read.
    evidence: list[str] = field(default_factory=list)
    #: The runner's own report: "read", "missing" (asked for, none
    #: complete), or "none" (not asked for).
    report: str | None = None
    #: Where the report was read, the failing tests the console named
    #: (`failing` is then the report's); else None.
    console_failing: list[str] | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Tree:
    """The files an attempt changed, deleted or planted in the tree it judged."""

    changed: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    #: `{"files": N}`, `{"error": "…"}`, or None with `keep_changes=True`.
    restored: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Failure:
    """A failing test of `check --json` with its own output: `message`,
    the first line that states the failure, and `excerpt`, the test's own
    output as its runner showed it (at most 4 KiB, its start and end), from
    attempt `attempt`; None where no parser kept them. Text the test
    printed, not evidence: the names come from `failing`."""

    name: str = ""
    message: str | None = None
    excerpt: str | None = None
    attempt: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class GradedTest:
    """One test listed under `expect`: the list it is on ("must_pass" or
    "keep_passing"), its grade, and its result in each attempt (None where
    an attempt's output did not name it); `context` the file it lies in
    where a name is in two (None otherwise). `name` is exactly as the list
    gave it; `canonical` the runner's own name where that differs (a Python
    3.11 unittest spelling, a docstring line), None otherwise."""

    name: str = ""
    # `List`, not `list`: the field named `list` shadows the builtin here.
    results: List[Optional[str]] = field(default_factory=lambda: [])
    list: str = ""
    grade: str = ""
    context: str | None = None
    canonical: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class SandboxUsed:
    """The sandbox the attempts ran in: `kind` is "bwrap", "landlock",
    "none", or "auto" when neither bubblewrap nor Landlock could start (every
    attempt was then refused); `why` says why `sandbox="auto"` chose it (None
    for an explicit choice)."""

    kind: str = ""
    why: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class View:
    """What the attempts ran instead of the tree as submitted, under
    `trusted=` or `apply=` (docs/cli.md, "Trusted tests"): the trusted
    `revision` (None when only a patch was applied), whether a `test_patch`
    was applied, the files the patch wrote (`patched`), the submission's
    trusted files the revision's `replaced`, its files on trusted paths the
    revision lacks (`removed`), the revision's files it lacked (`restored`),
    and whether the tree was `put_back` as found (else `put_back_error`)."""

    revision: str | None = None
    test_patch: bool = False
    patched: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)
    put_back: bool = False
    put_back_error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Detected:
    """The test command testgate chose from the project's files when
    `check` was given none: `command` (program first), the `runner` it
    starts, and `why` ("found Cargo.toml")."""

    command: list[str] = field(default_factory=list)
    runner: str = ""
    why: str = ""
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Grading:
    """How the tests listed under `expect` graded, and the failing tests
    that no list names."""

    tests: List[GradedTest] = field(default_factory=lambda: [])
    unlisted_failed: List[str] = field(default_factory=lambda: [])
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Stress:
    """Under `stress=N`: how many runs there were, and every test whose
    outcome varied between them."""

    runs: int = 0
    varied: List[SometimesFailed] = field(default_factory=lambda: [])
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Result:
    """The verdict of `testgate check` and everything that led to it.

    `verdict` is "pass", "fail" or "inconclusive"; `cause` names why an
    inconclusive verdict is one; `failing` lists a Fail's tests. `exit_code`
    is the command's (0, 1 or 125); `tests` holds the per-test outcomes
    when the binary reports them, else None; `grading` how the listed
    tests graded under `expect` (docs/cli.md), else None; `stress` the runs
    and varied tests under `stress=N`, else None; `as_expected`
    whether the verdict met `expect_verdict`, None without one; `sandbox`
    which sandbox the attempts ran in and why; `evidence` the channels
    that judged every attempt (["exit", "report", "console"], or ["exit",
    "console"] when the console judged alone in any; docs/policy.md, "Three
    channels must agree"); `detected` the command
    testgate chose when it was given none, else None.
    """

    schema: int = CHECK_SCHEMA
    verdict: str = ""
    cause: str | None = None
    failing: list[str] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    reason: str = ""
    suite: Suite | None = None
    findings: Findings = field(default_factory=Findings)
    preparations: list[Preparation] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    tree_digest: str | None = None
    tree: Tree | None = None
    sandbox: SandboxUsed | None = None
    tests: list[TestOutcome] | None = None
    grading: Grading | None = None
    stress: Stress | None = None
    evidence: list[str] = field(default_factory=list)
    detected: Detected | None = None
    view: View | None = None
    exit_code: int = 0
    as_expected: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def passed(self) -> bool:
        """Whether the verdict is Pass."""
        return self.verdict == "pass"

    @classmethod
    def from_json(cls, document: dict[str, Any], exit_code: int = 0) -> Result:
        """The result held by one `check --json` document."""
        _expect_schema(document, CHECK_SCHEMA, "check --json")
        return dataclasses.replace(_build(cls, document), exit_code=exit_code)


#: The `schema` of `batch`'s result lines this module reads.
BATCH_SCHEMA = 1


@dataclass(frozen=True)
class BatchResult:
    """One line of `testgate batch`'s output: the check of manifest line
    `line` (from 1), its caller's `id`, and its `result` (None when `error`
    says why the line is no check or could not run). `raw` is the line as
    parsed, to write on unchanged."""

    schema: int = BATCH_SCHEMA
    id: Any = None
    line: int = 0
    exit_code: int = 0
    as_expected: bool | None = None
    error: str | None = None
    duration_ms: int = 0
    result: Result | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> BatchResult:
        """The result held by one line of `batch`'s output."""
        _expect_schema(document, BATCH_SCHEMA, "batch")
        fields = {k: v for k, v in document.items() if k != "result"}
        built = _build(cls, fields)
        result = document.get("result")
        parsed = None
        if isinstance(result, dict):
            parsed = Result.from_json(result, exit_code=built.exit_code)
        return dataclasses.replace(built, result=parsed, raw=document)


@dataclass(frozen=True)
class FailingTest:
    """A failing test the parser found, with where it was found, its
    `message` (the first line that states the failure) and `excerpt` (its
    own output, bounded), where the runner showed them."""

    name: str = ""
    format: str = ""
    context: str | None = None
    kind: str = ""
    message: str | None = None
    excerpt: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Section:
    """One runner's part of a log, within one CI step: `failing` holds
    positions in the report's `failing`; `printed` those another runner's
    lines named within this runner's lines (its output, not a run)."""

    format: str = ""
    step: str | None = None
    first_line: int = 0
    last_line: int = 0
    failing: list[int] = field(default_factory=list)
    printed: list[int] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Report:
    """What `testgate parse` understood of one log."""

    schema: int = PARSE_SCHEMA
    file: str = "-"
    format: str | None = None
    failing: list[FailingTest] = field(default_factory=list)
    counts: Counts = field(default_factory=Counts)
    no_tests_ran: bool = False
    unclosed: str | None = None
    flaky: list[str] = field(default_factory=list)
    reruns: int = 0
    running: list[str] = field(default_factory=list)
    lines: int = 0
    long_lines: int = 0
    tests: list[TestOutcome] | None = None
    tests_omitted: int = 0
    crashes: list[Crash] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    risky: list[FailingTest] | None = None
    """Tests the runner counted risky, not failed (PHPUnit), with the
    reason; None where the document has none."""
    warned: list[FailingTest] | None = None
    """Tests the runner warned about and did not count failed (PHPUnit);
    None where the document has none."""
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def failing_names(self) -> list[str]:
        """The failing tests' names, in order of first appearance."""
        return [test.name for test in self.failing]

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> Report:
        """The report held by one `parse --json` line."""
        _expect_schema(document, PARSE_SCHEMA, "parse --json")
        return _build(cls, document)


def _expect_schema(document: Any, schema: int, what: str) -> None:
    if not isinstance(document, dict):
        raise SchemaError(f"{what} printed {type(document).__name__}, not a JSON object")
    found = document.get("schema")
    if found != schema:
        raise SchemaError(
            f"{what} printed a document of schema {found!r}; this module reads schema {schema}: "
            "install the testgate wheel that matches the binary"
        )


_T = typing.TypeVar("_T")


def _build(cls: type[_T], data: dict[str, Any]) -> _T:
    """`cls` from a JSON object: known fields converted by their type hints,
    the others kept in `extra`."""
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)} - {"extra"}  # type: ignore[arg-type]
    known: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in data.items():
        if key in names:
            known[key] = _convert(hints[key], value)
        else:
            extra[key] = value
    built: _T = typing.cast(Any, cls)(**known, extra=extra)
    return built


def _convert(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin is Union or origin is types.UnionType:
        inner = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return _convert(inner[0], value) if len(inner) == 1 else value
    if origin is list and isinstance(value, list):
        (item,) = typing.get_args(hint)
        return [_convert(item, v) for v in value]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and isinstance(value, dict):
        return _build(hint, value)
    return value
