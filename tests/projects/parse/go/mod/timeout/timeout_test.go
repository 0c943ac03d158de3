//go:build timeout

// Only built with -tags timeout, so that `go test ./...` does not wait.
package timeout

import (
	"testing"
	"time"
)

func TestQuick(t *testing.T) {}

func TestHangs(t *testing.T) {
	time.Sleep(10 * time.Second)
}
