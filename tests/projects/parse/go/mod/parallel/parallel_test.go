package parallel

import (
	"testing"
	"time"
)

func TestSlowFails(t *testing.T) {
	t.Parallel()
	time.Sleep(30 * time.Millisecond)
	t.Error("slow one failed")
}

func TestFastFails(t *testing.T) {
	t.Parallel()
	t.Error("fast one failed")
}

func TestParallelPasses(t *testing.T) {
	t.Parallel()
	time.Sleep(10 * time.Millisecond)
}

func TestTable(t *testing.T) {
	for _, name := range []string{"a", "b", "c"} {
		name := name
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "b" {
				t.Errorf("case %s", name)
			}
		})
	}
}
