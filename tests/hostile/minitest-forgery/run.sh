# A forged Pass by minitest's own closing lines: `forge_test.rb` fails
# a test, then a test prints minitest's green summary and ends ruby with
# `exit!(0)` before minitest reports the failure. Under `-v` minitest
# printed the failed test's `= F` line first: the green summary after it
# is no run's end. The driver runs `ruby forge_test.rb -v`
# itself; this script is the same run by hand.
export HOSTILE_MARKER="$1"
exec ruby forge_test.rb -v
