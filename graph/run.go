package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/internal/basedir"
	"github.com/sycbuild/sycbuild/jobs"
)

// CommandError is a failed command: what ran, how it ended, and the tail of
// what it printed.
type CommandError struct {
	Desc   string
	Argv   []string // as printed: outputs under their own names
	Status string   // "exit status 245", "signal: killed", "cannot run: …"
	Output []byte   // the last lines of its standard output and error
	// Missing lists declared outputs the command did not write.
	Missing []string
	// Isolation, for a fan-out job's command, says which kernels of its
	// module fail alone (Fanout.Isolate).
	Isolation string
	// TimedOut says the command ran past its tool's timeout and was
	// stopped.
	TimedOut bool
	// NodeFailed says the machine the command ran on failed under it, on
	// both of its attempts: the command is not at fault, and no fallback
	// or isolation is tried.
	NodeFailed bool
	// Invalid says which outputs cannot be what the command writes (empty,
	// or failing the tool's format check), and why.
	Invalid []string
}

// tailLines is how much of a failing command's output is shown.
const tailLines = 20

func (e *CommandError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "FAILED: %s (%s)\n  $ %s", e.Desc, e.Status, ShellQuote(e.Argv))
	if len(e.Missing) > 0 {
		fmt.Fprintf(&b, "\n  it did not write %s", strings.Join(e.Missing, ", "))
	}
	for _, why := range e.Invalid {
		fmt.Fprintf(&b, "\n  it wrote an unusable output: %s", why)
	}
	out := bytes.TrimRight(e.Output, "\n")
	if len(out) > 0 {
		lines := strings.Split(string(out), "\n")
		if len(lines) > tailLines {
			fmt.Fprintf(&b, "\n  | … (%d earlier lines)", len(lines)-tailLines)
			lines = lines[len(lines)-tailLines:]
		}
		for _, l := range lines {
			b.WriteString("\n  | ")
			b.WriteString(l)
		}
	}
	if e.Isolation != "" {
		b.WriteString("\n  isolated: " + e.Isolation)
	}
	return b.String()
}

// tailBuffer keeps the last max bytes written to it; tools that print
// megabytes cannot make sycbuild hold them. In-process tools write to one.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	max   int
	total int64
}

func newTail() *tailBuffer { return &tailBuffer{max: tailBytes} }

// tailBytes is how much of a command's output is kept.
const tailBytes = 64 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return cutToLine(append([]byte(nil), t.buf...), t.total > int64(len(t.buf)))
}

// cutToLine drops a partial first line from a truncated tail.
func cutToLine(b []byte, truncated bool) []byte {
	if truncated {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			return b[i+1:]
		}
	}
	return b
}

// External commands write their output straight into a capture file, one
// per job slot, unlinked and reused: no pipe, no copying goroutine, no
// allocation per command (what a fan-out of thousands of commands pays
// while it waits).

// A capture is where a unit's commands write their output: a slot's
// capture file, from offset start on (the commands write at the file's
// offset, which is thus its end).
type capture struct {
	f     *os.File
	start int64
}

// captureLimit is how large a capture file grows before it is emptied:
// most successful commands print a line or nothing, and emptying it for
// every unit cost a truncate and a seek each.
const captureLimit = 1 << 20

// capture returns the capture of a job slot for the next unit.
func (b *builder) capture(slot int) (capture, error) {
	b.mu.Lock()
	f := b.captures[slot]
	b.mu.Unlock()
	if f == nil {
		var err error
		if f, err = jobs.CaptureFile(); err != nil {
			return capture{}, err
		}
		b.mu.Lock()
		b.captures[slot] = f
		b.mu.Unlock()
	}
	end, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return capture{}, err
	}
	if end < captureLimit {
		return capture{f, end}, nil
	}
	return newCapture(f)
}

// newCapture empties f and captures from its start.
func newCapture(f *os.File) (capture, error) {
	if err := f.Truncate(0); err != nil {
		return capture{}, err
	}
	_, err := f.Seek(0, io.SeekStart)
	return capture{f, 0}, err
}

// tail returns the last tailBytes of what was captured.
func (c capture) tail() []byte { return c.last(tailBytes) }

// last returns the last limit bytes of what was captured, from a line's
// start.
func (c capture) last(limit int64) []byte {
	end, err := c.f.Seek(0, io.SeekCurrent)
	if err != nil || end <= c.start {
		return nil
	}
	from := max(end-limit, c.start)
	buf := make([]byte, end-from)
	n, _ := c.f.ReadAt(buf, from)
	return cutToLine(buf[:n], from > c.start)
}

func (b *builder) closeCaptures() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, f := range b.captures {
		f.Close()
	}
	b.captures = nil
}

// withTempOutputs returns argv with each output replaced by a temporary
// name where it is a whole argument (also written "./-…", see dashSafe) or
// follows an '='. Temporary names are unique to this process and call
// (atomicfile.TempName): a writer left over from a killed build can never
// write a file this build takes for its own.
func withTempOutputs(argv, outs []string) (run []string, temps map[string]string) {
	run = append([]string(nil), argv...)
	temps = map[string]string{}
	temp := func(o string) string {
		if t, ok := temps[o]; ok {
			return t
		}
		temps[o] = atomicfile.TempName(o)
		return temps[o]
	}
	for i := 1; i < len(run); i++ {
		for _, o := range outs {
			switch {
			case run[i] == o:
				run[i] = temp(o)
			case run[i] == "./"+o && strings.HasPrefix(o, "-"):
				run[i] = "./" + temp(o)
			case strings.HasSuffix(run[i], "="+o):
				run[i] = strings.TrimSuffix(run[i], o) + temp(o)
			}
		}
	}
	return run, temps
}

// maxArgBytes is the longest command line passed directly; a longer one
// goes through a response file where the tool reads one. Linux allows a
// quarter of the stack limit (at least 128 KiB, 2 MiB by default) for the
// arguments and the environment together.
const maxArgBytes = 64 << 10

func argBytes(argv []string) int {
	n := 0
	for _, a := range argv {
		n += len(a) + 1
	}
	return n
}

// writeResponseFile writes args to a new response file beside the file
// near, in the GNU syntax LLVM's tools read (each character that would
// split or quote escaped with a backslash), and returns its name.
func writeResponseFile(near string, args []string) (string, error) {
	name := atomicfile.TempName(near + ".rsp")
	var b strings.Builder
	for _, a := range args {
		for _, c := range []byte(a) {
			switch c {
			case ' ', '\t', '\n', '\r', '\\', '\'', '"':
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return name, os.WriteFile(name, []byte(b.String()), 0o644)
}

// errTimedOut is the cause of a command's context when its tool's Timeout
// passed.
var errTimedOut = errors.New("timed out")

// A command is one external command of an action or a job: what it is
// called in messages, its tool and its command line.
type command struct {
	desc string
	tool *Tool
	argv []string
}

// runCommand runs an external command, or a pipeline of them (each one's
// standard output going to the next one's standard input), in the build's
// directory (Options.Dir), and moves the outputs of the last one into place
// (their directories must exist). Each command runs in its own process
// group and is killed if sycbuild dies (a parent-death signal); cancelling
// ctx kills the groups. Every output must be non-empty and pass the last
// tool's Check. On any failure no output is left: the temporary files are
// removed, and so are outputs written under their own names. The usages
// are the children's, nil for one that did not start; where is where
// Options.Runner ran them; failed is the index
// of the command an error is about. When all succeeded,
// wrote (if not nil) is given each output with its size, time and hash,
// taken before its rename into place, which keeps them: each output is
// opened once, to check and hash it (inspect).
func (b *builder) runCommand(ctx context.Context, cmds []command, outs []string, req jobs.Request, output capture, wrote func(string, fileState)) (usages []*Usage, where Where, failed int, err error) {
	last := cmds[len(cmds)-1]
	run, temps := withTempOutputs(last.argv, outs)
	at := func(p string) string { return basedir.Resolve(b.opt.Dir, p) }
	removeTemps := func() {
		for _, t := range temps {
			os.Remove(at(t))
		}
	}
	removeOutputs := func() {
		removeTemps()
		for _, o := range outs {
			// A device or FIFO written in place is not the command's to
			// remove.
			if _, ok := temps[o]; !ok && !atomicfile.Special(at(o)) {
				os.Remove(at(o))
			}
		}
	}
	jcmds, timeout, rsps, i, err := b.jobCommands(cmds, run, outs, output)
	defer func() {
		for _, rsp := range rsps {
			os.Remove(rsp)
		}
	}()
	if err != nil {
		return nil, where, i, err
	}
	usages, where, failed, err = b.dispatch(ctx, cmds, jcmds, req, timeout, output, removeOutputs)
	if err != nil {
		return usages, where, failed, err
	}
	var check func([]byte, int64, io.ReaderAt) error
	if tool := last.tool; tool != nil {
		check = tool.Check
	}
	var missing, invalid []string
	states := make([]fileState, len(outs))
	for i, o := range outs {
		written := at(o)
		if t, ok := temps[o]; ok {
			written = at(t)
		}
		st, bad, err := inspect(written, check, wrote != nil)
		states[i] = st
		switch {
		case errors.Is(err, fs.ErrNotExist):
			missing = append(missing, o)
		case err != nil:
			invalid = append(invalid, o+": "+err.Error())
		case bad != "":
			invalid = append(invalid, o+bad)
		}
	}
	if len(missing) > 0 || len(invalid) > 0 {
		removeOutputs()
		return usages, where, failed, &CommandError{Desc: last.desc, Argv: last.argv, Status: "exit status 0", Output: output.tail(), Missing: missing, Invalid: invalid}
	}
	if err := b.place(outs, temps, states, removeTemps, removeOutputs); err != nil {
		return usages, where, failed, err
	}
	if wrote != nil {
		for i, o := range outs {
			wrote(o, states[i])
		}
	}
	return usages, where, failed, nil
}

// jobCommands makes the jobs.Commands of runCommand's commands, the last
// one's command line being run (its outputs under temporary names); their
// output goes to output. A command line too long for the system goes into
// a response file where its tool reads one: rsps are those to remove once
// the commands ran. timeout is the pipeline's, the sum of its tools', when
// each has one (else -1). On failure, failed is the command that err is
// about.
func (b *builder) jobCommands(cmds []command, run, outs []string, output capture) (jcmds []*jobs.Command, timeout time.Duration, rsps []string, failed int, err error) {
	jcmds = make([]*jobs.Command, len(cmds))
	for i, c := range cmds {
		argv := c.argv
		if i == len(cmds)-1 {
			argv = run
		}
		args := argv[1:]
		if c.tool != nil && c.tool.ResponseFiles && argBytes(argv) > maxArgBytes && len(outs) > 0 {
			rsp, err := writeResponseFile(b.path(outs[0]), args)
			rsps = append(rsps, rsp)
			if err != nil {
				return nil, 0, rsps, i, err
			}
			args = []string{"@" + rsp}
		}
		jcmds[i] = &jobs.Command{Argv: append([]string{argv[0]}, args...), Dir: b.workDir, Stdout: output.f, Stderr: output.f}
		switch {
		case c.tool == nil || c.tool.Timeout <= 0:
			timeout = -1
		case timeout >= 0:
			timeout += c.tool.Timeout
		}
	}
	return jcmds, timeout, rsps, 0, nil
}

// place moves the outputs a command wrote under their temporary names
// (temps) into place; states are what inspect saw of them, and become
// what the log keeps (an output left in place keeps its own). An output
// in place leaves temps, so that a later failure removes it by its name
// (and an output named twice is placed once). On failure it removes what
// runCommand would (removeTemps, or removeOutputs).
func (b *builder) place(outs []string, temps map[string]string, states []fileState, removeTemps, removeOutputs func()) error {
	for i, o := range outs {
		t, ok := temps[o]
		if !ok {
			continue
		}
		if kept, ok := b.unchanged(o, b.path(o), states[i]); ok {
			// The file in place already holds these bytes: it stays, with
			// its time, and the new copy goes before it reaches the disk.
			syscall.Unlink(b.path(t))
			states[i] = kept
			delete(temps, o)
			continue
		}
		// A device, FIFO or symlink in the output's place (-o /dev/null)
		// is written into, never replaced.
		if atomicfile.Special(b.path(o)) {
			if err := atomicfile.Place(b.path(t), b.path(o)); err != nil {
				removeTemps()
				return err
			}
			delete(temps, o)
			continue
		}
		// The output the command replaces is removed first: ext4 writes a
		// file's data at once, in the renaming thread, when a rename
		// replaces another file (auto_da_alloc), which made the renames the
		// largest part of sycbuild's own CPU on a rebuild; the new data is
		// written back with the log's sync instead. A crash between the two
		// calls leaves no output, which the next build makes again.
		if err := syscall.Unlink(b.path(o)); err != nil && err != syscall.ENOENT {
			removeOutputs()
			return &os.PathError{Op: "remove", Path: o, Err: err}
		}
		// rename(2) itself: os.Rename would first lstat the output.
		if err := syscall.Rename(b.path(t), b.path(o)); err != nil {
			removeOutputs()
			return &os.LinkError{Op: "rename", Old: t, New: o, Err: err}
		}
		delete(temps, o)
	}
	return nil
}

// dispatch runs the commands of runCommand through the runner, each
// attempt under their timeout (when each has one), and says how the last
// attempt ended: a failure is a *CommandError, unless ctx ended. A node
// that failed under them (jobs.ErrNodeFailed) is not their fault: they run
// once more, elsewhere (Request.Exclude), after remove removed what the
// first attempt wrote; failing twice so, they fail with that said, and
// NodeFailed set. A command killed for its memory (jobs.ErrMemoryKilled)
// fails naming the memory it was given.
func (b *builder) dispatch(ctx context.Context, cmds []command, jcmds []*jobs.Command, req jobs.Request, timeout time.Duration, output capture, remove func()) (usages []*Usage, where Where, failed int, err error) {
	var first Where
	timedOut := false
	for attempt := 0; ; attempt++ {
		usages, where, failed, timedOut, err = b.attempt(ctx, jcmds, req, timeout)
		if err == nil {
			return usages, where, failed, nil
		}
		remove()
		if ctx.Err() != nil {
			return usages, where, failed, err
		}
		if attempt > 0 || !errors.Is(err, jobs.ErrNodeFailed) {
			break
		}
		first = where
		if where.Node != "" {
			req.Exclude = append(slices.Clip(req.Exclude), where.Node)
		}
		b.obs.Message(fmt.Sprintf("sycbuild: note: %s: its node %s failed under it; it runs again on another", cmds[failed].desc, nodeText(where)))
		// The second attempt's output is shown, not the first's.
		if end, serr := output.f.Seek(0, io.SeekCurrent); serr == nil {
			output.start = end
		}
	}
	ce := &CommandError{Desc: cmds[failed].desc, Argv: cmds[failed].argv, Status: err.Error(), Output: output.tail(), TimedOut: timedOut}
	var ee *exec.ExitError
	switch {
	case timedOut:
		ce.Status = fmt.Sprintf("timed out after %v, stopped", timeout)
	case errors.Is(err, jobs.ErrNodeFailed):
		ce.NodeFailed = true
		ce.Status = fmt.Sprintf("its node failed under it twice (%s, then %s); the command is not at fault: %v", nodeText(first), nodeText(where), err)
	case errors.Is(err, jobs.ErrMemoryKilled) && req.Memory > 0:
		ce.Status = fmt.Sprintf("killed for using more than the %s of memory it was given: %v", memText(req.Memory), err)
	case errors.Is(err, jobs.ErrMemoryKilled):
		ce.Status = fmt.Sprintf("killed for using more memory than its node gave it (nothing predicted its peak): %v", err)
	case !errors.As(err, &ee):
		ce.Status = "cannot run: " + ce.Status
	}
	return usages, where, failed, ce
}

// attempt runs commands through the runner once, under their timeout
// when it is positive.
func (b *builder) attempt(ctx context.Context, jcmds []*jobs.Command, req jobs.Request, timeout time.Duration) (usages []*Usage, where Where, failed int, timedOut bool, err error) {
	run := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		run, cancel = context.WithTimeoutCause(ctx, timeout, errTimedOut)
		defer cancel()
	}
	usages, errs, where := b.runner.Run(run, jcmds, req)
	failed, err = firstFailure(errs)
	return usages, where, failed, err != nil && ctx.Err() == nil && errors.Is(context.Cause(run), errTimedOut), err
}

// nodeText names a node in messages.
func nodeText(w Where) string {
	if w.Node == "" {
		return "(unnamed)"
	}
	return w.Node
}

// memText writes a number of bytes in MiB or GiB.
func memText(n int64) string {
	if n >= 1<<30 {
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 0, 64) + " MiB"
}

// unchanged says whether the output o (at path) still is the file the
// build log last knew (same size and modification time) and holds what a
// command has just written (st: same size and hash); kept is then its
// state.
// Replacing such a file would cost an unlink and a rename, and the
// writing of the new copy's data, for the same bytes.
func (b *builder) unchanged(o, path string, st fileState) (kept fileState, ok bool) {
	known, ok := b.log.fact(o)
	if !ok || st.hash == "" || known.hash != st.hash || known.size != st.size {
		return fileState{}, false
	}
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != known.size || fi.ModTime().UnixNano() != known.mtime {
		return fileState{}, false
	}
	return known, true
}

// firstFailure picks the failure of a pipeline to report: the first
// command's that failed other than by a broken pipe (which a command gets
// when a later one stopped reading, see jobs.BrokenPipe), else the first
// one's.
func firstFailure(errs []error) (int, error) {
	first := -1
	for i, err := range errs {
		if err == nil {
			continue
		}
		if !jobs.BrokenPipe(err) {
			return i, err
		}
		if first < 0 {
			first = i
		}
	}
	if first < 0 {
		return len(errs) - 1, nil
	}
	return first, errs[first]
}

// runMain runs an in-process tool. A panic in it is a failure of the
// action, not a crash of the build.
func runMain(desc string, env Env, argv []string, main MainFunc, output *tailBuffer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(output, "panic: %v\n%s", r, toolStack(debug.Stack()))
			err = &CommandError{Desc: desc, Argv: argv, Status: "panic (a bug in sycbuild)", Output: output.Bytes()}
		}
	}()
	code := main(env, argv[2:], Stdio{In: strings.NewReader(""), Out: output, Err: output})
	if code != 0 {
		return &CommandError{Desc: desc, Argv: argv, Status: fmt.Sprintf("exit status %d", code), Output: output.Bytes()}
	}
	return nil
}

// toolStack cuts a stack trace taken in runMain's recover after the
// runMain frame: what called it is the builder, not the tool.
func toolStack(stack []byte) []byte {
	lines := bytes.SplitAfter(stack, []byte("\n"))
	for i, l := range lines {
		if bytes.Contains(l, []byte("graph.runMain(")) && i+1 < len(lines) {
			return bytes.Join(lines[:i+2], nil)
		}
	}
	return stack
}

// withoutChatter drops the tools' success chatter from a successful
// command's output.
func withoutChatter(out []byte, tools ...*Tool) []byte {
	drop := map[string]bool{}
	var prefixes []string
	for _, t := range tools {
		for _, c := range t.Chatter {
			if p, ok := strings.CutSuffix(c, "*"); ok {
				prefixes = append(prefixes, p)
			} else {
				drop[c] = true
			}
		}
	}
	if (len(drop) == 0 && len(prefixes) == 0) || len(out) == 0 {
		return out
	}
	var b bytes.Buffer
	for _, l := range strings.SplitAfter(string(out), "\n") {
		line := strings.TrimRight(l, "\r\n")
		if l != "" && !drop[line] && !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(line, p) }) {
			b.WriteString(l)
		}
	}
	return b.Bytes()
}
