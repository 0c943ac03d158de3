package allpass

import "testing"

func TestOne(t *testing.T) {}

func TestSub(t *testing.T) {
	t.Run("a b", func(t *testing.T) {})
	t.Run("c", func(t *testing.T) {})
}
