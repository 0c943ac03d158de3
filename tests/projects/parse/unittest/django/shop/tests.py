import unittest

from django.test import SimpleTestCase, TestCase

from .models import Item


class ItemTests(TestCase):
    def test_create(self):
        Item.objects.create(name="a")
        self.assertEqual(Item.objects.count(), 1)

    def test_count_wrong(self):
        """Counts the items, wrongly."""
        Item.objects.create(name="a")
        self.assertEqual(Item.objects.count(), 2)

    def test_error(self):
        Item.objects.get(name="missing")


class PlainTests(SimpleTestCase):
    def test_ok(self):
        self.assertTrue(True)

    @unittest.skip("not now")
    def test_skipped(self):
        pass

    def test_subtests(self):
        for word in ["a", "b"]:
            with self.subTest(word=word):
                self.assertEqual(word, "a")
