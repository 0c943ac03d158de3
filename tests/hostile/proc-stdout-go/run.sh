# The go suite is run by go itself (`go test ./...`, to which testgate adds
# -json): forge_test.go says what the attack does.
export HOSTILE_MARKER="$1"
exec go test ./...
