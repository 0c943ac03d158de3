# The e2e fixture (tests/projects/e2e/README.md): TESTGATE_FIXTURE picks
# what the tests do.
require "minitest/autorun"

MODE = ENV.fetch("TESTGATE_FIXTURE", "pass")
COUNTER = File.expand_path("../.flaky-count", __dir__)

def odd_run?
  runs = File.exist?(COUNTER) ? File.read(COUNTER).to_i + 1 : 1
  File.write(COUNTER, runs.to_s)
  # testgate puts the tree back between attempts and numbers them: the
  # runs of earlier attempts (one each) come before this attempt's.
  n = runs + ENV.fetch("TESTGATE_ATTEMPT", "1").to_i - 1
  n.odd?
end

class CalcTest < Minitest::Test
  def test_adds
    assert_equal 4, 2 + 2
  end

  def test_adds_negative
    assert_equal(MODE == "fail" ? 0 : -1, 1 + -2)
  end

  def test_sometimes
    refute odd_run?, "odd-numbered run" if MODE == "flaky"
  end

  def test_hangs
    sleep 3600 if MODE == "hang"
  end
end

class BigTest < Minitest::Test
  def test_big_numbers
    assert_equal(MODE == "fail" ? 1 : 2_000_000, 1_000_000 * 2)
  end
end
