package graph

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sycbuild/sycbuild/cache"
	"github.com/sycbuild/sycbuild/jobs"
)

// Batch says how a tool runs the last commands of several fan-out jobs as
// one process, as ocloc's "multi" command does: what starting the tool
// costs (ocloc maps and relocates its compiler's libraries, about 90 ms of
// a 155 ms compile) is paid once per batch. The outputs are the same
// files; a batch is how the jobs run, not what they are: their keys,
// records, cache entries and printed commands do not change.
type Batch struct {
	// Line returns the line of the batch's list file that runs argv, a
	// job's command (run in the build's directory), writing its one output
	// under the file name name (in the batch's output directory) in place
	// of output; abs makes a path of argv absolute. ok false: the command
	// cannot run in a batch (it runs alone).
	Line func(argv []string, output, name string, abs func(string) string) (line string, ok bool)
	// Argv returns the command line that runs the lines of the list file
	// list, a file name in the directory it runs in.
	Argv func(list string) []string
	// Outputs is the directory, relative to where the batch runs, that
	// it writes the outputs into for the list file list.
	Outputs func(list string) string
	// Split cuts what the batch printed into each line's part, in order;
	// nil when it cannot (the jobs then show nothing of it).
	Split func(out []byte, lines int) [][]byte
}

// maxBatch is the most jobs one batch runs: beyond it, the start a batch
// saves per job is small beside the jobs' own work, and larger batches
// leave job slots idle at the end of a fan-out.
const maxBatch = 12

// longJob is the longest a job may have taken last time and still run its
// last command in a batch: what a batch saves is the tool's start (about
// 0.1 s for ocloc), little beside a longer job, which would also hold up
// the batch's others.
const longJob = 2 * time.Second

// batchSize is how many jobs of the fan-out f, of items items, run their
// last command as one process: 1 where they run alone. A batch needs the
// tool's Batch, this machine (the commands of a runner elsewhere run
// there, each on its own), and enough items that every job slot gets four
// batches or more (Options.Batch sets the size).
func (b *builder) batchSize(f *Fanout, items int) int {
	n := len(f.Steps)
	last := f.Steps[n-1]
	if last.Tool.Batch == nil || last.Out == nil || (n > 1 && f.Steps[n-2].Pipe) {
		return 1
	}
	if _, local := b.runner.(jobs.Local); !local {
		return 1
	}
	if b.opt.Batch > 0 {
		return b.opt.Batch
	}
	slots := max(b.pool.Size(), 1)
	return min(max(items/(4*slots), 1), maxBatch)
}

// doBatch brings the jobs js of the fan-out a up to date, on a worker of
// w, like doJob one by one, except that those that must run run on one
// token together (runBatch). It returns, per job, whether a fallback
// saved it and its failure.
func (b *builder) doBatch(ctx, stop context.Context, pool jobs.Pool, a *Action, js []*job, w *workers) (fellBack []bool, errs []error) {
	fellBack, errs = make([]bool, len(js)), make([]error, len(js))
	var us []*unit
	var at []int
	for n, j := range js {
		if stop.Err() != nil {
			errs[n] = errNotRun
			continue
		}
		u, err := b.decideJob(a, j)
		if u == nil {
			errs[n] = err
			continue
		}
		us, at = append(us, u), append(at, n)
	}
	if len(us) == 0 {
		return fellBack, errs
	}
	tok, err := b.acquire(stop, us[0])
	if err != nil {
		for _, n := range at {
			errs[n] = errNotRun
		}
		return fellBack, errs
	}
	w.busy()
	evs, runErrs := b.runBatch(ctx, tok, us)
	w.done()
	b.release(pool, tok, us[0])
	for i, n := range at {
		fellBack[n] = evs[i].Fallback != ""
		errs[n] = b.jobDone(ctx, evs[i], runErrs[i])
	}
	return fellBack, errs
}

// runBatch runs the units us, fan-out jobs that must run, on the token
// tok: each one's commands but the last as runUnit would, then their last
// commands as one process (batchLast); a job whose last command could not
// run in it runs that command alone, as does every job of a batch that
// failed, so that a failure is the job's own command's, with its own
// fallback and isolation. It returns each unit's finished event and
// failure.
func (b *builder) runBatch(ctx context.Context, tok jobs.Token, us []*unit) ([]Event, []error) {
	n := len(us)
	evs, errs, texts := make([]Event, n), make([]error, n), make([][]byte, n)
	cas, hits := make([]*cache.Action, n), make([]bool, n)
	last := len(us[0].argvs) - 1
	var pending []int
	for i, u := range us {
		evs[i], cas[i], texts[i], hits[i] = b.startUnit(ctx, tok, u)
		if hits[i] {
			continue
		}
		b.prepareOutputs(u)
		began := time.Now()
		texts[i], errs[i] = b.executeSteps(ctx, tok, u, &evs[i], 0, last)
		evs[i].Busy = time.Since(began)
		if errs[i] == nil {
			pending = append(pending, i)
		}
	}
	done := b.batchLast(ctx, tok, us, evs, texts, pending)
	for _, i := range pending {
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			continue
		}
		if !done[i] {
			began := time.Now()
			text, err := b.executeSteps(ctx, tok, us[i], &evs[i], last, last+1)
			texts[i], errs[i] = append(texts[i], text...), err
			evs[i].Busy += time.Since(began)
		}
	}
	for i, u := range us {
		evs[i].End = time.Now()
		if errs[i] == nil {
			evs[i], errs[i] = b.settle(ctx, u, evs[i], texts[i], cas[i], hits[i])
		}
	}
	return evs, errs
}

// batchLast runs the last commands of the units pending (indices into us)
// as one process, where there are two or more that can run so, and puts
// their outputs in place. It returns the units it ran; on any failure of
// the batch, none (nothing it wrote is kept).
func (b *builder) batchLast(ctx context.Context, tok jobs.Token, us []*unit, evs []Event, texts [][]byte, pending []int) map[int]bool {
	if len(pending) < 2 || ctx.Err() != nil {
		return nil
	}
	first := us[pending[0]]
	last := len(first.argvs) - 1
	tool := first.tools[last]
	bt := tool.Batch
	dir := filepath.Join(first.fanout.Dir, isolatePrefix+"batch_"+strconv.Itoa(first.index))
	root := b.workDir
	if root == "" {
		root, _ = os.Getwd()
	}
	abs := func(p string) string { return filepath.Join(root, p) }
	list, in := batchList(us, evs, pending, abs)
	if len(in) < 2 {
		return nil
	}
	const listName = "batch.txt"
	outDir := filepath.Join(dir, bt.Outputs(listName))
	defer os.RemoveAll(b.path(dir))
	os.RemoveAll(b.path(dir))
	// The outputs' directory is made first: ocloc multi writes a fat
	// binary (two devices or more) before it makes it itself.
	if os.MkdirAll(b.path(outDir), 0o755) != nil || os.WriteFile(b.path(filepath.Join(dir, listName)), list, 0o644) != nil {
		return nil
	}
	out, err := b.capture(tok.Slot())
	if err != nil {
		return nil
	}
	for _, i := range in {
		if b.opt.Verbose {
			b.obs.Message(ShellQuote(us[i].argvs[last]))
		}
		b.log.forget(us[i].outs[last]...)
	}
	start := time.Now()
	argv := bt.Argv(listName)
	if strings.Contains(argv[0], "/") && !filepath.IsAbs(argv[0]) {
		argv[0] = abs(argv[0]) // it runs in dir
	}
	jc := &jobs.Command{Argv: argv, Dir: abs(dir), Stdout: out.f, Stderr: out.f}
	// One command's limit: the batch holds short commands (longJob), so
	// one that takes that long has hung, and each then runs alone under it.
	timeout := time.Duration(-1)
	if tool.Timeout > 0 {
		timeout = tool.Timeout
	}
	usages, _, _, _, err := b.attempt(ctx, []*jobs.Command{jc}, jobs.Request{}, timeout)
	end := time.Now()
	if err != nil {
		return nil
	}
	states, ok := b.batchOutputs(us, in, outDir, tool)
	if !ok {
		return nil
	}
	b.shareBatch(us, evs, texts, in, out.last(captureLimit), usages[0], start, end)
	done := map[int]bool{}
	for k, i := range in {
		o := us[i].outs[last][0]
		temps := map[string]string{o: filepath.Join(outDir, strconv.Itoa(k))}
		if b.place([]string{o}, temps, states[k:k+1], func() {}, func() { os.Remove(b.path(o)) }) != nil {
			continue // it runs alone
		}
		b.log.wrote(o, states[k])
		done[i] = true
	}
	return done
}

// batchList returns the list file of a batch of the last commands of the
// units pending (indices into us), and the units it holds, in its order:
// those that can run in it (Batch.Line) and did not take long last time
// (longJob).
func batchList(us []*unit, evs []Event, pending []int, abs func(string) string) (list []byte, in []int) {
	for _, i := range pending {
		u := us[i]
		last := len(u.argvs) - 1
		if evs[i].Fallback != "" || len(u.outs[last]) != 1 || (u.prev != nil && time.Duration(u.prev.wall) > longJob) {
			continue
		}
		line, ok := u.tools[last].Batch.Line(u.argvs[last], u.outs[last][0], strconv.Itoa(len(in)), abs)
		if !ok {
			continue
		}
		list = append(append(list, line...), '\n')
		in = append(in, i)
	}
	return list, in
}

// batchOutputs checks and hashes the outputs a batch wrote, in the order
// of in; ok false when any is missing, empty or fails the tool's check.
func (b *builder) batchOutputs(us []*unit, in []int, outDir string, tool *Tool) ([]fileState, bool) {
	states := make([]fileState, len(in))
	for k := range in {
		st, bad, err := inspect(b.path(filepath.Join(outDir, strconv.Itoa(k))), tool.Check, true)
		if err != nil || bad != "" {
			return nil, false
		}
		states[k] = st
	}
	return states, true
}

// shareBatch tells the observer of each unit's part of a batch that ran
// from start to end: a command event per job, the batch's time and usage
// shared evenly among them in list order (the commands of a job slot
// never overlap in a trace), and the part of what it printed that is the
// job's.
func (b *builder) shareBatch(us []*unit, evs []Event, texts [][]byte, in []int, printed []byte, usage *Usage, start, end time.Time) {
	var parts [][]byte
	first := us[in[0]]
	last := len(first.argvs) - 1
	if split := first.tools[last].Batch.Split; split != nil {
		parts = split(printed, len(in))
	}
	share := end.Sub(start) / time.Duration(len(in))
	var each *Usage
	if usage != nil {
		n := time.Duration(len(in))
		each = &Usage{User: usage.User / n, System: usage.System / n, MaxRSS: usage.MaxRSS, Wall: usage.Wall / n, ExitCode: usage.ExitCode}
	}
	for k, i := range in {
		u, e := us[i], &evs[i]
		if k < len(parts) {
			texts[i] = append(texts[i], parts[k]...)
		}
		c := Event{Kind: KindCommand, Action: e.Action, Desc: e.Desc + " (" + u.tools[last].Name + ")", Tool: u.tools[last].Name, Item: e.Item,
			Argv: u.argvs[last], Outputs: u.outs[last], Slot: e.Slot, Start: start.Add(share * time.Duration(k)), Usage: each}
		c.End, c.Outcome = c.Start.Add(share), Ran
		b.obs.Started(c)
		b.obs.Finished(c)
		e.Busy += share
		if each != nil {
			if e.Usage == nil {
				e.Usage = &Usage{}
			}
			e.Usage.Add(each)
		}
	}
}
