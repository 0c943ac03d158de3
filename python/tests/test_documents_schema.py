"""The dataclasses of testgate._documents against docs/schema/*.json, the
JSON Schema published from the Rust types that write the documents
(crates/testgate-documents): same field names, and a field the document may
leave null is one the dataclass accepts as None. The Python copy cannot
drift from the documents unnoticed."""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import types
import typing
from typing import Any

import pytest

from testgate import _documents as d

SCHEMA = pathlib.Path(os.environ["TESTGATE_REPO"]) / "docs" / "schema"

# (schema file, definition or None for the root, dataclass, fields the
# dataclass holds that the document does not: the command's exit code and
# the other shape's fields of the one TestOutcome class).
PAIRS: list[tuple[str, str | None, type, set[str]]] = [
    ("check", None, d.Result, {"exit_code", "as_expected"}),
    ("check", "Suite", d.Suite, set()),
    ("check", "Findings", d.Findings, set()),
    # One class for both: a stress run's Varied has `context`, the
    # findings' SometimesFailed none.
    ("check", "SometimesFailed", d.SometimesFailed, {"context"}),
    ("check", "OrderDependence", d.OrderDependence, set()),
    ("check", "StoppedBy", d.StoppedBy, set()),
    ("check", "Note", d.Note, set()),
    ("check", "Environment", d.Environment, set()),
    ("check", "Crash", d.Crash, set()),
    ("check", "Preparation", d.Preparation, set()),
    ("check", "Attempt", d.Attempt, set()),
    ("check", "Counts", d.Counts, set()),
    ("check", "Tree", d.Tree, set()),
    ("check", "TestHistory", d.TestOutcome, {"outcome", "format"}),
    ("check", "Failure", d.Failure, set()),
    ("check", "Sandbox", d.SandboxUsed, set()),
    ("check", "Grading", d.Grading, set()),
    ("check", "GradedTest", d.GradedTest, set()),
    ("check", "Stress", d.Stress, set()),
    ("check", "Varied", d.SometimesFailed, set()),
    ("check", "Detected", d.Detected, set()),
    ("check", "View", d.View, set()),
    ("parse", None, d.Report, set()),
    ("parse", "FailingTest", d.FailingTest, set()),
    ("parse", "Counts", d.Counts, set()),
    ("parse", "Crash", d.Crash, set()),
    ("parse", "Section", d.Section, set()),
    ("parse", "Test", d.TestOutcome, {"outcomes", "durations_ms"}),
]

# Fields the document always holds that the dataclass still lets be None,
# each for a reason: `tests` is None from a binary older than the field;
# TestOutcome is both shapes (check's `outcomes`, parse's `outcome`), so
# each shape's own fields are None in the other.
LENIENT = {
    (d.Result, "tests"),
    (d.Report, "tests"),
    (d.TestOutcome, "kind"),
    (d.TestOutcome, "outcomes"),
    (d.TestOutcome, "outcome"),
    (d.TestOutcome, "format"),
}


def _definition(file: str, name: str | None) -> dict[str, Any]:
    schema = json.loads((SCHEMA / f"{file}.json").read_text())
    if name is None:
        return typing.cast(dict[str, Any], schema)
    return typing.cast(dict[str, Any], schema["$defs"][name])


def _nullable(prop: dict[str, Any]) -> bool:
    kinds = prop.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    return any(_nullable(option) for option in prop.get("anyOf", []))


def _optional(hint: Any) -> bool:
    origin = typing.get_origin(hint)
    return origin in (typing.Union, types.UnionType) and type(None) in typing.get_args(hint)


@pytest.mark.parametrize(
    "file,name,cls,own", PAIRS, ids=[f"{f}:{n or 'root'}:{c.__name__}" for f, n, c, _ in PAIRS]
)
def test_a_dataclass_has_the_schemas_fields(
    file: str, name: str | None, cls: type, own: set[str]
) -> None:
    definition = _definition(file, name)
    properties: dict[str, Any] = definition["properties"]
    required = set(definition.get("required", []))
    fields = {f.name for f in dataclasses.fields(cls)} - {"extra"} - own
    assert fields == set(properties), (
        f"{cls.__name__} vs docs/schema/{file}.json {name or 'root'}: "
        f"missing {sorted(set(properties) - fields)}, unknown {sorted(fields - set(properties))}"
    )
    hints = typing.get_type_hints(cls)
    for field in sorted(fields):
        prop = properties[field]
        # A field absent from an older document reads as its schema's
        # `default`: null only where that default is null.
        absent_is_null = field not in required and prop.get("default") is None
        may_be_null = absent_is_null or _nullable(prop)
        if may_be_null:
            assert _optional(hints[field]), f"{cls.__name__}.{field} may be null: type it `| None`"
        elif (cls, field) not in LENIENT:
            assert not _optional(hints[field]), (
                f"{cls.__name__}.{field} is always present: it should not be `| None`"
            )


def test_every_schema_definition_has_a_dataclass_or_is_read_raw() -> None:
    # Kept as dicts on purpose: the restored union, the outcome enum (a
    # string in Python).
    raw = {"Restored", "Outcome"}
    for file in ("check", "parse"):
        schema = json.loads((SCHEMA / f"{file}.json").read_text())
        paired = {n for f, n, _, _ in PAIRS if f == file and n is not None}
        unpaired = set(schema.get("$defs", {})) - paired - raw
        assert not unpaired, f"docs/schema/{file}.json: no dataclass for {sorted(unpaired)}"
