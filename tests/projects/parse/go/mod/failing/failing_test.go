package failing

import "testing"

func TestAddPositive(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("1+2")
	}
}

func TestAddNegative(t *testing.T) {
	if got := Add(-1, -2); got != -3 {
		t.Errorf("Add(-1, -2) = %d, want -3", got)
	}
}

// Subtests with names go rewrites: spaces become underscores.
func TestParse(t *testing.T) {
	t.Run("empty input", func(t *testing.T) { t.Error("empty input rejected") })
	t.Run("ünïcode ✓", func(t *testing.T) { t.Error("unicode") })
	t.Run("x=1,y=[2] - z", func(t *testing.T) { t.Error("punctuation") })
	t.Run("passes", func(t *testing.T) {})
	t.Run("nested", func(t *testing.T) {
		t.Run("deeper", func(t *testing.T) { t.Error("deep") })
		t.Run("fine", func(t *testing.T) {})
	})
}

func TestSkipped(t *testing.T) {
	t.Skip("not today")
}
