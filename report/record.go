package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sycbuild/sycbuild/graph"
)

// record is what the page needs of one finished event.
type record struct {
	kind     graph.Kind
	action   int
	desc     string
	tool     string
	item     string
	argv     []string
	outputs  []string
	jobs     int
	slot     int
	start    time.Time
	end      time.Time
	busy     time.Duration // graph.Event.Busy
	outcome  graph.Outcome
	cache    string
	fallback string
	err      string
	usage    *graph.Usage
	target   string
	node     string // the machine it ran on; "" for this one
}

// jobKey names a fan-out job.
type jobKey struct {
	action int
	item   string
}

var kindNames = map[graph.Kind]string{
	graph.KindAction: "action", graph.KindFanout: "fan-out", graph.KindJob: "job", graph.KindCommand: "command",
}

func kindName(k graph.Kind) string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return "kind " + strconv.Itoa(int(k))
}

// outcomeName is o's String(), or "outcome N" for a value this package
// was built without a name for.
func outcomeName(o graph.Outcome) (s string) {
	defer func() {
		if recover() != nil {
			s = "outcome " + strconv.Itoa(int(o))
		}
	}()
	return o.String()
}

// ran says whether the event ran (it has a span).
func (e *record) ran() bool { return !e.start.IsZero() && !e.end.IsZero() }

func (e *record) wall() time.Duration {
	if !e.ran() {
		return 0
	}
	if e.busy > 0 {
		return e.busy // a batch's job: its own commands' time
	}
	return e.end.Sub(e.start)
}

func (e *record) cpu() time.Duration {
	if e.usage == nil {
		return 0
	}
	return e.usage.User + e.usage.System
}

func (e *record) maxRSS() int64 {
	if e.usage == nil {
		return 0
	}
	return e.usage.MaxRSS
}

// image is a job's module image: the last file its chain writes.
func (e *record) image() string {
	if len(e.outputs) == 0 {
		return ""
	}
	return e.outputs[len(e.outputs)-1]
}

// compareRecords orders events by start, parents before children, then by
// what they are. It compares every field the page shows, so that events it
// finds equal look the same, and the page does not depend on the order the
// events came in.
func compareRecords(a, b record) int {
	return cmp.Or(
		a.start.Compare(b.start),
		cmp.Compare(a.kind, b.kind),
		cmp.Compare(a.action, b.action),
		naturalCompare(a.item, b.item),
		strings.Compare(a.desc, b.desc),
		cmp.Compare(a.slot, b.slot),
		a.end.Compare(b.end),
		cmp.Compare(a.outcome, b.outcome),
		strings.Compare(a.cache, b.cache),
		strings.Compare(a.fallback, b.fallback),
		strings.Compare(a.err, b.err),
		slices.Compare(a.argv, b.argv),
		slices.Compare(a.outputs, b.outputs),
		strings.Compare(a.tool, b.tool),
		strings.Compare(a.target, b.target),
		strings.Compare(a.node, b.node),
		cmp.Compare(a.jobs, b.jobs),
		cmp.Compare(a.maxRSS(), b.maxRSS()),
		cmp.Compare(a.cpu(), b.cpu()),
	)
}

// counts counts events by outcome.
type counts map[graph.Outcome]int

func (c *counts) add(o graph.Outcome) { c.addN(o, 1) }

func (c *counts) addN(o graph.Outcome, n int) {
	if *c == nil {
		*c = counts{}
	}
	(*c)[o] += n
}

// silentOutcome is the outcome of a fan-out's jobs that have no event of
// their own: up to date with it, else not run (the build stopped).
func (e *record) silentOutcome() graph.Outcome {
	if e.outcome == graph.UpToDate {
		return graph.UpToDate
	}
	return graph.NotRun
}

// silentJobs returns, per fan-out, how many of its jobs have no event of
// their own: a fan-out up to date as a whole says only how many it has.
func silentJobs(events []record) map[int]int {
	reported := map[int]int{}
	for i := range events {
		if events[i].kind == graph.KindJob {
			reported[events[i].action]++
		}
	}
	silent := map[int]int{}
	for i := range events {
		e := &events[i]
		if e.kind == graph.KindFanout && e.jobs > reported[e.action] {
			silent[e.action] = e.jobs - reported[e.action]
		}
	}
	return silent
}

func (c counts) total() int {
	n := 0
	for _, k := range c {
		n += k
	}
	return n
}

// String is "3 ran · 1 up to date", the outcomes in their order.
func (c counts) String() string {
	var parts []string
	for _, o := range sortedKeys(c) {
		parts = append(parts, strconv.Itoa(c[o])+" "+outcomeName(o))
	}
	return strings.Join(parts, " · ")
}
