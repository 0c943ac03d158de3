// Package flaky has a test that fails on its first run in a process and
// passes after: with `go test -count=3` one process runs it three times,
// so it fails once and passes twice (flaky), beside a steady test.
package flaky

import "testing"

var runs int

func TestFailsOnce(t *testing.T) {
	runs++
	if runs == 1 {
		t.Fatal("the first run fails")
	}
}

func TestSteady(t *testing.T) {}
