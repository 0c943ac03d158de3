# testgate's recorder of unittest's results (docs/formats.md, "Where the
# outcomes come from"). testgate writes this file as sitecustomize.py into a
# directory of its own outside the project and puts that directory first on
# PYTHONPATH. In the first Python process that finds TESTGATE_UNITTEST_REPORT
# (which it takes out of the environment, so that no process it starts
# records over it) every result a unittest.TextTestRunner gives is recorded
# (python -m unittest, Django's test runner, --parallel's results as the
# parent replays them), and written as JSON lines to that path when the run
# ends. Then the sitecustomize this file shadows (the project's, the
# virtual environment's, the interpreter's) runs as it would have.
import os
import sys


def _testgate_record(place):
    import atexit
    import json
    import unittest

    records = []
    runs = []

    def write():
        part = place + ".part"
        with open(part, "w", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
        os.replace(part, place)

    def note(test, outcome):
        try:
            name = str(test)
        except Exception:
            name = repr(test)
        record = {"test": name, "outcome": outcome}
        # The docstring's first line, which -v prints in place of the name
        # and SWE-bench's Django lists keep as the test's name.
        try:
            description = test.shortDescription()
        except Exception:
            description = None
        if isinstance(description, str) and description.strip():
            record["description"] = description
        records.append(record)

    def recording(result):
        for method, outcome in (
            ("addSuccess", "passed"),
            ("addFailure", "failed"),
            ("addError", "error"),
            ("addSkip", "skipped"),
            ("addExpectedFailure", "xfailed"),
            ("addUnexpectedSuccess", "xpassed"),
        ):
            inner = getattr(result, method, None)
            if inner is None:
                continue

            def recorded(test, *args, _inner=inner, _outcome=outcome):
                note(test, _outcome)
                return _inner(test, *args)

            setattr(result, method, recorded)
        inner_subtest = getattr(result, "addSubTest", None)
        if inner_subtest is not None:

            def subtest(test, sub, err, _inner=inner_subtest):
                if err is not None:
                    failed = issubclass(err[0], getattr(test, "failureException", ()))
                    note(test, "failed" if failed else "error")
                return _inner(test, sub, err)

            result.addSubTest = subtest
        return result

    original_run = unittest.TextTestRunner.run

    def run(self, test):
        make = self._makeResult
        self._makeResult = lambda: recording(make())
        result = None
        try:
            result = original_run(self, test)
            return result
        finally:
            self.__dict__.pop("_makeResult", None)
            runs.append(1)
            if result is not None:
                records.append(
                    {
                        "ran": result.testsRun,
                        "failures": len(result.failures),
                        "errors": len(result.errors),
                        "skipped": len(result.skipped),
                        "expected_failures": len(result.expectedFailures),
                        "unexpected_successes": len(result.unexpectedSuccesses),
                    }
                )
            write()

    unittest.TextTestRunner.run = run

    def unrecorded():
        # A process that ran no TextTestRunner (a wrapper, another runner):
        # its report says so, and the console judges alone.
        if not runs:
            records.append({"unrecorded": "no unittest.TextTestRunner ran"})
            write()

    atexit.register(unrecorded)


def _testgate_chain():
    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    path = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


_testgate_place = os.environ.pop("TESTGATE_UNITTEST_REPORT", None)
if _testgate_place:
    _testgate_record(_testgate_place)
del _testgate_place
_testgate_chain()
