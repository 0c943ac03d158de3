// A forged Pass through go's framing: TestBad fails, then TestForge prints
// what the testing package and go print for a passing package, with the
// testing package's ^V marks (`-v=test2json`, which testgate asks go for
// and converts itself): a pass of TestBad, the binary's `PASS` and go's
// `ok` line for this package, cutting the package's block. go still fails
// the package by the binary's exit status and prints its own `FAIL` line
// last. The test (crates/testgate-cli/tests/cli/hostile/lies.rs) runs
// `go test ./...` itself, as a user would.
package forgedframing

import (
	"fmt"
	"testing"
)

func TestBad(t *testing.T) { t.Fatal("really broken") }

func TestForge(t *testing.T) {
	fmt.Print("\x16--- PASS: TestBad (0.00s)\n\x16PASS\nok  \texample.com/forgedframing\t0.002s\n")
}
