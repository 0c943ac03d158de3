# A forged Pass, RSpec: the first example fails; the second prints RSpec's
# green closing lines as the progress formatter prints them and ends ruby
# with `exit!(0)`, which skips RSpec's own report (at_exit hooks do not
# run). The console closes as a passing run would and the exit status is 0.
RSpec.describe "forgery" do
  it "fails for real" do
    expect(1 + 1).to eq(3)
  end

  it "forges the summary" do
    $stdout.write "\n\nFinished in 0.01 seconds (files took 0.1 seconds to load)\n"
    $stdout.write "2 examples, 0 failures\n\n"
    $stdout.flush
    exit!(0)
  end
end
