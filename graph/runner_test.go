package graph

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/jobs/jobstest"
)

// recordingRunner runs work here and remembers the programs it was given.
type recordingRunner struct {
	mu    sync.Mutex
	progs []string
}

func (r *recordingRunner) Run(ctx context.Context, cmds []*jobs.Command, req jobs.Request) ([]*jobs.Usage, []error, jobs.Where) {
	r.mu.Lock()
	for _, c := range cmds {
		r.progs = append(r.progs, c.Argv[0])
	}
	r.mu.Unlock()
	return jobs.Local{}.Run(ctx, cmds, req)
}

// TestRunnerRunsEveryCommand: every external command of a build goes
// through Options.Runner.
func TestRunnerRunsEveryCommand(t *testing.T) {
	tb := chain(t)
	r := &recordingRunner{}
	opt := tb.opts()
	opt.Runner = r
	if res := tb.build(opt); res.Ran != 3 {
		t.Fatalf("ran %d actions, want 3", res.Ran)
	}
	if len(r.progs) != 3 {
		t.Fatalf("the runner ran %q, want the 3 commands", r.progs)
	}
	if got := tb.read("out/AB.txt"); got != "ALPHA\nb" {
		t.Fatalf("out/AB.txt = %q", got)
	}
}

// The fake tools run by jobstest.Files: each one's path is its operation.
var (
	catTool   = &Tool{Name: "cat", Path: "cat", Version: "fake"}
	upperTool = &Tool{Name: "upper", Path: "upper", Version: "fake"}
	firstTool = &Tool{Name: "first", Path: "first", Version: "fake"}
)

// fake adds an action that runs tool's operation (see jobstest.Files) over
// the inputs into the one output; the build's runner must be a fake.
func (tb *testBuild) fake(desc string, tool *Tool, in []string, out string) *Action {
	tb.t.Helper()
	a := &Action{Desc: desc, Tool: tool, Argv: append(append([]string{tool.Path}, in...), out)}
	for _, p := range in {
		a.In = append(a.In, tb.g.File(p, Plain))
	}
	a.Out = []*Node{tb.g.File(out, Plain)}
	if err := tb.g.Add(a); err != nil {
		tb.t.Fatal(err)
	}
	return a
}

// fakeChain is chain's graph with fake tools, built by a fake runner.
func fakeChain(t *testing.T) (*testBuild, *jobstest.Runner) {
	tb := newTestBuild(t)
	r := &jobstest.Runner{}
	tb.runner = r
	tb.write("a.txt", "alpha\n")
	tb.write("b.txt", "beta\n")
	tb.fake("upper a", upperTool, []string{"a.txt"}, "out/A.txt")
	tb.fake("first b", firstTool, []string{"b.txt"}, "out/B.txt")
	tb.fake("join", catTool, []string{"out/A.txt", "out/B.txt"}, "out/AB.txt")
	return tb, r
}

// fakeFanout: mods.list names source files; per item, upper-case it into
// out/mod_<i>.up, then join that with the item into out/mod_<i>.both.
func fakeFanout(t *testing.T, items ...string) (*testBuild, *jobstest.Runner) {
	tb := listBuild(t, items...)
	r := &jobstest.Runner{}
	tb.runner = r
	f := &Fanout{
		List: tb.g.File("mods.list", List),
		Dir:  "out",
		Steps: []*Step{
			{Tool: upperTool, Args: []string{"mod.src", "mod.up"},
				In: []StepInput{{"mod.src", -1}}, Out: &StepOutput{"mod.up", "up", tb.g.File("out/up.list", List)}},
			{Tool: catTool, Args: []string{"mod.up", "mod.src", "mod.both"},
				In: []StepInput{{"mod.up", 0}, {"mod.src", -1}}, Out: &StepOutput{"mod.both", "both", tb.g.File("out/both.list", List)}},
		},
	}
	if err := tb.g.Add(&Action{Desc: "[t] both", Fanout: f, In: []*Node{f.List}, Out: []*Node{f.Steps[0].Out.List, f.Steps[1].Out.List}}); err != nil {
		t.Fatal(err)
	}
	return tb, r
}

// TestFakeFanout: a fan-out's jobs run through the fake runner, spawning
// nothing, and a rebuild runs only the job whose item changed.
func TestFakeFanout(t *testing.T) {
	tb, r := fakeFanout(t, "src/m0.txt", "src/m1.txt")
	if res := tb.build(tb.opts()); res.Ran != 1 || res.JobsRan != 2 {
		t.Fatalf("ran %d actions, %d jobs\n%s", res.Ran, res.JobsRan, tb.log.String())
	}
	if got := tb.read("out/mod_1.both"); got != "CONTENT OF SRC/M1.TXT\ncontent of src/m1.txt\n" {
		t.Errorf("mod_1.both = %q", got)
	}
	if got := tb.read("out/both.list"); got != "out/mod_0.both\nout/mod_1.both\n" {
		t.Errorf("both.list = %q", got)
	}
	if n := len(r.Runs()); n != 4 {
		t.Errorf("the runner ran %d commands, want 4", n)
	}
	tb.write("src/m1.txt", "changed\n")
	if res := tb.build(tb.opts()); res.JobsRan != 1 || res.JobsCached != 1 {
		t.Errorf("rebuild: %d jobs ran, %d up to date; want 1 and 1\n%s", res.JobsRan, res.JobsCached, tb.log.String())
	}
}

// TestWhere: where the runner ran each action, job and command reaches
// the observer and the trace; a local build's events name no node.
func TestWhere(t *testing.T) {
	tb, r := fakeFanout(t, "src/m0.txt", "src/m1.txt")
	tb.fake("copy", catTool, []string{"src/m0.txt"}, "copy.txt")
	r.Before = func(run int, _ jobs.Request) (jobs.Where, error) {
		return jobs.Where{Node: "node7", ID: "12.3"}, nil
	}
	rec := &recorder{}
	trace := NewTrace()
	opt := tb.opts()
	opt.Observer = Observers{opt.Observer, rec, trace}
	tb.build(opt)
	kinds := map[Kind]int{}
	for _, e := range rec.finished {
		if e.Kind == KindFanout {
			continue
		}
		kinds[e.Kind]++
		if e.Where.Node != "node7" || e.Where.ID != "12.3" {
			t.Errorf("%s (kind %d): where %+v, want node7's step 12.3", e.Desc, e.Kind, e.Where)
		}
	}
	if kinds[KindAction] != 1 || kinds[KindJob] != 2 || kinds[KindCommand] != 4 {
		t.Errorf("events by kind %v, want 1 action, 2 jobs, 4 commands", kinds)
	}
	var js bytes.Buffer
	trace.WriteTo(&js)
	if n := strings.Count(js.String(), `"node": "node7"`); n != 7 {
		t.Errorf("the trace names the node %d times, want 7:\n%s", n, js.String())
	}

	rec = &recorder{}
	tb2, _ := fakeChain(t)
	opt = tb2.opts()
	opt.Observer = Observers{opt.Observer, rec}
	tb2.build(opt)
	for _, e := range rec.finished {
		if e.Where != (Where{}) {
			t.Errorf("%s: where %+v from a runner that names none", e.Desc, e.Where)
		}
	}
}

// TestOutputDirMadeBeforeAnyWrite: actions that start together and write
// into one new directory each find it made; the first to prepare it must
// not let the others write before it exists.
func TestOutputDirMadeBeforeAnyWrite(t *testing.T) {
	for round := 0; round < 50; round++ {
		tb := newTestBuild(t)
		tb.runner = &jobstest.Runner{}
		for i := 0; i < 8; i++ {
			in := fmt.Sprintf("in%d.txt", i)
			tb.write(in, "x")
			tb.fake(fmt.Sprintf("upper %d", i), upperTool, []string{in}, fmt.Sprintf("out/sub/%d.txt", i))
		}
		opt := tb.opts()
		opt.Pool = jobs.NewPool(8)
		if res := tb.build(opt); res.Ran != 8 {
			t.Fatalf("round %d: ran %d of 8\n%s", round, res.Ran, tb.log.String())
		}
	}
}
