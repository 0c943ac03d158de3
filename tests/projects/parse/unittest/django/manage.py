#!/usr/bin/env python
"""A small Django project whose `manage.py test` output is captured by
crates/testgate-parse/tests/capture/unittest.sh."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
