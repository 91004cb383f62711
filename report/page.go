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
	Memory    rows[memoryRow]
	Reasons   rows[reasonRow]
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

// fallback is a module job that survived the failure of one of its
// commands: an earlier command's output stands in for the failed one's.
type fallback struct {
	Target, Desc, Module string
	What                 string // what failed and what stands in
	Failed               []failure
}

// failure is an event that failed.
type failure struct {
	Kind, Desc, Command, Exit, Err string
}

// outcomeTable counts the events of each kind by outcome.
type outcomeTable struct {
	Outcomes []string
	Kinds    []outcomeRow
}

type outcomeRow struct {
	Kind   string
	Counts []int
}

// targetRow sums one target's actions and jobs.
type targetRow struct {
	Target                         string
	Actions, Modules               int
	ActionOutcomes, ModuleOutcomes string
	FellBack                       int
	Span, Busy, CPU                sortable
	PeakRSS, Images                sortable
}

// moduleRow is one fan-out job: one module's chain for one target.
type moduleRow struct {
	Target, Module, Outcome, Image string
	Cache                          string // the shared cache's answer
	Fallback                       string // what failed and stands in
	Time, PeakRSS, Size            sortable
	Failed                         bool
}

// commandRow is one command (an action's or a job's).
type commandRow struct {
	Desc, Command      string
	Time, PeakRSS, CPU sortable
	Failed             bool
}

// memoryRow is what one action or job cost.
type memoryRow struct {
	Desc, Kind, Exit      string
	Slot                  int
	PeakRSS, User, System sortable
	Wall                  sortable
	Bar                   string // the peak's bar width, of 100
}

// reasonRow is why actions or jobs ran, and how often.
type reasonRow struct {
	Reason string
	Count  int
}

// sortable is a formatted value with the number it sorts by.
type sortable struct {
	Text string
	Key  string
}

// none is the value of a cell with nothing to show.
var none = sortable{"–", "-1"}

func durationValue(d time.Duration) sortable {
	return sortable{formatDuration(d), strconv.FormatInt(int64(d), 10)}
}

func bytesValue(n int64) sortable {
	return sortable{formatBytes(n), strconv.FormatInt(n, 10)}
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
// what they are: a total order, so that the page does not depend on the
// order the events came in.
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
	)
}

// page builds the page from what the report was told.
func (r *Report) page() *page {
	r.mu.Lock()
	events := slices.Clone(r.events)
	messages := slices.Clone(r.messages)
	reasons := make([]reasonRow, 0, len(r.reasons))
	for why, n := range r.reasons {
		reasons = append(reasons, reasonRow{why, n})
	}
	var res *graph.Result
	if r.result != nil {
		c := *r.result
		res = &c
	}
	r.mu.Unlock()

	slices.SortFunc(events, compareRecords)
	slices.SortFunc(reasons, func(a, b reasonRow) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Reason, b.Reason))
	})
	sizes := r.sizes(events)
	p := &page{
		Title:    r.opt.Title,
		Messages: classify(messages),
		Timeline: layoutTimeline(events),
		Outcomes: outcomes(events),
		Targets:  targets(events, sizes),
		Slowest:  slowest(events, r.opt.Slowest),
		Modules:  firstRows(modules(events, sizes), r.opt.Rows),
		Memory:   firstRows(memory(events), r.opt.Rows),
		Reasons:  firstRows(reasons, r.opt.Rows),
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

// sizes stats the images of the jobs that ran or were up to date.
func (r *Report) sizes(events []record) map[string]int64 {
	sizes := map[string]int64{}
	for i := range events {
		e := &events[i]
		if e.kind != graph.KindJob || (e.outcome != graph.Ran && e.outcome != graph.UpToDate) {
			continue
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
	for i := range events {
		e := &events[i]
		switch e.kind {
		case graph.KindAction, graph.KindFanout:
			actions.add(e.outcome)
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
	list := []card{
		status,
		{Label: "wall time", Value: formatDuration(res.Elapsed), Note: "on " + plural(len(slots), "job slot")},
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
		card{Label: "peak memory", Value: formatBytes(peak), Note: "largest job"},
		card{Label: "CPU time", Value: formatDuration(cpu), Note: "child processes"},
		card{Label: "failures", Value: strconv.Itoa(failed), Bad: failed > 0},
	)
	if fellBack > 0 {
		list = append(list, card{Label: "fallbacks", Value: strconv.Itoa(fellBack), Warn: true, Note: "an earlier output stands in"})
	}
	return list
}

// counts counts events by outcome.
type counts map[graph.Outcome]int

func (c *counts) add(o graph.Outcome) {
	if *c == nil {
		*c = counts{}
	}
	(*c)[o]++
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

// failures lists what failed with its own error: commands, jobs whose
// error is not their failed command's, and actions; a fan-out that failed
// because of its jobs is not listed again. The jobs that fell back are
// listed apart, with the commands that failed in them.
func failures(events []record) ([]failure, []fallback) {
	saved := map[jobKey]int{} // index in fellBack
	var fellBack []fallback
	for i := range events {
		e := &events[i]
		if e.kind == graph.KindJob && e.fallback != "" {
			saved[jobKey{e.action, e.item}] = len(fellBack)
			fellBack = append(fellBack, fallback{Target: e.target, Desc: e.desc, Module: e.item, What: e.fallback})
		}
	}
	commandErr := map[jobKey]string{}
	for i := range events {
		e := &events[i]
		if e.kind == graph.KindCommand && e.err != "" {
			k := jobKey{e.action, e.item}
			if j, ok := saved[k]; ok {
				fellBack[j].Failed = append(fellBack[j].Failed, failureOf(e))
			} else {
				commandErr[k] = e.err
			}
		}
	}
	var list []failure
	for i := range events {
		e := &events[i]
		if e.kind == graph.KindCommand {
			if _, ok := saved[jobKey{e.action, e.item}]; ok {
				continue
			}
		}
		if e.outcome != graph.Failed && e.err == "" {
			continue
		}
		if e.kind == graph.KindJob && e.err == commandErr[jobKey{e.action, e.item}] {
			continue
		}
		if e.kind == graph.KindFanout && e.err == "" {
			continue
		}
		list = append(list, failureOf(e))
	}
	return list, fellBack
}

// failureOf describes a failed event.
func failureOf(e *record) failure {
	f := failure{Kind: kindName(e.kind), Desc: e.desc, Err: e.err}
	if len(e.argv) > 0 {
		f.Command = graph.ShellQuote(e.argv)
	}
	if e.usage != nil {
		f.Exit = strconv.Itoa(e.usage.ExitCode)
		if e.usage.ExitCode < 0 {
			f.Exit = "signal"
		}
	}
	return f
}

// outcomes counts events by kind and outcome; its columns are the
// outcomes that occur, whatever they are.
func outcomes(events []record) outcomeTable {
	seen := map[graph.Outcome]bool{}
	counts := map[graph.Kind]map[graph.Outcome]int{}
	for i := range events {
		e := &events[i]
		seen[e.outcome] = true
		if counts[e.kind] == nil {
			counts[e.kind] = map[graph.Outcome]int{}
		}
		counts[e.kind][e.outcome]++
	}
	var t outcomeTable
	seenOutcomes := sortedKeys(seen)
	for _, o := range seenOutcomes {
		t.Outcomes = append(t.Outcomes, outcomeName(o))
	}
	for _, k := range sortedKeys(counts) {
		row := outcomeRow{Kind: kindName(k) + "s"}
		for _, o := range seenOutcomes {
			row.Counts = append(row.Counts, counts[k][o])
		}
		t.Kinds = append(t.Kinds, row)
	}
	return t
}

// targets sums each target's actions and jobs; events of no target come
// last, as "(all)".
func targets(events []record, sizes map[string]int64) []targetRow {
	type sums struct {
		actions, jobs counts
		first, last   time.Time
		busy, cpu     time.Duration
		peak, images  int64
		used          bool // some of it ran child processes
		fellBack      int
	}
	by := map[string]*sums{}
	for i := range events {
		e := &events[i]
		if e.kind == graph.KindCommand {
			continue
		}
		s := by[e.target]
		if s == nil {
			s = &sums{}
			by[e.target] = s
		}
		switch e.kind {
		case graph.KindAction, graph.KindFanout:
			s.actions.add(e.outcome)
		case graph.KindJob:
			s.jobs.add(e.outcome)
			if e.fallback != "" {
				s.fellBack++
			}
			if n := sizes[e.image()]; n > 0 {
				s.images += n
			}
		}
		if e.ran() {
			if s.first.IsZero() || e.start.Before(s.first) {
				s.first = e.start
			}
			if e.end.After(s.last) {
				s.last = e.end
			}
			if e.kind != graph.KindFanout { // its jobs hold the slots
				s.busy += e.wall()
			}
		}
		s.cpu += e.cpu()
		s.peak = max(s.peak, e.maxRSS())
		s.used = s.used || e.usage != nil
	}
	names := sortedKeys(by)
	if len(names) > 0 && names[0] == "" {
		names = append(names[1:], "")
	}
	var list []targetRow
	for _, name := range names {
		s := by[name]
		row := targetRow{
			Target:         name,
			Actions:        s.actions.total(),
			ActionOutcomes: s.actions.String(),
			Modules:        s.jobs.total(),
			ModuleOutcomes: s.jobs.String(),
			FellBack:       s.fellBack,
			Span:           durationValue(s.last.Sub(s.first)),
			Busy:           durationValue(s.busy),
			CPU:            durationValue(s.cpu),
			PeakRSS:        bytesValue(s.peak),
			Images:         bytesValue(s.images),
		}
		if name == "" {
			row.Target = "(all)"
		}
		if row.Modules == 0 {
			row.Images = none
		}
		if !s.used {
			row.CPU, row.PeakRSS = none, none
		}
		list = append(list, row)
	}
	return list
}

// modules lists the fan-out jobs, slowest first.
func modules(events []record, sizes map[string]int64) []moduleRow {
	var jobs []*record
	for i := range events {
		if events[i].kind == graph.KindJob {
			jobs = append(jobs, &events[i])
		}
	}
	slices.SortStableFunc(jobs, func(a, b *record) int { return cmp.Compare(b.wall(), a.wall()) })
	list := make([]moduleRow, 0, len(jobs))
	for _, e := range jobs {
		row := moduleRow{
			Target:   e.target,
			Module:   e.item,
			Outcome:  outcomeName(e.outcome),
			Cache:    e.cache,
			Fallback: e.fallback,
			Image:    e.image(),
			Time:     durationValue(e.wall()),
			PeakRSS:  bytesValue(e.maxRSS()),
			Size:     none,
			Failed:   e.outcome == graph.Failed,
		}
		if n, ok := sizes[row.Image]; ok && n >= 0 {
			row.Size = bytesValue(n)
		}
		if !e.ran() {
			row.Time = none
		}
		list = append(list, row)
	}
	return list
}

// slowest lists the n slowest commands: actions that ran, and the
// commands of jobs.
func slowest(events []record, n int) []commandRow {
	var cmds []*record
	for i := range events {
		e := &events[i]
		if (e.kind == graph.KindAction || e.kind == graph.KindCommand) && e.ran() {
			cmds = append(cmds, e)
		}
	}
	slices.SortStableFunc(cmds, func(a, b *record) int { return cmp.Compare(b.wall(), a.wall()) })
	cmds = cmds[:min(n, len(cmds))]
	list := make([]commandRow, 0, len(cmds))
	for _, e := range cmds {
		list = append(list, commandRow{
			Desc:    e.desc,
			Command: graph.ShellQuote(e.argv),
			Time:    durationValue(e.wall()),
			PeakRSS: bytesValue(e.maxRSS()),
			CPU:     durationValue(e.cpu()),
			Failed:  e.outcome == graph.Failed,
		})
	}
	return list
}

// memory lists the actions and jobs that ran child processes, largest
// peak first.
func memory(events []record) []memoryRow {
	var used []*record
	var peak int64
	for i := range events {
		e := &events[i]
		if (e.kind == graph.KindAction || e.kind == graph.KindJob) && e.usage != nil {
			used = append(used, e)
			peak = max(peak, e.usage.MaxRSS)
		}
	}
	slices.SortStableFunc(used, func(a, b *record) int { return cmp.Compare(b.usage.MaxRSS, a.usage.MaxRSS) })
	list := make([]memoryRow, 0, len(used))
	for _, e := range used {
		row := memoryRow{
			Desc:    e.desc,
			Kind:    kindName(e.kind),
			Slot:    e.slot,
			PeakRSS: bytesValue(e.usage.MaxRSS),
			User:    durationValue(e.usage.User),
			System:  durationValue(e.usage.System),
			Wall:    durationValue(e.wall()),
			Exit:    strconv.Itoa(e.usage.ExitCode),
			Bar:     "0",
		}
		if peak > 0 {
			row.Bar = strconv.FormatFloat(100*float64(e.usage.MaxRSS)/float64(peak), 'f', 1, 64)
		}
		list = append(list, row)
	}
	return list
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
