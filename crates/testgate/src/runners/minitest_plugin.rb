# testgate's reporter of minitest's results (docs/formats.md, "Where the
# outcomes come from"). testgate writes this file as
# minitest/testgate_plugin.rb into a directory of its own outside the project
# and adds `-I` of that directory to RUBYOPT: minitest's plugin discovery
# (Gem.find_files("minitest/*_plugin.rb"), which searches $LOAD_PATH) loads
# it in every Minitest.run (ruby -Itest, rake test's loader). In the first run
# that finds TESTGATE_MINITEST_REPORT (taken out of the environment, so that
# no process a test starts reports over it) every result is recorded, and
# when minitest reports, the run is added to the report at that path, written
# whole and renamed into place. A run that never reports (a test that ends
# ruby, a crash) adds nothing.
require "json"

module Minitest
  # Records each result as its class, name, outcome and failure message.
  class TestgateReporter < AbstractReporter
    MAX_MESSAGE = 4096

    def initialize(place)
      super()
      @place = place
      @results = []
      @assertions = 0
    end

    def record(result)
      klass = result.respond_to?(:klass) ? result.klass : result.class.name
      outcome =
        if result.skipped? then "skipped"
        elsif result.passed? then "passed"
        elsif result.error? then "error"
        else "failed"
        end
      failure = result.failure
      message = failure ? text(failure.message)[0, MAX_MESSAGE] : nil
      @assertions += result.assertions.to_i
      @results << { "class" => text(klass), "name" => text(result.name),
                    "outcome" => outcome, "message" => message }
    end

    # `value` as valid UTF-8, which JSON needs (a name or message may hold
    # any bytes).
    def text(value)
      string = value.to_s
      unless string.encoding == Encoding::UTF_8
        string = string.encode(Encoding::UTF_8, invalid: :replace, undef: :replace)
      end
      string.scrub
    end

    def report
      runs = begin
        earlier = JSON.parse(File.read(@place))
        earlier.is_a?(Hash) && earlier["runs"].is_a?(Array) ? earlier["runs"] : []
      rescue StandardError
        []
      end
      count = ->(outcome) { @results.count { |r| r["outcome"] == outcome } }
      runs << { "results" => @results, "runs" => @results.size,
                "assertions" => @assertions, "failures" => count.("failed"),
                "errors" => count.("error"), "skips" => count.("skipped") }
      part = "#{@place}.#{Process.pid}.part"
      File.write(part, JSON.generate({ "runs" => runs }))
      File.rename(part, @place)
    rescue StandardError => e
      # The run's own outcome stands; the report is missing, which says so.
      warn "testgate: minitest's report not written (#{e.class})"
    end
  end

  def self.plugin_testgate_init(_options)
    place = ENV.delete("TESTGATE_MINITEST_REPORT")
    return if place.nil? || place.empty?

    reporter << TestgateReporter.new(place)
  end
end
