package graph

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
)

// Trace collects a Chrome trace of a build: one complete ("X") event per
// action and per fan-out job (with one nested event per command of the
// job's chain), on one lane per job slot. Open the file in a browser's trace
// viewer (chrome://tracing, ui.perfetto.dev). It is an Observer; the spans
// of commands run as child processes carry their CPU time and peak memory,
// and the machine they ran on when it is not this one.
type Trace struct {
	NopObserver
	mu     sync.Mutex
	start  time.Time
	events []traceEvent
	meta   map[string]string
}

type traceEvent struct {
	Name string     `json:"name"`
	Cat  string     `json:"cat"`
	Ph   string     `json:"ph"`
	Ts   int64      `json:"ts"`
	Dur  int64      `json:"dur,omitempty"`
	Pid  int        `json:"pid"`
	Tid  int        `json:"tid"`
	Args *traceArgs `json:"args,omitempty"`
}

// traceArgs are what a span says beside its name. A struct, not a map: a
// fan-out records a span per command, and a map costs its making and, when
// written, sorting its keys. The fields are in the keys' sorted order, so
// the JSON is what a map of the set fields gives.
type traceArgs struct {
	Item      string `json:"item,omitempty"`
	Jobs      string `json:"jobs,omitempty"`
	MaxRSSMiB string `json:"maxrss_mib,omitempty"`
	Name      string `json:"name,omitempty"`
	Node      string `json:"node,omitempty"`
	Output    string `json:"output,omitempty"`
	System    string `json:"system_seconds,omitempty"`
	User      string `json:"user_seconds,omitempty"`
}

// NewTrace starts a trace; times are relative to now.
func NewTrace() *Trace { return &Trace{start: time.Now()} }

// Finished records the span of what ran: an action or a job on its job
// slot's lane, a command of a job nested in the job's span, a fan-out on a
// lane of its own.
func (t *Trace) Finished(e Event) {
	if e.Start.IsZero() {
		return // it did not run
	}
	switch e.Kind {
	case KindAction:
		t.add(e.Desc, e.Tool, e.Slot, e.Start, e.End, usageArgs(&traceArgs{Output: e.Outputs[0], Node: e.Where.Node}, e.Usage))
	case KindFanout:
		t.add(e.Desc, "fan-out", fanoutLane+e.Action, e.Start, e.End, &traceArgs{Jobs: strconv.Itoa(e.Jobs)})
	case KindJob:
		t.add(e.Desc, "job", e.Slot, e.Start, e.End, usageArgs(&traceArgs{Item: e.Item, Node: e.Where.Node}, e.Usage))
	case KindCommand:
		var args *traceArgs
		if e.Where.Node != "" {
			args = &traceArgs{Node: e.Where.Node}
		}
		t.add(e.Tool+" "+e.Item, e.Tool, e.Slot, e.Start, e.End, usageArgs(args, e.Usage))
	}
}

// Summary records the build's wall time as the trace's wall_seconds.
func (t *Trace) Summary(r *Result) {
	t.SetMeta("wall_seconds", fmt.Sprintf("%.3f", r.Elapsed.Seconds()))
}

// usageArgs adds a child's CPU time and peak memory to a span's args.
func usageArgs(args *traceArgs, u *Usage) *traceArgs {
	if u == nil {
		return args
	}
	if args == nil {
		args = &traceArgs{}
	}
	// strconv, not fmt: a span per command, thousands in a fan-out.
	args.User = strconv.FormatFloat(u.User.Seconds(), 'f', 3, 64)
	args.System = strconv.FormatFloat(u.System.Seconds(), 'f', 3, 64)
	args.MaxRSSMiB = strconv.FormatFloat(float64(u.MaxRSS)/(1<<20), 'f', 1, 64)
	return args
}

// add records a span on lane slot.
func (t *Trace) add(name, cat string, slot int, from, to time.Time, args *traceArgs) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.events = append(t.events, traceEvent{
		Name: name, Cat: cat, Ph: "X",
		Ts:  from.Sub(t.start).Microseconds(),
		Dur: max(to.Sub(from).Microseconds(), 1),
		Pid: 1, Tid: slot, Args: args,
	})
}

// SetMeta records a fact about the whole build (written as the trace's
// "otherData", which trace viewers show as metadata).
func (t *Trace) SetMeta(key, value string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.meta == nil {
		t.meta = map[string]string{}
	}
	t.meta[key] = value
}

// Events returns the number of events recorded.
func (t *Trace) Events() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.events)
}

// WriteTo writes the trace as JSON (the Trace Event Format's object form).
func (t *Trace) WriteTo(w io.Writer) (int64, error) {
	t.mu.Lock()
	events := append([]traceEvent(nil), t.events...)
	t.mu.Unlock()
	// Parents before their children when they start together.
	sort.SliceStable(events, func(i, j int) bool {
		if events[i].Ts != events[j].Ts {
			return events[i].Ts < events[j].Ts
		}
		return events[i].Dur > events[j].Dur
	})
	lanes := map[int]bool{}
	for _, e := range events {
		lanes[e.Tid] = true
	}
	var meta []traceEvent
	meta = append(meta, traceEvent{Name: "process_name", Ph: "M", Pid: 1, Args: &traceArgs{Name: "sycbuild"}})
	for _, lane := range slices.Sorted(maps.Keys(lanes)) {
		name := "job slot " + strconv.Itoa(lane)
		if lane >= fanoutLane {
			name = "fan-outs"
		}
		meta = append(meta, traceEvent{Name: "thread_name", Ph: "M", Pid: 1, Tid: lane, Args: &traceArgs{Name: name}})
	}
	t.mu.Lock()
	other := maps.Clone(t.meta)
	t.mu.Unlock()
	data, err := json.MarshalIndent(struct {
		TraceEvents     []traceEvent      `json:"traceEvents"`
		DisplayTimeUnit string            `json:"displayTimeUnit"`
		OtherData       map[string]string `json:"otherData,omitempty"`
	}{append(meta, events...), "ms", other}, "", " ")
	if err != nil {
		return 0, err
	}
	n, err := w.Write(append(data, '\n'))
	return int64(n), err
}

// WriteFile writes the trace to a file.
func (t *Trace) WriteFile(name string) error {
	return atomicfile.Write(name, func(w io.Writer) error {
		_, err := t.WriteTo(w)
		return err
	})
}
