package tooold

import "testing"

func TestLeast(t *testing.T) {
	if Least(1, 2) != 1 {
		t.Fatal("min")
	}
}
