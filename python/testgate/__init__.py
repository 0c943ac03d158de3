"""testgate from Python: run a project's tests in a sandbox and get one verdict.

`check` runs the `testgate` binary installed with this package
(`testgate check --json`) and returns a `Result`; `parse` reads a runner's
log (`testgate parse --json`) and returns a `Report`. Both are dataclasses
mirroring the documented JSON (docs/cli.md); `batch` runs a manifest's
checks (or one of them) and returns a `BatchResult` per check. A check that testgate could
not run raises `TestgateError` with testgate's one-line message and exit
code.

    >>> import testgate
    >>> result = testgate.check("path/to/project", "cargo test", retries=2)  # doctest: +SKIP
    >>> result.verdict, result.failing  # doctest: +SKIP
    ('fail', ['tests::mean_of_nothing_is_none'])

Without a command, testgate finds the project's runner from its files
(`result.detected` says which command it chose, and why).
"""

from ._documents import (
    BATCH_SCHEMA,
    CHECK_SCHEMA,
    PARSE_SCHEMA,
    Attempt,
    BatchResult,
    Counts,
    Crash,
    Detected,
    Environment,
    FailingTest,
    Failure,
    Findings,
    GradedTest,
    Grading,
    Note,
    OrderDependence,
    Preparation,
    Report,
    Section,
    View,
    Result,
    SandboxUsed,
    SchemaError,
    SometimesFailed,
    StoppedBy,
    Stress,
    Suite,
    TestOutcome,
    Tree,
)
from ._run import (
    EXIT_FAIL,
    EXIT_INCONCLUSIVE,
    EXIT_INTERRUPTED,
    EXIT_PASS,
    EXIT_TROUBLE,
    AttemptProgress,
    Expectation,
    Interrupted,
    TestgateError,
    batch,
    binary,
    check,
    parse,
)

__all__ = [
    "AttemptProgress",
    "BATCH_SCHEMA",
    "CHECK_SCHEMA",
    "EXIT_FAIL",
    "EXIT_INCONCLUSIVE",
    "EXIT_INTERRUPTED",
    "EXIT_PASS",
    "EXIT_TROUBLE",
    "PARSE_SCHEMA",
    "Attempt",
    "BatchResult",
    "Counts",
    "Crash",
    "Detected",
    "Environment",
    "Expectation",
    "FailingTest",
    "Failure",
    "Findings",
    "GradedTest",
    "Grading",
    "Interrupted",
    "Note",
    "OrderDependence",
    "Preparation",
    "Report",
    "Section",
    "View",
    "Result",
    "SandboxUsed",
    "SchemaError",
    "SometimesFailed",
    "StoppedBy",
    "Stress",
    "Suite",
    "TestOutcome",
    "TestgateError",
    "Tree",
    "batch",
    "binary",
    "check",
    "parse",
]
