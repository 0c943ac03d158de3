"""A module that fails to import: unittest reports it as a _FailedTest."""
import a_module_that_does_not_exist  # noqa: F401
