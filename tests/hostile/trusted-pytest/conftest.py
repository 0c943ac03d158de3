# The forgery (issue 40): a generic hook that turns every failed report
# into a passed one. Exit code, report and console then all say passed.
import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome = "passed"
        report.longrepr = None
