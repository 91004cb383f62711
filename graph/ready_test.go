package graph

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/jobs/jobstest"
)

// recordedWalls is a fake Do whose commands report, as their time, the
// wall of the first of their arguments that walls names (no sleeping).
func recordedWalls(walls map[string]time.Duration) func(context.Context, *jobstest.Call) error {
	return func(ctx context.Context, c *jobstest.Call) error {
		for _, a := range c.Argv[1:] {
			if w, ok := walls[a]; ok {
				c.Wall = w
				break
			}
		}
		return jobstest.Files(ctx, c)
	}
}

// TestLongestFirstJobs: a fan-out's jobs start new ones first, then the
// longest recorded first, on one token.
func TestLongestFirstJobs(t *testing.T) {
	items := []string{"src/m0.txt", "src/m1.txt", "src/m2.txt", "src/m3.txt"}
	tb, r := fakeFanout(t, items...)
	r.Do = recordedWalls(map[string]time.Duration{
		"src/m0.txt": 10 * time.Millisecond, "src/m1.txt": 40 * time.Millisecond,
		"src/m2.txt": 20 * time.Millisecond, "src/m3.txt": 30 * time.Millisecond,
	})
	opt := tb.opts()
	opt.Pool = jobs.NewPool(1)
	tb.build(opt)
	if got := firstArgs(r.Runs(), "upper"); !slices.Equal(got, items) {
		t.Fatalf("first build (nothing recorded): jobs started %q, want list order", got)
	}
	// Every item changes, and a new one comes last.
	for _, it := range items {
		tb.write(it, "changed "+it+"\n")
	}
	tb.write("src/m4.txt", "new\n")
	tb.write("mods.list", strings.Join(append(items, "src/m4.txt"), "\n")+"\n")
	before := len(r.Runs())
	opt = tb.opts()
	opt.Pool = jobs.NewPool(1)
	if res := tb.build(opt); res.JobsRan != 5 {
		t.Fatalf("ran %d jobs, want 5\n%s", res.JobsRan, tb.log.String())
	}
	want := []string{"src/m4.txt", "src/m1.txt", "src/m3.txt", "src/m2.txt", "src/m0.txt"}
	if got := firstArgs(r.Runs()[before:], "upper"); !slices.Equal(got, want) {
		t.Errorf("jobs started %q, want %q (the new one, then the longest first)", got, want)
	}
	f := tb.g.actions[0].Fanout
	for i, it := range items {
		if f.jobName(i, it) != f.job(i, it).name() {
			t.Errorf("jobName(%d) = %q, the job's name is %q", i, f.jobName(i, it), f.job(i, it).name())
		}
	}
}

// firstArgs returns the first argument of each run of op, in order.
func firstArgs(runs []jobstest.Run, op string) []string {
	var out []string
	for _, r := range runs {
		if r.Argvs[0][0] == op {
			out = append(out, r.Argvs[0][1])
		}
	}
	return out
}

// TestLongestFirstActions: actions that wait for the one token together
// get it new ones first, then the longest recorded first, whatever order
// they became ready in.
func TestLongestFirstActions(t *testing.T) {
	tb := newTestBuild(t)
	r := &jobstest.Runner{}
	tb.runner = r
	walls := map[string]time.Duration{}
	for i, ms := range []int{10, 50, 20, 40, 30} {
		in := fmt.Sprintf("in%d.txt", i)
		tb.write(in, "x")
		walls[in] = time.Duration(ms) * time.Millisecond
		tb.fake("copy "+in, catTool, []string{in}, fmt.Sprintf("out%d.txt", i))
	}
	r.Do = recordedWalls(walls)
	tb.build(tb.opts())

	for i := range 5 {
		tb.write(fmt.Sprintf("in%d.txt", i), "y")
	}
	tb.write("in5.txt", "new")
	tb.fake("copy in5.txt", catTool, []string{"in5.txt"}, "out5.txt")
	// The first command to start holds the token until the 5 other
	// actions wait for it.
	queued := make(chan struct{})
	opt := tb.opts()
	opt.Pool = jobs.NewPool(1)
	opt.queued = func(n int) {
		if n == 5 {
			close(queued)
		}
	}
	before := len(r.Runs())
	r.Before = func(run int, _ jobs.Request) (jobs.Where, error) {
		if run == before {
			select {
			case <-queued:
			case <-time.After(time.Minute): // only a guard against hanging
				t.Error("the other actions never all waited for the token")
			}
		}
		return jobs.Where{}, nil
	}
	tb.build(opt)
	got := firstArgs(r.Runs()[before:], "cat")
	want := slices.DeleteFunc([]string{"in5.txt", "in1.txt", "in3.txt", "in4.txt", "in2.txt", "in0.txt"},
		func(s string) bool { return s == got[0] })
	if !slices.Equal(got[1:], want) {
		t.Errorf("after %s, actions started %q, want %q (the new one, then the longest first)", got[0], got[1:], want)
	}
}
