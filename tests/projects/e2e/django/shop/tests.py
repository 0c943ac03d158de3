import os
import pathlib

from django.test import SimpleTestCase, TestCase

from .models import Item

MODE = os.environ.get("TESTGATE_FIXTURE", "pass")
COUNTER = pathlib.Path(__file__).resolve().parent.parent / ".flaky-count"


def odd_run():
    runs = int(COUNTER.read_text()) + 1 if COUNTER.exists() else 1
    COUNTER.write_text(str(runs))
    # testgate puts the tree back between attempts and numbers them: the
    # runs of earlier attempts (one each) come before this attempt's.
    n = runs + int(os.environ.get("TESTGATE_ATTEMPT", "1")) - 1
    return n % 2 == 1


class ItemTests(TestCase):
    def test_create(self):
        Item.objects.create(name="a")
        self.assertEqual(Item.objects.count(), 1)

    def test_count(self):
        """Counts the items it made."""
        Item.objects.create(name="a")
        self.assertEqual(Item.objects.count(), 2 if MODE == "fail" else 1)


class PlainTests(SimpleTestCase):
    def test_sometimes(self):
        if MODE == "flaky":
            self.assertFalse(odd_run(), "odd-numbered run")

    def test_words(self):
        self.assertEqual("a b".split(), ["a", "b"] if MODE != "fail" else ["a"])
