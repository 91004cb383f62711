package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sycbuild/sycbuild/tools/clopt"
)

// CommandError is a failed command: what ran, how it ended, and the tail of
// what it printed.
type CommandError struct {
	Desc   string
	Argv   []string // exactly as run (temporary output names included)
	Status string   // "exit status 245", "signal: killed", "cannot run: …"
	Output []byte   // the last lines of its standard output and error
	// Missing lists declared outputs the command did not write.
	Missing []string
}

// tailLines is how much of a failing command's output is shown.
const tailLines = 20

func (e *CommandError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "FAILED: %s (%s)\n  $ %s", e.Desc, e.Status, ShellQuote(e.Argv))
	if len(e.Missing) > 0 {
		fmt.Fprintf(&b, "\n  it did not write %s", strings.Join(e.Missing, ", "))
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
	return b.String()
}

// tailBuffer keeps the last max bytes written to it; tools that print
// megabytes cannot make sycbuild hold them.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	max   int
	total int64
}

func newTail() *tailBuffer { return &tailBuffer{max: 64 << 10} }

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
	if t.total > int64(len(t.buf)) {
		// Cut to a line start so the tail does not begin mid-line.
		if i := bytes.IndexByte(t.buf, '\n'); i >= 0 {
			return append([]byte(nil), t.buf[i+1:]...)
		}
	}
	return append([]byte(nil), t.buf...)
}

// tempName is where an output is written while its command runs; it is
// renamed into place when the command succeeds. The name is fixed, so that
// nothing random ever appears in the build directory.
func tempName(out string) string { return out + ".tmp" }

// withTempOutputs returns argv with each output replaced by its temporary
// name where it is a whole argument or follows an '='.
func withTempOutputs(argv, outs []string) (run []string, temps map[string]string) {
	run = append([]string(nil), argv...)
	temps = map[string]string{}
	for i := 1; i < len(run); i++ {
		for _, o := range outs {
			switch {
			case run[i] == o:
				run[i] = tempName(o)
				temps[o] = tempName(o)
			case strings.HasSuffix(run[i], "="+o):
				run[i] = strings.TrimSuffix(run[i], o) + tempName(o)
				temps[o] = tempName(o)
			}
		}
	}
	return run, temps
}

// runCommand runs an external command in dir and moves its outputs into
// place. The command runs in its own process group; cancelling ctx kills
// the group, and temporary outputs are removed on any failure.
func runCommand(ctx context.Context, dir, desc string, argv, outs []string, output *tailBuffer) error {
	run, temps := withTempOutputs(argv, outs)
	at := func(p string) string {
		if dir != "" && !filepath.IsAbs(p) {
			return filepath.Join(dir, p)
		}
		return p
	}
	removeTemps := func() {
		for _, t := range temps {
			os.Remove(at(t))
		}
	}
	for _, o := range outs {
		os.MkdirAll(filepath.Dir(at(o)), 0o755)
	}
	removeTemps() // leftovers of an earlier, killed build
	cmd := exec.CommandContext(ctx, run[0], run[1:]...)
	cmd.Dir = dir
	cmd.Stdout = output
	cmd.Stderr = output
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if err != nil {
		removeTemps()
		status := err.Error()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			status = "cannot run: " + status
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return &CommandError{Desc: desc, Argv: run, Status: status, Output: output.Bytes()}
	}
	var missing []string
	for _, o := range outs {
		src := o
		if t, ok := temps[o]; ok {
			src = t
		}
		if _, err := os.Stat(at(src)); err != nil {
			missing = append(missing, src)
			continue
		}
		if src != o {
			if err := os.Rename(at(src), at(o)); err != nil {
				removeTemps()
				return err
			}
		}
	}
	if len(missing) > 0 {
		removeTemps()
		return &CommandError{Desc: desc, Argv: run, Status: "exit status 0", Output: output.Bytes(), Missing: missing}
	}
	return nil
}

// runMain runs an in-process tool. A panic in it is a failure of the
// action, not a crash of the build.
func runMain(desc string, argv []string, main MainFunc, output *tailBuffer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(output, "panic: %v\n%s", r, debug.Stack())
			err = &CommandError{Desc: desc, Argv: argv, Status: "panic (a bug in sycbuild)", Output: output.Bytes()}
		}
	}()
	code := main(argv[2:], clopt.Stdio{In: strings.NewReader(""), Out: output, Err: output})
	if code != 0 {
		return &CommandError{Desc: desc, Argv: argv, Status: fmt.Sprintf("exit status %d", code), Output: output.Bytes()}
	}
	return nil
}

// withoutChatter drops the tools' success chatter from a successful
// command's output.
func withoutChatter(out []byte, tools ...*Tool) []byte {
	drop := map[string]bool{}
	for _, t := range tools {
		for _, c := range t.Chatter {
			drop[c] = true
		}
	}
	if len(drop) == 0 || len(out) == 0 {
		return out
	}
	var b bytes.Buffer
	for _, l := range strings.SplitAfter(string(out), "\n") {
		if l != "" && !drop[strings.TrimRight(l, "\r\n")] {
			b.WriteString(l)
		}
	}
	return b.Bytes()
}
