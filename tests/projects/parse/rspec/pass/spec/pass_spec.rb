RSpec.describe "Passing" do
  it "is fine" do
    expect(2).to eq(2)
  end
end
