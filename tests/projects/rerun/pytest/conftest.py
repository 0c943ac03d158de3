import os

MODE = os.environ.get("TESTGATE_FIXTURE", "pass")


def pytest_collection_modifyitems(config, items):
    # `nomatch`: a targeted run (node ids given) selects nothing, as a
    # selector that does not match the runner's names would.
    if MODE == "nomatch" and any("::" in arg for arg in config.args):
        config.hook.pytest_deselected(items=items[:])
        items[:] = []
