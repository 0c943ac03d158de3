# A forged Pass by RSpec's own closing lines: `forge_spec.rb` fails an
# example, then an example prints RSpec's green summary and ends ruby with
# `exit!(0)` before RSpec reports the failure. The console closes as a
# passing run would, with exit status 0: PASS before testgate knew RSpec.
# RSpec writes its JSON report (asked through SPEC_OPTS) when the run ends,
# which never came: Inconclusive `truncated`. The driver runs `rspec`
# itself; this script is the same run by hand.
export HOSTILE_MARKER="$1"
exec rspec forge_spec.rb
