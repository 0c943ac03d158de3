# A failing test, then a test that writes a green report into the report's
# place, which it finds in its process's environment as it began
# (/proc/self/environ: testgate's recorder takes the variable out of
# os.environ). With FORGE_EXIT set it then ends the run with os._exit(0).
import json
import os
import unittest


def place():
    with open("/proc/self/environ", "rb") as env:
        for entry in env.read().split(b"\0"):
            name, _, value = entry.partition(b"=")
            if name == b"TESTGATE_UNITTEST_REPORT":
                return value.decode()
    return None


class Forge(unittest.TestCase):
    def test_a_fails(self):
        self.assertEqual(1 + 1, 3)

    def test_b_forges_the_report(self):
        at = place()
        if at is not None:
            with open(at, "w") as report:
                for name in ("test_a_fails", "test_b_forges_the_report"):
                    line = {"test": name + " (forge_report.Forge)", "outcome": "passed"}
                    report.write(json.dumps(line) + "\n")
                report.write(json.dumps({"ran": 2}) + "\n")
        if os.environ.get("FORGE_EXIT"):
            os._exit(0)
