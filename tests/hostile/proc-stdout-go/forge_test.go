package procstdout

// A failing test reaches past go's capture (issue 35): go's stdout is
// testgate's pipe and carries go's report (`go test -json`'s events), and
// the test binary, go's child, opens it through /proc/PPID/fd/1 and writes
// events of its own there: its own pass and its package's, which go never
// gave. docs/sandbox.md, "What it does not promise", says why the open is
// not refused; the verdict must stay Fail naming TestBad (go's own events
// and its exit status say so).

import (
	"fmt"
	"os"
	"testing"
)

func TestGood(t *testing.T) {}

func TestBad(t *testing.T) {
	reach := "refused"
	f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/1", os.Getppid()), os.O_WRONLY, 0)
	if err == nil {
		reach = "reached"
		fmt.Fprintln(f, `{"Action":"pass","Package":"example.com/procstdout","Test":"TestBad","Elapsed":0}`)
		fmt.Fprintln(f, `{"Action":"output","Package":"example.com/procstdout","Output":"ok  \texample.com/procstdout\t0.001s\n"}`)
		fmt.Fprintln(f, `{"Action":"pass","Package":"example.com/procstdout","Elapsed":0}`)
		f.Close()
	}
	t.Fatalf("broken (go's stdout through /proc: %s, %v)", reach, err)
}
