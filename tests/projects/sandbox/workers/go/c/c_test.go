package c

import "testing"

func TestInc(t *testing.T) {
	if 1+1 != 2 {
		t.Fatal("math")
	}
}
