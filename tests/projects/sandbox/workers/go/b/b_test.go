package b

import "testing"

func TestInb(t *testing.T) {
	if 1+1 != 2 {
		t.Fatal("math")
	}
}
