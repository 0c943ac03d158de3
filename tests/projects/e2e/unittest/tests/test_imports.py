# In the `import` mode this module fails to import, as a module with a
# missing dependency does: unittest names it by its dotted name. In every
# other mode it holds no test.
import os

if os.environ.get("TESTGATE_FIXTURE") == "import":
    import testgate_no_such_module  # noqa: F401
