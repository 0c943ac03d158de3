package calc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var mode = os.Getenv("TESTGATE_FIXTURE")

func oddRun(t *testing.T) bool {
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
	return n%2 == 1
}

func TestAdd(t *testing.T) {
	if Add(2, 2) != 4 {
		t.Fatal("2+2")
	}
}

func TestAddNegative(t *testing.T) {
	want := -1
	if mode == "fail" {
		want = 0
	}
	if got := Add(1, -2); got != want {
		t.Fatalf("Add(1, -2) = %d, want %d", got, want)
	}
}

func TestBig(t *testing.T) {
	t.Run("millions", func(t *testing.T) {
		want := 2000000
		if mode == "fail" {
			want = 1
		}
		if got := Add(1000000, 1000000); got != want {
			t.Fatalf("got %d, want %d", got, want)
		}
	})
}

func TestSometimes(t *testing.T) {
	if mode == "flaky" && oddRun(t) {
		t.Fatal("odd-numbered run")
	}
}

func TestHangs(t *testing.T) {
	if mode == "hang" {
		time.Sleep(time.Hour)
	}
}
