"""A module that raises while importing."""
raise ImportError("cannot import the thing under test")
