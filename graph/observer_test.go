package graph

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

// recorder is an Observer that keeps every event.
type recorder struct {
	mu        sync.Mutex
	planned   int
	outOfDate map[string][]string
	started   []Event
	finished  []Event
	summaries []*Result
}

func (r *recorder) Planned(n int) { r.mu.Lock(); r.planned += n; r.mu.Unlock() }
func (r *recorder) OutOfDate(name string, reasons []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.outOfDate == nil {
		r.outOfDate = map[string][]string{}
	}
	r.outOfDate[name] = reasons
}
func (r *recorder) Started(e Event)   { r.mu.Lock(); r.started = append(r.started, e); r.mu.Unlock() }
func (r *recorder) Finished(e Event)  { r.mu.Lock(); r.finished = append(r.finished, e); r.mu.Unlock() }
func (r *recorder) Message(string)    {}
func (r *recorder) Summary(s *Result) { r.summaries = append(r.summaries, s) }

// count counts the finished events of a kind and outcome.
func (r *recorder) count(k Kind, o Outcome) int {
	n := 0
	for _, e := range r.finished {
		if e.Kind == k && e.Outcome == o {
			n++
		}
	}
	return n
}

// TestObserver follows a fan-out build through its events: every start is
// finished, commands and jobs carry their children's rusage, a rebuild is
// all up to date, and the summary is the build's result.
func TestObserver(t *testing.T) {
	tb, _ := fanoutBuild(t, "src/m0.txt", "src/m1.txt", "src/m2.txt")
	rec := &recorder{}
	opt := tb.opts()
	opt.Observer = Observers{opt.Observer, rec}
	res := tb.build(opt)

	if len(rec.summaries) != 1 || rec.summaries[0] != res {
		t.Errorf("summaries %v, want the result once", rec.summaries)
	}
	if rec.planned != 2+3 {
		t.Errorf("planned %d, want 2 actions + 3 jobs", rec.planned)
	}
	for _, name := range []string{"out/up.list", "out/mod_0.up", "all.txt"} {
		if why := rec.outOfDate[name]; len(why) != 1 || why[0] != "no record of an earlier build" {
			t.Errorf("out of date %s: %q", name, why)
		}
	}
	// One Finished per Started, with the same slot and start.
	key := func(e Event) string { return fmt.Sprint(e.Kind, e.Desc, e.Argv) }
	starts := map[string]Event{}
	for _, e := range rec.started {
		starts[key(e)] = e
	}
	if len(starts) != len(rec.started) || len(rec.finished) != len(rec.started) {
		t.Fatalf("%d started (%d names), %d finished", len(rec.started), len(starts), len(rec.finished))
	}
	for _, e := range rec.finished {
		s, ok := starts[key(e)]
		if !ok || s.Kind != e.Kind || s.Slot != e.Slot || !s.Start.Equal(e.Start) || e.End.Before(e.Start) {
			t.Errorf("finished %+v\nstarted %+v", e, s)
		}
		if e.Kind != KindFanout && (e.Slot < 0 || e.Slot >= 2) {
			t.Errorf("%s on slot %d of a pool of 2", e.Desc, e.Slot)
		}
	}
	if n := rec.count(KindCommand, Ran); n != 9 {
		t.Errorf("%d commands ran, want 9", n)
	}
	maxRSS := map[string]int64{}
	for _, e := range rec.finished {
		switch e.Kind {
		case KindCommand, KindAction:
			if u := e.Usage; u == nil || u.MaxRSS <= 0 || u.ExitCode != 0 || u.Wall <= 0 {
				t.Errorf("%s: usage %+v", e.Desc, u)
			}
			if e.Kind == KindCommand {
				maxRSS[e.Item] = max(maxRSS[e.Item], e.Usage.MaxRSS)
			}
		case KindFanout:
			if e.Jobs != 3 || e.Outcome != Ran || e.Usage != nil {
				t.Errorf("fan-out: %+v", e)
			}
		}
	}
	for _, e := range rec.finished {
		if e.Kind == KindJob && (e.Outcome != Ran || e.Usage == nil || e.Usage.MaxRSS != maxRSS[e.Item] || len(e.Outputs) != 2) {
			t.Errorf("job %s: %+v, usage %+v; its commands' largest maxrss %d", e.Item, e, e.Usage, maxRSS[e.Item])
		}
	}

	rec2 := &recorder{}
	opt = tb.opts()
	opt.Observer = rec2
	tb.build(opt)
	if len(rec2.started) != 0 || rec2.count(KindAction, UpToDate) != 1 || rec2.count(KindFanout, UpToDate) != 1 || len(rec2.finished) != 2 {
		t.Errorf("rebuild: started %v, finished %+v", rec2.started, rec2.finished)
	}
}

// TestObserverFailure: a failed command's event carries its exit status
// and the error; what depends on it is finished as not run.
func TestObserverFailure(t *testing.T) {
	tb := newTestBuild(t)
	tb.sh("fail", `echo oops >&2; exit 3`, nil, []string{"x"}, "x")
	tb.sh("after", `cp "$1" "$2"`, []string{"x"}, []string{"y"}, "x", "y")
	rec := &recorder{}
	opt := tb.opts()
	opt.Observer = rec
	if _, err := tb.g.Build(t.Context(), opt); !errors.Is(err, ErrFailed) {
		t.Fatalf("build: %v", err)
	}
	if len(rec.finished) != 2 {
		t.Fatalf("finished %+v", rec.finished)
	}
	for _, e := range rec.finished {
		switch e.Desc {
		case "fail":
			var ce *CommandError
			if e.Outcome != Failed || !errors.As(e.Err, &ce) || e.Usage == nil || e.Usage.ExitCode != 3 {
				t.Errorf("fail: %+v, usage %+v", e, e.Usage)
			}
		case "after":
			if e.Outcome != NotRun || !e.Start.IsZero() || e.Err != nil {
				t.Errorf("after: %+v", e)
			}
		}
	}
}
