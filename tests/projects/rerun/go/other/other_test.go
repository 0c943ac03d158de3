package other

import (
	"os"
	"testing"
)

func TestOther(t *testing.T) {
	if os.Getenv("TESTGATE_FIXTURE") == "fail" {
		t.Fatal("fails")
	}
}

func TestOtherPasses(t *testing.T) {}
