# The e2e fixture's file that fails to load in mode `load` (a constant that
# does not exist, at the file's top): minitest runs no test, and ruby's
# report of the exception names this file.
require "minitest/autorun"

NoSuchHelper.configure if ENV.fetch("TESTGATE_FIXTURE", "pass") == "load"

class LoadsTest < Minitest::Test
end
