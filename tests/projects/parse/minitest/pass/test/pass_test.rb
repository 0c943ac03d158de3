require "minitest/autorun"

class PassTest < Minitest::Test
  def test_fine
    assert_equal 2, 1 + 1
  end
end
