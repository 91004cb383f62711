package graph

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/jobs"
)

// TestCaptureReuse: units that run one after another on a job slot each
// see only their own output, and the slot's file is emptied once it holds
// captureLimit bytes.
func TestCaptureReuse(t *testing.T) {
	b := &builder{captures: map[int]*os.File{}}
	defer b.closeCaptures()
	c, err := b.capture(0)
	if err != nil {
		t.Fatal(err)
	}
	c.f.WriteString("one\n")
	if got := string(c.tail()); got != "one\n" {
		t.Errorf("first unit: %q", got)
	}
	c, err = b.capture(0)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.tail(); len(got) != 0 {
		t.Errorf("second unit before it printed: %q", got)
	}
	long := bytes.Repeat([]byte("0123456789abcde\n"), captureLimit/16+1)
	c.f.Write(long)
	if got := c.tail(); len(got) > tailBytes || !bytes.HasSuffix(long, got) || !bytes.HasPrefix(got, []byte("0123")) {
		t.Errorf("second unit: a tail of %d bytes, not the last whole lines of what it printed", len(got))
	}
	c, err = b.capture(0)
	if err != nil {
		t.Fatal(err)
	}
	if c.start != 0 {
		t.Errorf("after %d bytes the capture goes on at %d, want an emptied file", len(long)+4, c.start)
	}
	if fi, err := c.f.Stat(); err != nil || fi.Size() != 0 {
		t.Errorf("the emptied capture file: %v, %v", fi.Size(), err)
	}
}

// TestCaptureOneSlot: on one job slot, a unit's printed output and a
// failure's report hold only what that unit's commands printed.
func TestCaptureOneSlot(t *testing.T) {
	tb := newTestBuild(t)
	tb.sh("first", `echo first-said; echo x > "$1"`, nil, []string{"a.txt"}, "a.txt")
	tb.sh("second", `echo second-said; cat "$1" > "$2"`, []string{"a.txt"}, []string{"b.txt"}, "a.txt", "b.txt")
	tb.sh("third", `echo third-said; exit 3`, []string{"b.txt"}, []string{"c.txt"}, "c.txt")
	opt := tb.opts()
	opt.Pool = jobs.NewPool(1)
	if _, err := tb.g.Build(context.Background(), opt); err == nil {
		t.Fatal("the third action did not fail")
	}
	log := tb.log.String()
	printed := map[string]int{} // output lines, as printed or quoted in a report
	for _, l := range strings.Split(log, "\n") {
		printed[strings.TrimPrefix(strings.TrimSpace(l), "| ")]++
	}
	for _, said := range []string{"first-said", "second-said", "third-said"} {
		if printed[said] != 1 {
			t.Errorf("%q printed %d times:\n%s", said, printed[said], log)
		}
	}
	if i, j := strings.Index(log, "FAILED"), strings.Index(log, "second-said"); i < 0 || j > i {
		t.Errorf("the failure's report is not after the earlier units' output:\n%s", log)
	}
}
