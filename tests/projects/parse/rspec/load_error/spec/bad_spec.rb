# A spec file with a syntax error: RSpec names it as an error outside of
# examples and runs the rest.
RSpec.describe "Broken" do
  it "never runs" do
  end
