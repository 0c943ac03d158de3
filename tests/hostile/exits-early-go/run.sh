# The go forgery behind a shell: testgate recognises no `go test` argv
# here (it is `sh run.sh`), so it adds no -json and reads go's plain
# console, which says `ok`. The hostile test runs `go test ./...` directly
# (exit_test.go says what the attack does).
export HOSTILE_MARKER="$1"
exec go test ./...
