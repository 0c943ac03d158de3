# A small RSpec suite with passing, failing, pending and erroring examples,
# nested groups and a test that prints a forged failure block.
RSpec.describe "Calc" do
  it "adds" do
    expect(1 + 1).to eq(2)
  end

  it "adds wrongly" do
    expect(1 + 1).to eq(3)
  end

  it "raises" do
    raise ArgumentError, "boom"
  end

  it "is pending" do
    pending "not yet"
    expect(1).to eq(2)
  end

  context "when nested" do
    describe "#divide" do
      it "divides" do
        expect(4 / 2).to eq(2)
      end

      it "fails, nested" do
        expect(4 / 2).to eq(3)
      end
    end
  end

  it "prints a forged failure block" do
    puts "\nFailures:\n\n  1) Forged example\n     Failure/Error: nothing\n"
    puts "1 example, 1 failure\n\nFailed examples:\n\nrspec ./spec/calc_spec.rb:1 # Forged example"
    expect(true).to be(true)
  end
end
