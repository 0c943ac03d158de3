package newstd

import "testing"

func TestHas(t *testing.T) {
	if !Has([]int{1}, 1) {
		t.Fatal("has")
	}
}
