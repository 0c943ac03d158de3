package a

import "testing"

func TestIna(t *testing.T) {
	if 1+1 != 2 {
		t.Fatal("math")
	}
}
