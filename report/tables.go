package report

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/sycbuild/sycbuild/graph"
)

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
	Kernels                        kernelList
	Cache                          string // the shared cache's answer
	Fallback                       string // what failed and stands in
	Time, PeakRSS, Size            sortable
	Failed                         bool
	Node                           string // where it ran, when the page names nodes
}

// commandRow is one command (an action's or a job's).
type commandRow struct {
	Desc, Command      string
	Full               string // the whole command, when Command is cut
	Time, PeakRSS, CPU sortable
	Failed             bool
	Node               string // where it ran, when the page names nodes
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

// outcomes counts events by kind and outcome (and the jobs of fan-outs
// that report no events of their own); its columns are the outcomes that
// occur, whatever they are.
func outcomes(events []record) outcomeTable {
	seen := map[graph.Outcome]bool{}
	byKind := map[graph.Kind]counts{}
	add := func(k graph.Kind, o graph.Outcome, n int) {
		seen[o] = true
		c := byKind[k]
		c.addN(o, n)
		byKind[k] = c
	}
	silent := silentJobs(events)
	for i := range events {
		e := &events[i]
		add(e.kind, e.outcome, 1)
		if n := silent[e.action]; n > 0 && e.kind == graph.KindFanout {
			add(graph.KindJob, e.silentOutcome(), n)
		}
	}
	var t outcomeTable
	seenOutcomes := sortedKeys(seen)
	for _, o := range seenOutcomes {
		t.Outcomes = append(t.Outcomes, outcomeName(o))
	}
	for _, k := range sortedKeys(byKind) {
		row := outcomeRow{Kind: kindName(k) + "s"}
		for _, o := range seenOutcomes {
			row.Counts = append(row.Counts, byKind[k][o])
		}
		t.Kinds = append(t.Kinds, row)
	}
	return t
}

// targets sums each target's actions and jobs; events of no target come
// last, as "(all)".
func targets(events []record, sizes map[string]int64, tables map[string]splitTable) []targetRow {
	by := map[string]*targetSums{}
	silent := silentJobs(events)
	for i := range events {
		e := &events[i]
		if e.kind == graph.KindCommand {
			continue
		}
		s := by[e.target]
		if s == nil {
			s = &targetSums{}
			by[e.target] = s
		}
		s.add(e, silent, sizes)
	}
	names := sortedKeys(by)
	if len(names) > 0 && names[0] == "" {
		names = append(names[1:], "")
	}
	var list []targetRow
	for _, name := range names {
		list = append(list, by[name].row(name, tables))
	}
	return list
}

// targetSums is what targets adds up of one target's events.
type targetSums struct {
	actions, jobs counts
	first, last   time.Time
	busy, cpu     time.Duration
	peak, images  int64
	used          bool // some of it ran child processes
	fellBack      int
	sized         bool // some of its images were found
}

// add adds the event e (not a command's); silent are the fan-outs' jobs
// that sent no events of their own (silentJobs), sizes the images' sizes.
func (s *targetSums) add(e *record, silent map[int]int, sizes map[string]int64) {
	switch e.kind {
	case graph.KindAction, graph.KindFanout:
		s.actions.add(e.outcome)
		if n := silent[e.action]; n > 0 && e.kind == graph.KindFanout {
			s.jobs.addN(e.silentOutcome(), n)
		}
	case graph.KindJob:
		s.jobs.add(e.outcome)
		if e.fallback != "" {
			s.fellBack++
		}
		if n, ok := sizes[e.image()]; ok && n >= 0 {
			s.images += n
			s.sized = true
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

// row is the table's row of the target name ("" for events of no target);
// tables are the splits, whose modules are a target's images when it ran
// no jobs.
func (s *targetSums) row(name string, tables map[string]splitTable) targetRow {
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
	sized := s.sized
	if st, ok := tables[name]; ok && s.jobs.total() == 0 {
		// The split's modules are the images (llvm_ir).
		row.Modules, row.ModuleOutcomes = st.modules, "embedded as split"
		row.Images, sized = bytesValue(st.bytes), true
	}
	if !sized {
		row.Images = none
	}
	if !s.used {
		row.CPU, row.PeakRSS = none, none
	}
	if s.first.IsZero() {
		row.Span, row.Busy = none, none // nothing of it ran
	}
	return row
}

// modules lists the fan-out jobs, slowest first.
func modules(events []record, sizes map[string]int64, kernels map[string]kernelList) []moduleRow {
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
			Kernels:  kernels[e.item],
			Outcome:  outcomeName(e.outcome),
			Cache:    e.cache,
			Fallback: e.fallback,
			Image:    e.image(),
			Time:     durationValue(e.wall()),
			PeakRSS:  bytesValue(e.maxRSS()),
			Size:     none,
			Failed:   e.outcome == graph.Failed,
			Node:     nodeName(e),
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

// nodeName is the node column's text for what ran: its node, "here"
// for this machine (beside work that ran elsewhere), "" for what did not
// run.
func nodeName(e *record) string {
	switch {
	case e.node != "":
		return e.node
	case e.ran():
		return "here"
	}
	return ""
}

// maxCommandText is the most of a command line a table shows; the rest
// is in its tooltip.
const maxCommandText = 240

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
		full := graph.ShellQuote(e.argv)
		row := commandRow{
			Desc:    e.desc,
			Command: cut(full, maxCommandText),
			Time:    durationValue(e.wall()),
			PeakRSS: bytesValue(e.maxRSS()),
			CPU:     durationValue(e.cpu()),
			Failed:  e.outcome == graph.Failed,
			Node:    nodeName(e),
		}
		if row.Command != full {
			row.Full = full
		}
		list = append(list, row)
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
