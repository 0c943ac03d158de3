# The go framing forgery behind a shell: nothing is added to `sh run.sh`,
# and go's plain console judges. The hostile test runs `go test ./...`
# directly (forge_test.go says what the attack does).
export HOSTILE_MARKER="$1"
exec go test ./...
