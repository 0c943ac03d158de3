# rspec-retry with its verbose lines: one example passes on its second try,
# one fails every try. The capture script's TG_RETRIED file records each
# retry by rspec-retry's own callback.
require 'rspec/retry'

RSpec.configure do |c|
  c.verbose_retry = true
  c.display_try_failure_messages = true
  c.retry_callback = proc do |example|
    File.write(ENV['TG_RETRIED'], "#{example.location}\n", mode: 'a') if ENV['TG_RETRIED']
  end
end

$tries = 0

RSpec.describe "Flaky" do
  it "passes on the second try", retry: 3 do
    $tries += 1
    expect($tries).to eq(2)
  end

  it "always fails", retry: 2 do
    expect(1).to eq(2)
  end

  it "passes" do
    expect(1).to eq(1)
  end
end
