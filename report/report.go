// Package report writes a build's report: one self-contained HTML page
// (no network, no external script, font or image) with the build's
// timeline per job slot, the slowest commands, per-target and per-module
// image sizes and times, what was up to date and what ran, the memory and
// CPU time of each job, the memory held by the running jobs against the
// build's budget, and the build's failures, fallbacks and messages.
//
// A Report is a graph.Observer: give it to graph.Build among the build's
// observers, then write it when the build is over.
//
//	r := report.New(report.Options{Title: "out/device_images.o"})
//	opt.Observer = graph.Observers{opt.Observer, r}
//	res, err := g.Build(ctx, opt)
//	werr := r.WriteFile("build.html")
//
// The page is a function of the events the report was told (and of the
// sizes of the files they name, read when it is written): the same events
// in any order give the same page, the build's messages kept in the order
// they came.
package report

import (
	"io"
	"sync"

	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/internal/atomicfile"
)

// Options say what a Report shows.
type Options struct {
	// Title heads the page; "" is "sycbuild build report".
	Title string
	// Target names the target an event belongs to ("spir64_gen"), or ""
	// for none (the wrapper serves all targets). nil takes the bracketed
	// prefix of the event's Desc ("[spir64_gen] sycl-post-link").
	Target func(e graph.Event) string
	// Dir is the directory the events' relative paths are relative to
	// (the build's graph.Options.Dir); "" is the current directory. The
	// sizes of the images are read there when the page is written.
	Dir string
	// Budget is the build's memory budget in bytes (graph.Options.Memory),
	// drawn beside the memory the running jobs held; 0 draws none.
	Budget int64
	// Slowest is how many of the slowest commands the page lists; 0 is 15.
	Slowest int
	// Rows bounds the lists of modules, jobs, failures, fallbacks and
	// reasons (the slowest or largest are kept, and the page says how
	// many were left out); 0 is 500.
	Rows int
	// Config summarizes what was built (inputs, split, each target with
	// its devices and route), and Tools names the tools that built it with
	// their versions; each is shown as given, in order.
	Config, Tools []Setting
}

// Setting is one line of the page's build summary.
type Setting struct{ Name, Value string }

// A Report collects a build's events for its HTML page. It is a
// graph.Observer; its methods may be called from many goroutines at once.
type Report struct {
	opt Options

	mu       sync.Mutex
	events   []record
	messages []string
	reasons  map[string]int
	result   *graph.Result
}

// New returns an empty report.
func New(opt Options) *Report {
	if opt.Title == "" {
		opt.Title = "sycbuild build report"
	}
	if opt.Target == nil {
		opt.Target = TargetOfDesc
	}
	if opt.Slowest <= 0 {
		opt.Slowest = 15
	}
	if opt.Rows <= 0 {
		opt.Rows = 500
	}
	return &Report{opt: opt, reasons: map[string]int{}}
}

// TargetOfDesc is the default Options.Target: the text between a leading
// '[' and the next ']' of the event's Desc, or "".
func TargetOfDesc(e graph.Event) string {
	d := e.Desc
	if len(d) < 2 || d[0] != '[' {
		return ""
	}
	for i := 1; i < len(d); i++ {
		if d[i] == ']' {
			return d[1:i]
		}
	}
	return ""
}

// Planned does nothing: the page counts what finished.
func (r *Report) Planned(int) {}

// OutOfDate counts the reasons why actions and jobs ran.
func (r *Report) OutOfDate(name string, reasons []string) {
	r.mu.Lock()
	for _, why := range reasons {
		r.reasons[why]++
	}
	r.mu.Unlock()
}

// Started does nothing: an event is recorded when it finishes.
func (r *Report) Started(graph.Event) {}

// Finished records an action, fan-out, job or command.
func (r *Report) Finished(e graph.Event) {
	rec := record{
		kind: e.Kind, action: e.Action, desc: e.Desc, tool: e.Tool, item: e.Item,
		argv: e.Argv, outputs: e.Outputs, jobs: e.Jobs, slot: e.Slot,
		start: e.Start, end: e.End, busy: e.Busy, outcome: e.Outcome, cache: e.Cache, fallback: e.Fallback, target: r.opt.Target(e),
		node: e.Where.Node,
	}
	if e.Err != nil {
		rec.err = e.Err.Error()
	}
	if e.Usage != nil {
		u := *e.Usage
		rec.usage = &u
	}
	r.mu.Lock()
	r.events = append(r.events, rec)
	r.mu.Unlock()
}

// Message records a line or lines of text for the user.
func (r *Report) Message(text string) {
	r.mu.Lock()
	r.messages = append(r.messages, text)
	r.mu.Unlock()
}

// Summary records the build's result.
func (r *Report) Summary(res *graph.Result) {
	if res == nil {
		return
	}
	c := *res
	r.mu.Lock()
	r.result = &c
	r.mu.Unlock()
}

// Write writes the page to w.
func (r *Report) Write(w io.Writer) error {
	return pageTemplate.Execute(w, r.page())
}

// WriteFile writes the page to the file name, replacing it whole.
func (r *Report) WriteFile(name string) error {
	return atomicfile.Write(name, r.Write)
}
