"""`python -m unittest` with a result class that also records, as JSON
lines in $TG_RECORD, every test's outcome as unittest's own API gives it."""
import json
import os
import sys
import unittest
from unittest.util import strclass


def canonical(test):
    """`test_method (module.Class)`: a TestCase by its method and class; a
    doctest or any other case by its own description."""
    loader_failure = type(test).__name__ in ("_FailedTest", "ModuleImportFailure")
    if loader_failure:
        return test._testMethodName
    if isinstance(test, unittest.TestCase) and not type(test).__name__ == "DocTestCase":
        if hasattr(test, "_testMethodName") and type(test).__name__ != "_SubTest":
            return f"{test._testMethodName} ({strclass(type(test))})"
    if type(test).__name__ == "_SubTest":
        return canonical(test.test_case)
    return str(test)


class RecordingResult(unittest.TextTestResult):
    def _record(self, test, outcome):
        with open(os.environ["TG_RECORD"], "a", encoding="utf-8") as f:
            f.write(json.dumps({"id": test.id(), "name": canonical(test), "outcome": outcome}) + "\n")

    def startTest(self, test):
        super().startTest(test)
        self._record(test, "started")

    def addSuccess(self, test):
        super().addSuccess(test)
        self._record(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, "failed")

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, "error")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record(test, "skipped")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._record(test, "xfailed")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._record(test, "xpassed")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._record(test, "failed" if failed else "error")


class RecordingRunner(unittest.TextTestRunner):
    """unittest's own runner, its results also recorded."""

    resultclass = RecordingResult


def django_runner():
    """A Django DiscoverRunner whose results are also recorded (Django is
    imported only when asked for: `--testrunner tg_unittest_record.DjangoRunner`)."""
    from django.test.runner import DiscoverRunner

    class Runner(DiscoverRunner):
        def get_resultclass(self):
            return RecordingResult

    return Runner


def __getattr__(name):
    if name == "DjangoRunner":
        return django_runner()
    raise AttributeError(name)


if __name__ == "__main__":
    sys.argv[0] = "python -m unittest"
    unittest.main(module=None, testRunner=RecordingRunner)
