# tests/projects/rerun/README.md: TESTGATE_FIXTURE picks what the tests
# do; the failing names need escaping in a retry's `-n` regex.
require "minitest/autorun"

MODE = ENV.fetch("TESTGATE_FIXTURE", "pass")
COUNTER = File.expand_path("../.flaky-count", __dir__)

def first_run?
  runs = File.exist?(COUNTER) ? File.read(COUNTER).to_i + 1 : 1
  File.write(COUNTER, runs.to_s)
  # testgate puts the tree back between attempts and numbers them: the
  # runs of earlier attempts (one each) come before this attempt's.
  runs + ENV.fetch("TESTGATE_ATTEMPT", "1").to_i - 1 == 1
end

class RerunTest < Minitest::Test
  20.times do |n|
    define_method(format("test_many_%02d", n)) { assert n >= 0 }
  end

  def test_fails
    refute_equal "fail", MODE
  end

  # Its name starts with the failing one's: a retry must not run it.
  def test_fails_not
  end

  def test_sometimes
    refute first_run?, "first run" if MODE == "flaky"
  end
end

describe "named (x) [y] + ünï" do
  it "a.b*c|d^$ ✓ /slash/" do
    _(MODE).wont_equal "fail"
  end
end
