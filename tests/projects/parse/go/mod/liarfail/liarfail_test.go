//go:build liarfail

// Only built with -tags liarfail: `go test ./...` without -v cannot tell its
// forged failure from a real one (docs/formats.md).
package liarfail

import (
	"fmt"
	"testing"
)

// TestPrintsFakeFailure passes, but prints a failure line for a test that
// never ran, in a package that fails for real: only go's `=== RUN` tells
// the forged name from the real one.
func TestPrintsFakeFailure(t *testing.T) {
	fmt.Println("--- FAIL: TestNeverRan (0.00s)")
	fmt.Println("    --- FAIL: TestNeverRan/sub (0.00s)")
}

func TestReallyFails(t *testing.T) {
	t.Fatal("a real failure")
}
