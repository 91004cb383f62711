package graph

import (
	"time"

	"github.com/sycbuild/sycbuild/jobs"
)

// An Observer is told what a build does, as it does it: the progress line,
// the Chrome trace and -explain are observers, and so is anything else that
// watches a build. Build calls an observer from many goroutines at once;
// the calls for one action or job come in order (Started before Finished).
// An observer must not block for long: the build waits for it.
type Observer interface {
	// Planned says that n more actions or jobs are to be done (a fan-out
	// learns its jobs only when it starts).
	Planned(n int)
	// OutOfDate says why an action or job is run: name is its record's
	// name (the action's first output), reasons what changed since the
	// build that recorded it ("no record of an earlier build", "input x
	// changed", ...). It comes before the action's Started, and in a dry
	// run for every action that would run.
	OutOfDate(name string, reasons []string)
	// Started says that an action, job or command starts running, on the
	// job slot e.Slot.
	Started(e Event)
	// Finished says that an action, job or command is done, with
	// e.Outcome. Up-to-date actions and jobs, and those that could not
	// start, are only Finished.
	Finished(e Event)
	// Message is a line or lines of text for the user: a note, a warning,
	// a command line (with Options.Verbose).
	Message(text string)
	// Summary is the build's result, at its end.
	Summary(r *Result)
}

// Kind says what an Event is about.
type Kind int

const (
	// KindAction is an action of the graph other than a fan-out.
	KindAction Kind = iota
	// KindFanout is a fan-out action as a whole (it holds no job slot;
	// its jobs do).
	KindFanout
	// KindJob is one item's job of a fan-out: its chain of commands.
	KindJob
	// KindCommand is one command of a job's chain.
	KindCommand
)

// Outcome says how an action, job or command ended; it is also the
// builder's record of each finished action.
type Outcome int

const (
	// Ran: it ran and succeeded.
	Ran Outcome = iota
	// UpToDate: its recorded outputs were still valid; nothing ran.
	UpToDate
	// Failed: it failed (Event.Err says why, when it is its own failure
	// rather than its jobs').
	Failed
	// NotRun: it did not run, or was stopped, because of a failure
	// elsewhere or an interrupt.
	NotRun
	// Restored: its outputs came from the shared cache (Event.Cache says
	// which); nothing ran.
	Restored
)

var outcomeNames = [...]string{Ran: "ran", UpToDate: "up to date", Failed: "failed", NotRun: "not run", Restored: "restored"}

func (o Outcome) String() string { return outcomeNames[o] }

// An Event describes an action, job or command for an Observer.
type Event struct {
	Kind Kind
	// Action is the index of the action in the graph (for jobs and
	// commands, of their fan-out).
	Action int
	// Desc is the text progress shows ("[spir64] sycl-post-link", a job's
	// "desc item", a command's "desc item (tool)").
	Desc string
	// Tool is the name of the program run (a fan-out's first step's).
	Tool string
	// Item is a job's or command's fan-out item.
	Item string
	// Argv is the command line run (nil for fan-outs and jobs).
	Argv []string
	// Outputs are the files an action, job or command writes.
	Outputs []string
	// Jobs is the number of a fan-out's jobs.
	Jobs int
	// Slot is the job slot (the pool token's) that runs it; -1 when it
	// holds none.
	Slot int
	// Start and End are when it started and finished running; zero when
	// it did not run (End is set in Finished only).
	Start, End time.Time
	// Outcome is how it ended (Finished only).
	Outcome Outcome
	// Fallback, for a job that survived the failure of one of its
	// commands (Fanout.Fallback), says what failed and what stands in
	// (Finished only).
	Fallback string
	// Cache is what the shared cache said of an action or job that had to
	// run: "local hit", "remote hit", "local miss" or "remote miss"; ""
	// when it was not asked (Finished only).
	Cache string
	// Err is why it failed (Finished only).
	Err error
	// Output is what its commands printed, chatter left out (Finished
	// only, when it succeeded).
	Output []byte
	// Usage is what the child processes it ran cost (Finished only); nil
	// for in-process tools and what did not run.
	Usage *Usage
	// Busy, for a job whose commands ran among other jobs' (a batch, see
	// Batch), is the time its own commands took, its share of the batch's
	// included; its span then also holds the others'. Zero otherwise: the
	// job took End − Start.
	Busy time.Duration
	// Where is where an action's, job's or command's child processes ran,
	// as Options.Runner says (Finished only); its Node is "" on this
	// machine, and for what ran none.
	Where Where
}

// Usage is what child processes cost, from wait4's rusage. For a job, it
// sums its commands' (and MaxRSS is the largest).
type Usage = jobs.Usage

// Where says where a runner ran child processes.
type Where = jobs.Where

// Observers is an Observer that tells each of its observers, in order.
type Observers []Observer

func (obs Observers) Planned(n int) {
	for _, o := range obs {
		o.Planned(n)
	}
}

func (obs Observers) OutOfDate(name string, reasons []string) {
	for _, o := range obs {
		o.OutOfDate(name, reasons)
	}
}

func (obs Observers) Started(e Event) {
	for _, o := range obs {
		o.Started(e)
	}
}

func (obs Observers) Finished(e Event) {
	for _, o := range obs {
		o.Finished(e)
	}
}

func (obs Observers) Message(text string) {
	for _, o := range obs {
		o.Message(text)
	}
}

func (obs Observers) Summary(r *Result) {
	for _, o := range obs {
		o.Summary(r)
	}
}

// NopObserver ignores every event; embedded in an observer, it supplies the
// methods for the events it does not watch.
type NopObserver struct{}

func (NopObserver) Planned(int)                {}
func (NopObserver) OutOfDate(string, []string) {}
func (NopObserver) Started(Event)              {}
func (NopObserver) Finished(Event)             {}
func (NopObserver) Message(string)             {}
func (NopObserver) Summary(*Result)            {}

// explainer prints the reasons of OutOfDate events.
type explainer struct {
	NopObserver
	p *Progress
}

// Explain returns an observer that prints, through p, why each action or
// job runs: one line "sycbuild explain: NAME: REASON" per reason.
func Explain(p *Progress) Observer { return explainer{p: p} }

// Finished says what the shared cache answered for an action or job.
func (x explainer) Finished(e Event) {
	if e.Cache != "" && len(e.Outputs) > 0 {
		x.p.Printf("sycbuild explain: %s: %s", e.Outputs[0], e.Cache)
	}
}

func (x explainer) OutOfDate(name string, reasons []string) {
	for _, r := range reasons {
		x.p.Printf("sycbuild explain: %s: %s", name, r)
	}
}
