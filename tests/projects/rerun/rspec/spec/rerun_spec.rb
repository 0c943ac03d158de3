# tests/projects/rerun/README.md: TESTGATE_FIXTURE picks what the examples
# do; the failing names need escaping in a retry's `-E` regex.
MODE = ENV.fetch("TESTGATE_FIXTURE", "pass")
COUNTER = File.expand_path("../.flaky-count", __dir__)
$polluted = false

def first_run?
  runs = File.exist?(COUNTER) ? File.read(COUNTER).to_i + 1 : 1
  File.write(COUNTER, runs.to_s)
  # testgate puts the tree back between attempts and numbers them: the
  # runs of earlier attempts (one each) come before this attempt's.
  runs + ENV.fetch("TESTGATE_ATTEMPT", "1").to_i - 1 == 1
end

RSpec.describe "calc" do
  20.times do |n|
    it format("many %02d", n) do
      expect(n).to be >= 0
    end
  end

  it "fails" do
    expect(MODE).not_to eq("fail")
  end

  # Its description holds the failing one's: a retry must not run it.
  it "fails not" do
  end

  it "a pollutes" do
    $polluted = true
  end

  it "b victim" do
    expect(MODE == "order" && $polluted).to be(false)
  end

  it "sometimes" do
    expect(first_run?).to be(false) if MODE == "flaky"
  end

  describe "named (x) [y] + ünï" do
    it "a.b*c|d^$ ✓ /slash/ #{'#'}hash" do
      expect(MODE).not_to eq("fail")
    end
  end
end
