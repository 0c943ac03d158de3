"""`testgate mcp` driven by a real MCP client: the official Python SDK's
stdio client starts the binary inside the wheel and calls its tools on the
e2e pytest project (under bwrap, default options), a captured log and two
check documents. Run by scripts/python-test, which installs `mcp`."""

import json
import os
import pathlib
import shutil
import subprocess
import uuid

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

import testgate

REPO = pathlib.Path(os.environ["TESTGATE_REPO"])
PROJECT = REPO / "tests" / "projects" / "e2e" / "pytest"
FIXTURES = REPO / "crates" / "testgate-parse" / "tests" / "fixtures"
PYTEST = ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
# Verbose: every test named, passing ones too, so that a diff sees them.
VERBOSE = ["python3", "-m", "pytest", "-v", "-p", "no:cacheprovider"]
# The e2e project's failing tests in fail mode (tests/projects/e2e/README.md).
FAILING = [
    "tests/test_calc.py::test_adds_negative",
    "tests/test_calc.py::TestBig::test_big_numbers",
]
# Every wait below is bounded by this; none is a synchronisation by sleep.
BOUND = 120.0


# The folder the server is started for (`testgate mcp --root`): pytest's
# base temporary folder, which holds every test's project copy.
ROOTS = []


@pytest.fixture(autouse=True)
def served_root(tmp_path_factory):
    ROOTS[:] = [str(tmp_path_factory.getbasetemp())]


@pytest.fixture
def project(tmp_path):
    """A fresh copy of the e2e pytest project (under the target directory,
    never /tmp: the sandbox gives every run a private /tmp)."""
    copy = tmp_path / "project"
    shutil.copytree(PROJECT, copy)
    return copy


def session_run(body, wrapper=()):
    """Runs `body(session)` in a live MCP session with `testgate mcp`
    serving the tests' base temporary folder, started through `wrapper`
    (a command that execs its arguments) if one is given."""
    roots = [word for root in ROOTS for word in ("--root", root)]
    command = [*wrapper, testgate.binary(), "mcp", *roots]
    server = StdioServerParameters(command=command[0], args=command[1:])

    async def main():
        with anyio.fail_after(4 * BOUND):
            async with stdio_client(server) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await body(session)

    return anyio.run(main)


def summary_and_document(result):
    """The result's summary line and its document (structured content,
    which the text content repeats as JSON)."""
    assert not result.is_error, result.content
    summary, text = result.content
    assert json.loads(text.text) == result.structured_content
    return summary.text, result.structured_content


def check_arguments(project, mode, command=PYTEST, **more):
    return {"workspace": str(project), "command": command, "env": {"TESTGATE_FIXTURE": mode}, **more}


def test_the_server_lists_its_three_tools():
    async def body(session):
        return (await session.list_tools()).tools

    tools = {tool.name: tool for tool in session_run(body)}
    assert set(tools) == {"check", "parse", "diff"}
    # The check tool's result has a schema: the compact form or, with
    # `full: true`, the whole document (docs/schema/check-compact.json, check.json).
    assert tools["check"].output_schema["type"] == "object"
    assert len(tools["check"].output_schema["anyOf"]) == 2
    assert tools["check"].input_schema["properties"]["full"]["type"] == "boolean"
    # `command` may be left out: testgate finds the project's runner.
    assert tools["check"].input_schema["required"] == ["workspace"]
    assert tools["parse"].input_schema["required"] == ["text"]
    assert tools["diff"].input_schema["required"] == ["before", "after"]


def test_check_fails_with_the_names_and_reports_each_attempt(project):
    steps = []

    async def progress(progress, total, message):
        steps.append((progress, total, message))

    async def body(session):
        return await session.call_tool(
            "check", check_arguments(project, "fail", k=1), progress_callback=progress
        )

    summary, document = summary_and_document(session_run(body))
    assert document["verdict"] == "fail", document["reason"]
    assert document["cause"] is None
    # The compact result: each failing test with its message's first line.
    assert document["compact"] == 1
    assert [f["name"] for f in document["failing"]] == FAILING
    assert all(f["message"] and "\n" not in f["message"] for f in document["failing"])
    assert summary == "FAIL: 2 failing tests: " + ", ".join(FAILING)
    assert len(document["attempts"]) == 2
    assert document["attempts"][0].startswith("1: exited 1 in "), document["attempts"]
    # Two attempts, each started and ended: four steps, in order, of at most four.
    assert [p for p, _, _ in steps] == [1, 2, 3, 4], steps
    assert all(total == 4 for _, total, _ in steps), steps
    assert steps[0][2].startswith("attempt 1 of at most 2 started"), steps
    assert steps[1][2].startswith("attempt 1 exited 1"), steps
    assert "2 failing tests" in steps[1][2], steps


def test_check_passes_a_passing_suite_and_diff_names_what_broke(project, tmp_path):
    async def body(session):
        # `diff` compares whole documents: `full: true`.
        passed = await session.call_tool("check", check_arguments(project, "pass", VERBOSE, full=True))
        failed = await session.call_tool("check", check_arguments(project, "fail", VERBOSE, full=True))
        _, before = summary_and_document(passed)
        _, after = summary_and_document(failed)
        diffed = await session.call_tool("diff", {"before": before, "after": after})
        return passed, before, after, diffed

    passed, before, after, diffed = session_run(body)
    summary, _ = summary_and_document(passed)
    assert before["verdict"] == "pass", before["reason"]
    assert summary.startswith("PASS: "), summary
    summary, document = summary_and_document(diffed)
    assert document["counts"]["broken"] == 2, document
    broken = [t["name"] for t in document["tests"] if t["change"] == "broken"]
    assert broken == FAILING
    assert summary.startswith("2 broken"), summary
    # The same document as `testgate diff --json` on the same checks.
    (tmp_path / "before.json").write_text(json.dumps(before))
    (tmp_path / "after.json").write_text(json.dumps(after))
    cli = subprocess.run(
        [testgate.binary(), "diff", "--json", tmp_path / "before.json", tmp_path / "after.json"],
        capture_output=True,
        check=True,
        timeout=BOUND,
    )
    assert json.loads(cli.stdout) == document


def test_parse_gives_the_document_of_parse_json():
    log = FIXTURES / "pytest" / "default.log"

    async def body(session):
        return await session.call_tool("parse", {"text": log.read_text(), "format": "pytest"})

    summary, document = summary_and_document(session_run(body))
    cli = subprocess.run(
        [testgate.binary(), "parse", "--json", "--format", "pytest", "-"],
        input=log.read_bytes(),
        capture_output=True,
        check=True,
        timeout=BOUND,
    )
    assert document == json.loads(cli.stdout)
    names = [t["name"] for t in document["failing"]]
    assert names, "the captured log names failing tests"
    assert summary.startswith(f"{len(names)} failing test"), summary


def test_bad_arguments_are_a_one_line_tool_error(project, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()

    async def body(session):
        unknown = await session.call_tool("check", {"workspace": str(empty)})
        loosened = await session.call_tool(
            "check", {"workspace": str(project), "command": PYTEST, "sandbox": "none"}
        )
        return unknown, loosened

    unknown, loosened = session_run(body)
    for result, wanted in [(unknown, "found no test runner in"), (loosened, "no argument `sandbox`")]:
        assert result.is_error
        [text] = result.content
        assert wanted in text.text and "\n" not in text.text, text.text


def test_check_without_a_command_finds_the_projects_runner(project, monkeypatch):
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)

    async def body(session):
        arguments = {"workspace": str(project), "env": {"TESTGATE_FIXTURE": "fail"}}
        return await session.call_tool("check", arguments)

    summary, document = summary_and_document(session_run(body))
    assert document["verdict"] == "fail", document["reason"]
    assert [f["name"] for f in document["failing"]] == FAILING
    assert document["detected"] == {
        "command": ["python3", "-m", "pytest"],
        "runner": "pytest",
        "why": "found conftest.py",
    }
    assert document["attempts"][0].startswith("1: exited 1 in "), document["attempts"]


def processes_marked(marker):
    """Every process whose argv or environment holds `marker`."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            seen = (entry / "cmdline").read_bytes() + (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker.encode() in seen:
            found.append(int(entry.name))
    return found


async def until(condition, what):
    """Waits (bounded by BOUND) until `condition()` holds, polling /proc."""
    with anyio.fail_after(BOUND):
        while not condition():
            await anyio.sleep(0.05)


def test_a_cancelled_check_ends_every_process_of_its_run(project):
    marker = f"testgate-mcp-cancel-{uuid.uuid4().hex}"
    steps = []
    started = anyio.Event()

    async def progress(progress, total, message):
        steps.append(message)
        started.set()

    async def body(session):
        arguments = check_arguments(project, "hang", timeout="10m")
        arguments["env"]["TESTGATE_MCP_MARKER"] = marker
        async with anyio.create_task_group() as group:

            async def call():
                await session.call_tool("check", arguments, progress_callback=progress)

            group.start_soon(call)
            with anyio.fail_after(BOUND):
                await started.wait()
            # The hung test runs (marked by its environment): cancel the call,
            # which sends notifications/cancelled for its request.
            await until(lambda: processes_marked(marker), "the marked test process")
            seen = processes_marked(marker)
            group.cancel_scope.cancel()
        await until(lambda: not processes_marked(marker), "no marked process left")
        # The server lives on and answers.
        tools = (await session.list_tools()).tools
        return seen, tools

    seen, tools = session_run(body)
    assert seen, "the hung run's processes were seen before the cancellation"
    assert processes_marked(marker) == []
    assert {tool.name for tool in tools} == {"check", "parse", "diff"}
    assert steps[0].startswith("attempt 1 of at most 1 started"), steps


def one_line_error(result):
    """The text of a tool error, which must be one line."""
    assert result.is_error, result.content
    [text] = result.content
    assert "\n" not in text.text, text.text
    return text.text


def test_the_caller_cannot_widen_the_sandbox(project, tmp_path):
    """The attacks of issue 35 through a real session: a variable that
    would mount or show a host folder, and a workspace outside the served
    folder or in a system folder (by path or by a link in the served one),
    are each refused with a one-line error, before anything runs; and the
    check of the same project with none of them runs."""
    planted = project / "ran.txt"
    link = tmp_path / "etc-link"
    link.symlink_to("/etc")
    command = ["sh", "-c", f"echo ran > {planted}"]
    attacks = [
        ({"env": {"CARGO_TARGET_DIR": "/"}}, "`env` may not set CARGO_TARGET_DIR"),
        ({"env": {"PYTHONPATH": "/root"}}, "`env` may not set PYTHONPATH"),
        ({"env": ["PATH=/root:/usr/bin:/bin"]}, "`env` may not set PATH"),
        ({"env": {"LD_PRELOAD": "/tmp/x.so"}}, "`env` may not set LD_PRELOAD"),
        ({"env": {"HOME": "/root"}}, "`env` may not set HOME"),
        ({"workspace": "/etc"}, "in the system folder /etc"),
        ({"workspace": "/usr/local/bin"}, "in the system folder /usr"),
        ({"workspace": "/opt"}, "is a system folder"),
        ({"workspace": str(link)}, "in the system folder /etc"),
        ({"workspace": str(REPO)}, "not in the folders this server was started for"),
    ]

    async def body(session):
        results = []
        for changes, _ in attacks:
            arguments = {"workspace": str(project), "command": command, **changes}
            results.append(await session.call_tool("check", arguments))
        honest = await session.call_tool(
            "check",
            # keep_changes: ran.txt, what the command wrote, is read below.
            {"workspace": str(project), "command": command, "env": {"CI": "1"}, "keep_changes": True},
        )
        return results, honest

    results, honest = session_run(body)
    for (changes, wanted), result in zip(attacks, results):
        text = one_line_error(result)
        assert wanted in text, (changes, text)
    # Nothing ran for any attack; the honest call ran.
    assert not honest.is_error, honest.content
    assert planted.read_text() == "ran\n"


def test_a_server_for_a_system_folder_does_not_start():
    """`--root /` (or the current directory `/`) would serve the host."""
    for args in (["mcp", "--root", "/"], ["mcp", "--root", "/etc"]):
        ran = subprocess.run(
            [testgate.binary(), *args], capture_output=True, timeout=BOUND, stdin=subprocess.DEVNULL
        )
        assert ran.returncode == 2, ran
        assert b"(--root)" in ran.stderr, ran.stderr
    ran = subprocess.run(
        [testgate.binary(), "mcp"], capture_output=True, timeout=BOUND, cwd="/", stdin=subprocess.DEVNULL
    )
    assert ran.returncode == 2 and b"cannot serve /" in ran.stderr, ran


def zombie_children(pid):
    """The zombie processes whose parent is `pid`, from /proc."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if fields[0] == "Z" and int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def server_pid():
    """The pid of the `testgate mcp` this test process started."""
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if int(fields[1]) == os.getpid() and cmdline[1:2] == [b"mcp"]:
            return int(entry.name)
    raise AssertionError("no testgate mcp child of this test")


ATTEMPTS = 1000


# A container runtime's default profile, simulated: bubblewrap cannot
# start under it, so the server's `auto` picks Landlock.
WITHOUT_NAMESPACES = [str(REPO / "tests" / "containers" / "without-namespaces")]


@pytest.mark.parametrize("wrapper", [(), WITHOUT_NAMESPACES], ids=["bwrap", "landlock"])
def test_no_zombie_is_left_after_a_thousand_attempts(project, wrapper):
    """Every process a call starts is reaped when it ends: 1,000 attempts of
    a trivial command (`stress`) leave the server no zombie child (there
    was one `bwrap` per attempt: the sandbox's init, reparented to the
    server when bwrap exits), under bubblewrap and, where bubblewrap
    cannot start, under Landlock."""

    async def body(session):
        arguments = {"workspace": str(project), "command": ["true"], "stress": ATTEMPTS}
        result = await session.call_tool("check", arguments)
        return result, zombie_children(server_pid())

    # Under the wrapper bubblewrap cannot start and `auto` picks Landlock
    # (the CLI's sandboxes::auto_picks_landlock_where_bubblewrap_cannot_start_and_says_why).
    result, zombies = session_run(body, wrapper)
    summary = result.content[0].text
    # `true` names no test: the stress runs compare nothing, but all ran.
    assert summary.startswith("INCONCLUSIVE (no_tests_ran)"), summary
    assert len(result.structured_content["attempts"]) == ATTEMPTS
    assert zombies == []
def many_tests_project(root, tests=500, failing=200):
    """A pytest project of `tests` tests, the first `failing` of which fail
    with a two-line message: the size of a real suite's result."""
    root.mkdir()
    (root / "conftest.py").write_text("")
    lines = []
    for i in range(tests):
        lines.append(f"def test_case_{i:03}():")
        if i < failing:
            lines.append(f"    assert {i} == -1, 'case {i} is wrong\\nsee the spec of case {i}'")
        else:
            lines.append("    assert True")
    (root / "test_many.py").write_text("\n".join(lines) + "\n")
    return root


def result_bytes(result):
    """The bytes of a tool's result as the client received it."""
    return len(result.model_dump_json(by_alias=True, exclude_none=True).encode())


def test_the_compact_result_is_a_fraction_of_the_whole_document(tmp_path):
    project = many_tests_project(tmp_path / "many")
    names = [f"test_many.py::test_case_{i:03}" for i in range(500)]
    # A graded run: 150 that must pass (100 of them failing), 300 that
    # must keep passing (100 of them failing): 250 passed, 200 failed.
    expect = {"FAIL_TO_PASS": names[100:250], "PASS_TO_PASS": names[:100] + names[300:500]}
    command = ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"]

    async def body(session):
        results = {}
        for graded in (False, True):
            for full in (False, True):
                arguments = {"workspace": str(project), "command": command, "full": full}
                if graded:
                    arguments["expect"] = expect
                results[(graded, full)] = await session.call_tool("check", arguments)
        return results

    results = session_run(body)
    sizes = {key: result_bytes(result) for key, result in results.items()}
    print(f"MCP check result bytes (500 tests, 200 failing): {sizes}")
    _, compact = summary_and_document(results[(False, False)])
    _, full = summary_and_document(results[(False, True)])
    assert compact["verdict"] == full["verdict"] == "fail"
    assert compact["failing_count"] == len(full["failing"]) == 200
    assert len(compact["failing"]) == 50
    assert compact["failing"][0]["message"].startswith("AssertionError: case 0 is wrong"), compact
    assert compact["tests_named"] == len(full["tests"])
    _, graded = summary_and_document(results[(True, False)])
    grading = graded["grading"]
    assert (grading["passed"], grading["failed"], grading["not_run"]) == (250, 200, 0), grading
    assert len(grading["not_passed"]) == 50
    for graded_run in (False, True):
        assert sizes[(graded_run, False)] * 5 < sizes[(graded_run, True)], sizes
        assert sizes[(graded_run, False)] < 32_000, sizes
