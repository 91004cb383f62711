package graph

import (
	"context"
	"sync"
	"testing"

	"github.com/sycbuild/sycbuild/jobs"
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
