# An honest suite beside the forgeries: it passes where the project's own
# sitecustomize ran (testgate's recorder chains to it) and the user's
# PYTHONPATH was kept.
import builtins
import os
import unittest


class Honest(unittest.TestCase):
    def test_the_projects_sitecustomize_ran(self):
        self.assertEqual(getattr(builtins, "PROJECT_SITE", None), "ran")

    def test_the_report_variable_is_not_seen(self):
        self.assertNotIn("TESTGATE_UNITTEST_REPORT", os.environ)
