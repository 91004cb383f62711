package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/jobs/jobstest"
)

// nodeFails is a runner's Before whose runs numbered in fail fail with
// their node (node<n>), and whose other runs succeed on node<n>.
func nodeFails(fail ...int) func(int, jobs.Request) (jobs.Where, error) {
	return func(run int, _ jobs.Request) (jobs.Where, error) {
		w := jobs.Where{Node: fmt.Sprintf("node%d", run)}
		if slices.Contains(fail, run) {
			return w, fmt.Errorf("step %d.0: %w", run, jobs.ErrNodeFailed)
		}
		return w, nil
	}
}

// TestNodeFailedRunsAgain: a command whose node failed under it runs once
// more, told to keep off that node, and the build goes on as if nothing
// happened (but for a note).
func TestNodeFailedRunsAgain(t *testing.T) {
	tb, r := fakeChain(t)
	r.Before = nodeFails(0)
	opt := tb.opts()
	opt.Pool = jobs.NewPool(1)
	res := tb.build(opt)
	if res.Ran != 3 || res.Failed != 0 {
		t.Fatalf("ran %d, failed %d\n%s", res.Ran, res.Failed, tb.log.String())
	}
	runs := r.Runs()
	if len(runs) != 4 {
		t.Fatalf("%d runs, want 4 (one again)", len(runs))
	}
	if !slices.Equal(runs[1].Argvs[0], runs[0].Argvs[0]) || !slices.Equal(runs[1].Request.Exclude, []string{"node0"}) {
		t.Errorf("the second run is %q excluding %q; want the first's command, excluding node0", runs[1].Argvs, runs[1].Request.Exclude)
	}
	if got := tb.read("out/AB.txt"); got != "ALPHA\nb" {
		t.Errorf("out/AB.txt = %q", got)
	}
	if !strings.Contains(tb.log.String(), "its node node0 failed under it; it runs again on another") {
		t.Errorf("no note of the failed node:\n%s", tb.log.String())
	}
	if res := tb.build(tb.opts()); res.UpToDate != 3 {
		t.Errorf("rebuild: %d up to date, want 3", res.UpToDate)
	}
}

// TestNodeFailedTwice: a job whose node fails under the same command twice
// fails with that said; its fan-out's fallback does not save it, its
// module is not isolated, and nothing is recorded: the next build runs it
// again.
func TestNodeFailedTwice(t *testing.T) {
	tb, r := fakeFanout(t, "src/m0.txt")
	f := tb.g.actions[0].Fanout
	f.Fallback = &Fallback{Step: 1, From: 0}
	isolated := false
	f.Isolate = func(dir, item, outDir string) ([]Part, error) { isolated = true; return nil, nil }
	r.Before = nodeFails(1, 2) // the second step, and again
	opt := tb.opts()
	opt.Pool = jobs.NewPool(1)
	res, err := tb.g.Build(context.Background(), opt)
	if !errors.Is(err, ErrFailed) || res.JobsFailed != 1 || len(res.Fallbacks) != 0 || isolated {
		t.Fatalf("err %v, %d jobs failed, fallbacks %q, isolated %v; want the job failed alone\n%s", err, res.JobsFailed, res.Fallbacks, isolated, tb.log.String())
	}
	if want := "its node failed under it twice (node1, then node2); the command is not at fault"; !strings.Contains(tb.log.String(), want) {
		t.Errorf("the failure does not say %q:\n%s", want, tb.log.String())
	}
	if runs := r.Runs(); len(runs) != 3 || !slices.Equal(runs[2].Request.Exclude, []string{"node1"}) {
		t.Errorf("runs %+v, want the second step twice, the second time excluding node1", runs)
	}
	if tb.exists("out/mod_0.both") {
		t.Errorf("the failed step's output is left")
	}
	r.Before = nil
	if res := tb.build(tb.opts()); res.JobsRan != 1 {
		t.Errorf("the next build ran %d jobs, want the failed one", res.JobsRan)
	}
}

// TestMemoryKilled: a command its runner killed for its memory fails
// naming the memory it was given; and the runner is told a unit's
// predicted peak without a memory budget: its tool's guess, then what it
// used when it last ran.
func TestMemoryKilled(t *testing.T) {
	tb, r := fakeChain(t)
	upperTool := tb.g.actions[0].Tool
	*upperTool = Tool{Name: "upper", Path: "upper", Version: "fake", Memory: 3 << 30}
	r.Before = func(run int, req jobs.Request) (jobs.Where, error) {
		if req.Memory == 3<<30 {
			return jobs.Where{Node: "n1"}, fmt.Errorf("oom-kill: %w", jobs.ErrMemoryKilled)
		}
		return jobs.Where{}, nil
	}
	opt := tb.opts()
	opt.KeepGoing = true
	_, err := tb.g.Build(context.Background(), opt)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("the build did not fail: %v", err)
	}
	if want := "killed for using more than the 3.0 GiB of memory it was given"; !strings.Contains(tb.log.String(), want) {
		t.Errorf("the failure does not say %q:\n%s", want, tb.log.String())
	}
	for _, run := range r.Runs() {
		if run.Argvs[0][0] == "first" && run.Request.Memory != 0 {
			t.Errorf("a tool with no guess and no history was given %d bytes", run.Request.Memory)
		}
	}

	// What it used when it ran is its prediction next time.
	r.Before = nil
	r.Do = func(ctx context.Context, c *jobstest.Call) error {
		c.MaxRSS = 100 << 20
		return jobstest.Files(ctx, c)
	}
	tb.write("b.txt", "bravo\n")
	tb.build(tb.opts())
	tb.write("b.txt", "brave\n")
	tb.build(tb.opts())
	runs := r.Runs()
	if last := runs[len(runs)-1]; last.Argvs[0][0] != "first" || last.Request.Memory != 100<<20 {
		t.Errorf("the last run %q was given %d bytes, want first's recorded 100 MiB", last.Argvs, last.Request.Memory)
	}
}
