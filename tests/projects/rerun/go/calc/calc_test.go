package calc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var mode = os.Getenv("TESTGATE_FIXTURE")

var polluted bool

func firstRun(t *testing.T) bool {
	path := filepath.Join("..", ".flaky-count")
	n := 0
	if b, err := os.ReadFile(path); err == nil {
		n, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	n++
	if err := os.WriteFile(path, []byte(strconv.Itoa(n)), 0o644); err != nil {
		t.Fatal(err)
	}
	// testgate puts the tree back between attempts and numbers them: the
	// runs of earlier attempts (one each) come before this attempt's.
	if a, err := strconv.Atoi(os.Getenv("TESTGATE_ATTEMPT")); err == nil {
		n += a - 1
	}
	return n == 1
}

func TestMany(t *testing.T) {
	for i := 0; i < 20; i++ {
		t.Run(strconv.Itoa(i), func(t *testing.T) {})
	}
}

func TestNamed(t *testing.T) {
	for _, name := range []string{"with space (and) [brackets] + ünï", "a.b*c|d^$", "plain"} {
		name := name
		t.Run(name, func(t *testing.T) {
			if mode == "fail" && name != "plain" {
				t.Fatal(name)
			}
		})
	}
}

func TestAPollutes(t *testing.T) { polluted = true }

func TestBVictim(t *testing.T) {
	if mode == "order" && polluted {
		t.Fatal("polluted by TestAPollutes")
	}
}

func TestSometimes(t *testing.T) {
	if mode == "flaky" && firstRun(t) {
		t.Fatal("first run")
	}
}
