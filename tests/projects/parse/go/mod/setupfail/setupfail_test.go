package setupfail

import (
	"testing"

	// A package that no module provides: go reports [setup failed].
	_ "example.com/tgfixture/doesnotexist"
)

func TestNeverBuilt(t *testing.T) {}
