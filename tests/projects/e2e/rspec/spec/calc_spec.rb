# The e2e fixture (tests/projects/e2e/README.md): TESTGATE_FIXTURE picks
# what the examples do.
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

RSpec.describe "calc" do
  it "adds" do
    expect(2 + 2).to eq(4)
  end

  it "adds negative" do
    expect(1 + -2).to eq(MODE == "fail" ? 0 : -1)
  end

  it "sometimes" do
    expect(odd_run?).to be(false) if MODE == "flaky"
  end

  it "hangs" do
    sleep 3600 if MODE == "hang"
  end

  describe "big" do
    it "millions" do
      expect(1_000_000 * 2).to eq(MODE == "fail" ? 1 : 2_000_000)
    end
  end
end
