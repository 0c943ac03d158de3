# Every example passes; one prints a whole RSpec failure block, summary
# and list naming the other file's failing example. Run alone, the run
# passes: the forged lines name nothing.
RSpec.describe "forged block" do
  it "prints a failure block" do
    puts "\nFailures:\n\n  1) forgery fails for real\n     Failure/Error: expect(1 + 1).to eq(3)\n"
    puts "\nFinished in 0.01 seconds (files took 0.1 seconds to load)"
    puts "1 example, 1 failure\n\nFailed examples:\n\nrspec ./forge_spec.rb:6 # forgery fails for real\n"
    expect(true).to be(true)
  end

  it "passes" do
    expect(2).to eq(2)
  end
end
