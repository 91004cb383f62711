//go:build linux

package jobs

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// run runs sh -c script in dir with its output captured, and returns the
// output, the usage and the error.
func run(t *testing.T, ctx context.Context, dir, script string, grace time.Duration) (string, *Usage, error) {
	t.Helper()
	out, err := CaptureFile()
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	c := Command{Argv: []string{"sh", "-c", script}, Dir: dir, Stdout: out, Stderr: out, Grace: grace}
	u, err := c.Run(ctx)
	if _, serr := out.Seek(0, io.SeekStart); serr != nil {
		t.Fatal(serr)
	}
	b, rerr := io.ReadAll(out)
	if rerr != nil {
		t.Fatal(rerr)
	}
	return string(b), u, err
}

func TestCommandRun(t *testing.T) {
	dir := t.TempDir()
	out, u, err := run(t, context.Background(), dir, `echo out; echo err >&2; pwd -P; echo "PWD=$PWD"; read x || echo no-input`, 0)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	for _, want := range []string{"out\n", "err\n", real + "\n", "PWD=" + dir + "\n", "no-input\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output %q lacks %q", out, want)
		}
	}
	if u == nil || u.ExitCode != 0 || u.Wall <= 0 {
		t.Errorf("usage %+v, want exit code 0 and a wall time", u)
	}
}

// The environment a child gets is remembered between commands (see
// environ): a change of this process's environment or of the directory
// must still reach the next child.
func TestCommandRunEnvironment(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir()}
	for i, tc := range []struct{ dir, value string }{
		{dirs[0], "one"}, {dirs[0], "one"}, {dirs[0], "two"}, {dirs[1], "two"}, {"", "three"},
	} {
		t.Setenv("SYCBUILD_TEST_VALUE", tc.value)
		out, _, err := run(t, context.Background(), tc.dir, `echo "$SYCBUILD_TEST_VALUE $PWD"`, 0)
		if err != nil {
			t.Fatalf("command %d: %v", i, err)
		}
		want := tc.value + " " + tc.dir + "\n"
		if tc.dir == "" && strings.HasPrefix(out, tc.value+" ") {
			continue // PWD is the shell's to set
		}
		if out != want {
			t.Errorf("command %d in %q with the value %q: output %q, want %q", i, tc.dir, tc.value, out, want)
		}
	}
}

func TestCommandRunExit(t *testing.T) {
	for _, tc := range []struct {
		script string
		msg    string
		code   int // ExitCode's
		usage  int // Usage.ExitCode
	}{
		{"exit 3", "exit status 3", 3, 3},
		{"kill -KILL $$", "signal: killed", 128 + int(syscall.SIGKILL), -1},
	} {
		_, u, err := run(t, context.Background(), "", tc.script, 0)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || err.Error() != tc.msg {
			t.Errorf("%s: error %v (%T), want an *exec.ExitError %q", tc.script, err, err, tc.msg)
			continue
		}
		if got := ExitCode(err); got != tc.code {
			t.Errorf("%s: ExitCode = %d, want %d", tc.script, got, tc.code)
		}
		if u == nil || u.ExitCode != tc.usage {
			t.Errorf("%s: usage %+v, want exit code %d", tc.script, u, tc.usage)
		}
	}
}

func TestCommandRunNotStarted(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "missing")
	c := Command{Argv: []string{prog}}
	u, err := c.Run(context.Background())
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "fork/exec" || pe.Path != prog || u != nil {
		t.Errorf("Run of a missing program: %v (%T), usage %+v; want a fork/exec error and no usage", err, err, u)
	}
	if ExitCode(err) != 1 {
		t.Errorf("ExitCode = %d, want 1", ExitCode(err))
	}
}

// TestCommandRunCancel cancels a child that ignores SIGTERM: it and its
// own child are gone after Run, which returns the context's cause.
func TestCommandRunCancel(t *testing.T) {
	for _, grace := range []time.Duration{0, 50 * time.Millisecond} {
		dir := t.TempDir()
		cause := errors.New("stopped by the test")
		ctx, cancel := context.WithCancelCause(context.Background())
		pidFile := filepath.Join(dir, "pid")
		go func() {
			for {
				if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
					cancel(cause)
					return
				}
				time.Sleep(time.Millisecond)
			}
		}()
		_, u, err := run(t, ctx, dir, `trap '' TERM; sleep 60 & echo $! > pid; wait`, grace)
		if !errors.Is(err, cause) {
			t.Errorf("grace %v: Run = %v, want the context's cause", grace, err)
		}
		if u == nil {
			t.Errorf("grace %v: no usage for a child that ran", grace)
		}
		b, _ := os.ReadFile(pidFile)
		pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
		if perr != nil {
			t.Fatalf("grace %v: pid file %q: %v", grace, b, perr)
		}
		// The grandchild was killed with its group; it may not be reaped
		// yet (its parent is gone), so wait for it to be a zombie or gone.
		for tries := 0; ; tries++ {
			st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
			if err != nil || strings.Contains(string(st), ") Z ") {
				break
			}
			if tries == 10000 {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("grace %v: the child's child %d outlived the cancelled Run", grace, pid)
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// TestCommandRunQuickExits runs commands that exit at once, many times:
// most exit before their wait starts, and each must still be seen to end.
func TestCommandRunQuickExits(t *testing.T) {
	out, err := CaptureFile()
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	for _, c := range []Command{
		{Argv: []string{"true"}, Stdout: out, Stderr: out}, // started directly
		{Argv: []string{"true"}},                           // through exec.Cmd
	} {
		for i := 0; i < 200; i++ {
			done := make(chan error, 1)
			go func() {
				_, err := c.Run(context.Background())
				done <- err
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("run %d of %q: %v", i, c.Argv, err)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("run %d of %q: its exit was not seen after 20 s", i, c.Argv)
			}
		}
	}
}

// TestRunPipeline runs commands joined by pipes, by absolute path (the
// direct start) and by name, and checks that this process keeps no end of
// a pipe: a producer whose consumer stops reading ends (broken pipe), and a
// consumer whose producer did not start sees the end of its input.
func TestRunPipeline(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	file := func(name string) *os.File {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return string(b)
	}
	for _, prog := range []string{sh, "sh"} {
		out := file("out")
		usages, errs := RunPipeline(ctx, []*Command{
			{Argv: []string{prog, "-c", "echo one; echo two; echo to-stderr >&2"}, Stderr: out},
			{Argv: []string{prog, "-c", "tr a-z A-Z"}, Stdout: out, Stderr: out},
			{Argv: []string{prog, "-c", "read x || echo no-input"}, Stdout: out},
		})
		if errs[0] != nil || errs[1] != nil || errs[2] != nil {
			t.Fatalf("%s: errors %v", prog, errs)
		}
		for i, u := range usages {
			if u == nil || u.ExitCode != 0 {
				t.Errorf("%s: usage %d: %+v", prog, i, u)
			}
		}
		if got := read("out"); !strings.Contains(got, "to-stderr\n") || strings.Contains(got, "one") || strings.Contains(got, "no-input") {
			t.Errorf("%s: output %q: want stderr of the first, nothing of the second's input (the third read it)", prog, got)
		}
	}
	// The consumer stops reading at once: the endless producer gets a broken pipe.
	usages, errs := RunPipeline(ctx, []*Command{
		{Argv: []string{"yes"}},
		{Argv: []string{"head", "-c", "4"}, Stdout: file("head")},
	})
	if errs[1] != nil || read("head") != "y\ny\n" {
		t.Errorf("head: %v, wrote %q", errs[1], read("head"))
	}
	var ee *exec.ExitError
	if !errors.As(errs[0], &ee) || signalOf(ee) != int(syscall.SIGPIPE) || usages[0] == nil {
		t.Errorf("yes: %v (usage %+v), want it killed by SIGPIPE", errs[0], usages[0])
	}
	// The producer does not start: the consumer reads nothing and ends.
	usages, errs = RunPipeline(ctx, []*Command{
		{Argv: []string{filepath.Join(dir, "missing")}},
		{Argv: []string{"wc", "-c"}, Stdout: file("wc")},
	})
	if !errors.Is(errs[0], fs.ErrNotExist) || usages[0] != nil || errs[1] != nil || strings.TrimSpace(read("wc")) != "0" {
		t.Errorf("missing producer: %v / %v, usage %+v, wc wrote %q", errs[0], errs[1], usages[0], read("wc"))
	}
	if ctx.Err() != nil {
		t.Fatal("a pipeline hung: this process kept an end of a pipe")
	}
}
