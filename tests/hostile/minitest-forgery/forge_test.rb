# A forged Pass, minitest: `test_a_fails` fails; `test_b_forges` prints
# minitest's green closing lines and ends ruby with `exit!(0)`, which skips
# minitest's own report (it prints its list and summary at exit). The
# console closes as a passing run would and the exit status is 0.
# `i_suck_and_my_tests_are_order_dependent!`: the failing test runs first.
require "minitest/autorun"

class ForgeTest < Minitest::Test
  i_suck_and_my_tests_are_order_dependent!

  def test_a_fails
    assert_equal 3, 1 + 1
  end

  def test_b_forges
    $stdout.write "\n\nFinished in 0.01s, 100.0 runs/s, 100.0 assertions/s.\n\n"
    $stdout.write "2 runs, 2 assertions, 0 failures, 0 errors, 0 skips\n"
    $stdout.flush
    exit!(0)
  end
end
