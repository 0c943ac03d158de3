package buildfail

import "testing"

func TestOne(t *testing.T) {
	if One() != undefinedThing {
		t.Fatal("no")
	}
}
