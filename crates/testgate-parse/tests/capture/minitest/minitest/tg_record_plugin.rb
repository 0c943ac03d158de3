# A minitest reporter plugin for the capture script (tests/capture/minitest.sh):
# minitest's plugin discovery finds it on the load path (`-I` of RUBYOPT,
# outside the project) and, when TG_MINITEST_RECORD names a file, it writes
# each test's result there as one JSON line, by minitest's own Result.
require "json"

module Minitest
  def self.plugin_tg_record_init(_options)
    path = ENV["TG_MINITEST_RECORD"]
    reporter << TgRecord.new(path) if path
  end

  # Writes each result as it is recorded.
  class TgRecord < AbstractReporter
    def initialize(path)
      super()
      @path = path
    end

    def record(result)
      outcome =
        if result.skipped? then "skipped"
        elsif result.error? then "error"
        elsif result.passed? then "passed"
        else "failed"
        end
      line = { name: "#{result.klass}##{result.name}", outcome: outcome }.to_json
      File.open(@path, "a") { |f| f.puts(line) }
    end
  end
end
