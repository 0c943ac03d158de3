# A test that fails once and passes on nextest's retry, in a console mode
# that shows no try (issue 28). The CLI test runs the real command line
# (`cargo nextest run --offline --retries 2 --status-level none
# --final-status-level none`), so testgate asks nextest for its report; this
# script runs the same by hand.
export HOSTILE_MARKER="$1"
exec cargo nextest run --offline --retries 2 --status-level none --final-status-level none
