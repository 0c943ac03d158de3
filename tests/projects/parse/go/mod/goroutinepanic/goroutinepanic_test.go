// A panic in a goroutine a test started ends the whole test binary: go
// prints `panic:` and the goroutine's trace, then `FAIL pkg`, and no
// `--- FAIL:` line (go 1.19's test2json: no `fail` event with a Test).
package goroutinepanic

import (
	"sync"
	"testing"
)

func TestBeforeThePanic(t *testing.T) {}

// The goroutine panics before it is done, so the test is still waiting
// for it when the panic ends the binary (with `defer wg.Done()` the test
// could end, and go print its `--- PASS`, before the crash).
func TestPanicsInAGoroutine(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		var m map[string]int
		m["boom"] = 1
		wg.Done()
	}()
	wg.Wait()
}

func TestNeverRuns(t *testing.T) {}
