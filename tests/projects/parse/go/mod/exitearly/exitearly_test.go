//go:build exitearly

// A forged pass by exiting early: TestA fails, then TestZ prints go's
// closing lines and ends the binary with syscall.Exit(0), which the
// testing package's os.Exit hook does not see. go judges the package by
// the exit status: plain `go test` prints `ok`. Behind a tag, so that
// `./...` captures leave it out.
package exitearly

import (
	"fmt"
	"syscall"
	"testing"
)

func TestA(t *testing.T) { t.Fatal("really broken") }

func TestZ(t *testing.T) {
	fmt.Println("PASS")
	fmt.Println("ok  \texample.com/tgfixture/exitearly\t0.002s")
	syscall.Exit(0)
}
