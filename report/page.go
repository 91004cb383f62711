package report

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sycbuild/sycbuild/graph"
)

// page is what the template renders: every value already formatted, and
// every list in its final order.
type page struct {
	Title     string
	Started   string
	Cards     []card
	Timeline  *timeline
	Failures  rows[failure]
	Fallbacks rows[fallback]
	Messages  []message
	Outcomes  outcomeTable
	Targets   []targetRow
	Modules   rows[moduleRow]
	Slowest   []commandRow
	// Nodes says that some work ran on another machine: the module and
	// command tables then name each one's node.
	Nodes   bool
	Memory  rows[memoryRow]
	Reasons rows[reasonRow]
	Config  []Setting
	Tools   []Setting
}

// card is one number of the page's head.
type card struct {
	Label, Value, Note string
	Bad, Warn          bool
}

// rows are the first rows of a table, and how many more were left out.
type rows[T any] struct {
	List []T
	More int
}

func firstRows[T any](list []T, n int) rows[T] {
	if len(list) > n {
		return rows[T]{List: list[:n], More: len(list) - n}
	}
	return rows[T]{List: list}
}

// message is a message of the build; a warning or an error stands out.
type message struct {
	Text  string
	Class string // "warning", "error" or ""
}

func classify(texts []string) []message {
	list := make([]message, len(texts))
	for i, text := range texts {
		list[i].Text = text
		switch {
		case strings.Contains(text, "error:"):
			list[i].Class = "error"
		case strings.Contains(text, "warning:"):
			list[i].Class = "warning"
		}
	}
	return list
}

// page builds the page from what the report was told. The events are
// sorted in place; the report is locked meanwhile.
func (r *Report) page() *page {
	r.mu.Lock()
	defer r.mu.Unlock()
	events, messages, res := r.events, r.messages, r.result
	reasons := make([]reasonRow, 0, len(r.reasons))
	for why, n := range r.reasons {
		reasons = append(reasons, reasonRow{why, n})
	}
	slices.SortFunc(events, compareRecords)
	slices.SortFunc(reasons, func(a, b reasonRow) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Reason, b.Reason))
	})
	sizes := r.sizes(events)
	p := &page{
		Title:    r.opt.Title,
		Messages: classify(messages),
		Timeline: layoutTimeline(events, r.opt.Budget),
		Outcomes: outcomes(events),
		Targets:  targets(events, sizes, r.splitTables(events)),
		Slowest:  slowest(events, r.opt.Slowest),
		Modules:  firstRows(modules(events, sizes, r.kernels(events)), r.opt.Rows),
		Memory:   firstRows(memory(events), r.opt.Rows),
		Reasons:  firstRows(reasons, r.opt.Rows),
		Config:   r.opt.Config,
		Tools:    r.opt.Tools,
		Nodes:    slices.ContainsFunc(events, func(e record) bool { return e.node != "" }),
	}
	if t0 := origin(events); !t0.IsZero() {
		p.Started = t0.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	failed, fellBack := failures(events)
	p.Failures = firstRows(failed, r.opt.Rows)
	p.Fallbacks = firstRows(fellBack, r.opt.Rows)
	p.Cards = cards(events, res, len(failed), len(fellBack))
	return p
}

// sizes stats the images of the jobs that made one (ran, were up to
// date, were restored).
func (r *Report) sizes(events []record) map[string]int64 {
	sizes := map[string]int64{}
	for i := range events {
		e := &events[i]
		if e.kind != graph.KindJob || e.outcome == graph.Failed || e.outcome == graph.NotRun {
			continue // no image
		}
		name := e.image()
		if name == "" {
			continue
		}
		if _, ok := sizes[name]; ok {
			continue
		}
		path := name
		if !filepath.IsAbs(path) && r.opt.Dir != "" {
			path = filepath.Join(r.opt.Dir, path)
		}
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
			sizes[name] = fi.Size()
		} else {
			sizes[name] = -1
		}
	}
	return sizes
}

// origin is the earliest start of the events, or the zero time.
func origin(events []record) time.Time {
	for i := range events {
		if !events[i].start.IsZero() {
			return events[i].start // events are sorted by start
		}
	}
	return time.Time{}
}

// cards are the page's head: the build's result at a glance.
func cards(events []record, res *graph.Result, failed, fellBack int) []card {
	if res == nil {
		res = resultOf(events)
	}
	var peak int64
	var cpu time.Duration
	var actions, jobs counts
	answers := map[string]int{}
	slots := map[int]bool{}
	silent := silentJobs(events)
	for i := range events {
		e := &events[i]
		switch e.kind {
		case graph.KindAction, graph.KindFanout:
			actions.add(e.outcome)
			if n := silent[e.action]; n > 0 && e.kind == graph.KindFanout {
				jobs.addN(e.silentOutcome(), n)
			}
		case graph.KindJob:
			jobs.add(e.outcome)
		}
		if e.kind == graph.KindAction || e.kind == graph.KindJob {
			peak = max(peak, e.maxRSS())
			cpu += e.cpu()
		}
		if e.cache != "" {
			answers[e.cache]++
		}
		if e.ran() && e.slot >= 0 {
			slots[e.slot] = true
		}
	}
	status := card{Label: "result", Value: "succeeded"}
	switch {
	case res.Failed > 0 || res.JobsFailed > 0:
		status = card{Label: "result", Value: "failed", Bad: true,
			Note: plural(res.Failed, "action") + ", " + plural(res.JobsFailed, "module job") + " failed"}
	case res.NotRun > 0:
		status = card{Label: "result", Value: "incomplete", Bad: true, Note: plural(res.NotRun, "action") + " not run"}
	}
	wall := card{Label: "wall time", Value: formatDuration(res.Elapsed), Note: "on " + plural(len(slots), "job slot")}
	if len(slots) == 0 {
		wall.Note = "nothing ran"
	}
	list := []card{
		status,
		wall,
		{Label: "actions", Value: strconv.Itoa(actions.total()), Note: actions.String()},
		{Label: "module jobs", Value: strconv.Itoa(jobs.total()), Note: jobs.String()},
	}
	if len(answers) > 0 {
		hits := 0
		var note []string
		for _, a := range sortedKeys(answers) {
			if strings.HasSuffix(a, "hit") {
				hits += answers[a]
			}
			note = append(note, strconv.Itoa(answers[a])+" "+a)
		}
		list = append(list, card{Label: "shared cache", Value: plural(hits, "hit"), Note: strings.Join(note, " · ")})
	}
	list = append(list,
		card{Label: "peak memory", Value: used(formatBytes(peak), peak > 0), Note: "largest job"},
		card{Label: "CPU time", Value: used(formatDuration(cpu), peak > 0), Note: "child processes"},
		card{Label: "failures", Value: strconv.Itoa(failed), Bad: failed > 0},
	)
	if fellBack > 0 {
		list = append(list, card{Label: "fallbacks", Value: strconv.Itoa(fellBack), Warn: true, Note: "an earlier output stands in"})
	}
	return list
}

// resultOf counts a build's result from its events, for a report that
// was not told the summary (an interrupted build).
func resultOf(events []record) *graph.Result {
	res := &graph.Result{}
	var first, last time.Time
	for i := range events {
		e := &events[i]
		if e.ran() {
			if first.IsZero() || e.start.Before(first) {
				first = e.start
			}
			if e.end.After(last) {
				last = e.end
			}
		}
		switch e.kind {
		case graph.KindAction, graph.KindFanout:
			res.Actions++
			switch e.outcome {
			case graph.Ran:
				res.Ran++
			case graph.UpToDate:
				res.UpToDate++
			case graph.Failed:
				res.Failed++
			case graph.NotRun:
				res.NotRun++
			}
		case graph.KindJob:
			switch e.outcome {
			case graph.Ran:
				res.JobsRan++
			case graph.UpToDate:
				res.JobsCached++
			case graph.Failed:
				res.JobsFailed++
			}
		}
	}
	if !first.IsZero() {
		res.Elapsed = last.Sub(first)
	}
	return res
}

// used is value, or "–" when no child process ran.
func used(value string, ran bool) string {
	if !ran {
		return "–"
	}
	return value
}
