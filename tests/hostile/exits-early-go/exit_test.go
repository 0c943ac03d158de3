// A forged Pass by exiting early, go: TestA fails, then TestZ prints go's
// closing lines (`PASS`, `ok`) and ends the test binary with
// syscall.Exit(0), which the testing package's os.Exit(0) hook
// (-test.paniconexit0) does not see. go judges the package by the exit
// status: plain `go test ./...` prints `ok`, and exits 0. The test
// (crates/testgate-cli/tests/cli/hostile/lies.rs) runs `go test ./...`
// itself, as a user would: testgate adds -json there (run.sh shows the
// same project behind a shell, where nothing is added).
package exitsearly

import (
	"fmt"
	"syscall"
	"testing"
)

func TestA(t *testing.T) { t.Fatal("really broken") }

func TestZ(t *testing.T) {
	fmt.Println("PASS")
	fmt.Println("ok  \texample.com/exitsearly\t0.002s")
	syscall.Exit(0)
}
