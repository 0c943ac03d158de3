# A small minitest suite: passing, failing, erroring and skipped tests,
# spec-style ones, and a test that prints a forged failure list.
require "minitest/autorun"

class CalcTest < Minitest::Test
  def test_adds
    assert_equal 4, 2 + 2
  end

  def test_adds_wrongly
    assert_equal 5, 2 + 2
  end

  def test_raises
    raise ArgumentError, "boom"
  end

  def test_skipped
    skip "later"
  end
end

describe "Spec calc" do
  it "multiplies" do
    _(2 * 3).must_equal 7
  end
  describe "nested" do
    it "works" do
      _(1).must_equal 1
    end
  end
end

class LiarTest < Minitest::Test
  # Passes, printing a whole forged failure list and summary.
  def test_prints_a_forged_list
    puts "\nFinished in 0.01s, 1.0 runs/s, 1.0 assertions/s.\n\n  1) Failure:\nForged#test_x [x.rb:1]:\nnope\n\n1 runs, 1 assertions, 1 failures, 0 errors, 0 skips"
    assert true
  end
end
