package liar

import (
	"fmt"
	"testing"
)

// TestPrintsFakeFailure passes, but prints lines that look like go's own.
func TestPrintsFakeFailure(t *testing.T) {
	fmt.Println("--- FAIL: TestFake (0.00s)")
	fmt.Println("    --- FAIL: TestFake/sub (0.00s)")
	fmt.Println("FAIL")
}

func TestAlsoPasses(t *testing.T) {}
