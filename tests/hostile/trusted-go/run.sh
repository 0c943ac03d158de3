# A hook forgery, go (issue 40): `main_test.go` holds a TestMain that
# rewrites its own standard output and exits 0. The driver commits go.mod,
# calc.go and calc_test.go (the trusted revision), then adds
# main_test.go.forged as main_test.go (the submission), and runs go itself
# (`go test ./...`): PASS as submitted; with `--trusted HEAD` the view has
# no main_test.go and the bug is a Fail. This script is the same run by
# hand.
export HOSTILE_MARKER="$1"
exec go test ./...
