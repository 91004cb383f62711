package graph

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestUnusableOutputNotRecorded: a command that exits 0 but writes an
// empty output, or one its tool's Check rejects (a compiler out of disk
// space), fails; nothing is recorded or left, and the next build runs it
// again.
func TestUnusableOutputNotRecorded(t *testing.T) {
	for _, tc := range []struct {
		name, script, want string
	}{
		{"empty", `: > "$2"`, "it wrote an unusable output: img.bin is empty"},
		{"bad magic", `echo garbage > "$2"`, "it wrote an unusable output: img.bin: no IMG magic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTestBuild(t)
			tb.write("in.txt", "x")
			tb.write("script", tc.script)
			tool := &Tool{Name: "sh", Path: "sh", Version: "test", Check: func(head []byte, _ int64, _ io.ReaderAt) error {
				if !strings.HasPrefix(string(head), "IMG") {
					return errors.New("no IMG magic")
				}
				return nil
			}}
			tb.g.Add(&Action{Desc: "compile", Tool: tool, Argv: []string{"sh", "-c", `. ./script`, "sh", "in.txt", "img.bin"},
				In: []*Node{tb.g.File("in.txt", Plain), tb.g.File("script", Plain)}, Out: []*Node{tb.g.File("img.bin", Plain)}})
			res, err := tb.g.Build(context.Background(), tb.opts())
			if !errors.Is(err, ErrFailed) || res.Failed != 1 || !strings.Contains(tb.log.String(), tc.want) {
				t.Fatalf("err %v, %+v\n%s\nwant it to contain %q", err, res, tb.log.String(), tc.want)
			}
			if tb.exists("img.bin") || len(tb.temps("img.bin")) > 0 {
				t.Error("the unusable output was left")
			}
			// Space is freed: the tool works again, and the action runs.
			tb.write("script", `echo IMG > "$2"`)
			if res := tb.build(tb.opts()); res.Ran != 1 || tb.read("img.bin") != "IMG\n" {
				t.Errorf("rebuild: %+v", res)
			}
		})
	}
}

// TestFailedJobLeavesNoIntermediate: when a later step of a module's chain
// fails, the earlier steps' outputs of that module are removed.
func TestFailedJobLeavesNoIntermediate(t *testing.T) {
	tb, _ := fanoutBuild(t, "m0.txt", "m1.txt")
	// rev fails for m1 (after up was written and checked).
	tb.write("m1.txt", "fail\n")
	tb.g.actions[0].Fanout.Steps[2].Args[1] = `grep -q FAIL "$1" && exit 1; rev "$1" > "$2"; cat "$3" >> "$2"`
	opt := tb.opts()
	opt.KeepGoing = true
	if _, err := tb.g.Build(context.Background(), opt); !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v\n%s", err, tb.log.String())
	}
	if tb.exists("out/mod_1.up") {
		t.Error("the failed job's intermediate out/mod_1.up is left")
	}
	if !tb.exists("out/mod_0.up") || !tb.exists("out/mod_0.rev") {
		t.Error("the good job's outputs were removed")
	}
}

// TestStaleTempsRemoved: temporary files of killed builds beside an
// output are removed when its action runs; those of running processes
// are not.
func TestStaleTempsRemoved(t *testing.T) {
	tb := newTestBuild(t)
	tb.write("in.txt", "x")
	dead := testenv.Run(t, "true")
	stale := fmt.Sprintf("out/.o.txt.tmp%d-7", dead.Process.Pid)
	live := fmt.Sprintf("out/.o.txt.tmp%d-7", os.Getppid())
	tb.write(stale, "stray")
	tb.write(live, "running")
	tb.sh("copy", `cp "$1" "$2"`, []string{"in.txt"}, []string{"out/o.txt"}, "in.txt", "out/o.txt")
	tb.build(tb.opts())
	if tb.exists(stale) || !tb.exists(live) || tb.read("out/o.txt") != "x" {
		t.Errorf("stale left %v, live left %v", tb.exists(stale), tb.exists(live))
	}
}

// TestLockWaitInterruptible: a build waiting for another build's lock
// stops waiting when interrupted; without a state directory (no cache) it
// still locks the directory it is given.
func TestLockWaitInterruptible(t *testing.T) {
	for _, noCache := range []bool{false, true} {
		tb := newTestBuild(t)
		tb.write("in.txt", "x")
		tb.sh("copy", `cp "$1" "$2"`, []string{"in.txt"}, []string{"out/o.txt"}, "in.txt", "out/o.txt")
		opt := tb.opts()
		opt.LockDir = filepath.Join(tb.dir, "out")
		if noCache {
			opt.StateDir = ""
		}
		os.MkdirAll(opt.LockDir, 0o755)
		held, err := os.Open(opt.LockDir)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		waiting := make(chan struct{})
		opt.Observer = NewProgress(writerFunc(func(b []byte) {
			if strings.Contains(string(b), "waiting for another sycbuild") {
				close(waiting)
			}
		}), false)
		done := make(chan error)
		go func() {
			_, err := tb.g.Build(ctx, opt)
			done <- err
		}()
		<-waiting
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("no-cache %v: err = %v", noCache, err)
		}
		if tb.exists("out/o.txt") {
			t.Errorf("no-cache %v: the build ran while another held the lock", noCache)
		}
		held.Close()
	}
}

type writerFunc func([]byte)

func (w writerFunc) Write(b []byte) (int, error) { w(b); return len(b), nil }

// TestDashPaths: a file whose name starts with '-' reaches every command
// as ./-…, also in a fan-out and while it is written.
func TestDashPaths(t *testing.T) {
	tb := newTestBuild(t)
	tb.write("-in.txt", "data")
	tb.sh("copy", `case "$1" in -*) exit 1;; esac; cp "$1" "$2"`, []string{"-in.txt"}, []string{"-out/-o.txt"}, "-in.txt", "-out/-o.txt")
	tb.build(tb.opts())
	if tb.read("-out/-o.txt") != "data" {
		t.Error("wrong output")
	}
	f := &Fanout{List: tb.g.File("-l.list", List), Dir: "-out", Steps: []*Step{
		{Tool: shTool, Args: []string{"-c", `case "$1$2" in -*) exit 1;; esac; cp "$1" "$2"`, "sh", "m.src", "m.dst"},
			In: []StepInput{{"m.src", -1}}, Out: &StepOutput{"m.dst", "dst", tb.g.File("-out/dst.list", List)}}}}
	tb.write("-l.list", "-in.txt\n")
	if err := tb.g.Add(&Action{Desc: "fan", Fanout: f, In: []*Node{f.List}, Out: []*Node{f.Steps[0].Out.List}}); err != nil {
		t.Fatal(err)
	}
	tb.build(tb.opts())
	if tb.read("-out/m_0.dst") != "data" {
		t.Error("wrong fan-out output")
	}
}

// TestResponseFile: a command line longer than the system takes goes to a
// tool that reads response files as @file, which is removed afterwards.
func TestResponseFile(t *testing.T) {
	tb := newTestBuild(t)
	// The tool: a script that takes "@file" and copies the last argument
	// listed in it, checking that a quoted argument survived.
	tb.write("tool", "#!/bin/sh\ncase \"$1\" in @*) ;; *) exit 9;; esac\n"+
		"grep -qx 'a\\\\ b\\\\\\\\c' \"${1#@}\" || exit 8\n"+
		"cp in.txt \"$(sed -n '$p' \"${1#@}\")\"\n")
	os.Chmod(filepath.Join(tb.dir, "tool"), 0o755)
	tb.write("in.txt", "x")
	long := strings.Repeat("-v ", maxArgBytes/3+10)
	argv := append([]string{"./tool"}, strings.Fields(long)...)
	argv = append(argv, `a b\c`, "out.txt")
	tool := &Tool{Name: "tool", Path: "./tool", Version: "1", ResponseFiles: true}
	tb.g.Add(&Action{Desc: "long", Tool: tool, Argv: argv, In: []*Node{tb.g.File("in.txt", Plain)}, Out: []*Node{tb.g.File("out.txt", Plain)}})
	tb.build(tb.opts())
	if tb.read("out.txt") != "x" {
		t.Error("wrong output")
	}
	if m, _ := filepath.Glob(filepath.Join(tb.dir, ".*rsp*")); len(m) > 0 {
		t.Errorf("response file left: %v", m)
	}
}

// TestLogRecordsOnlyDurable: a record reaches the log only after its
// files were synced; when they cannot be, it is not written.
func TestLogRecordsOnlyDurable(t *testing.T) {
	dir := t.TempDir()
	l, err := openLog(context.Background(), dir, "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "good"), []byte("x"), 0o644)
	if err := l.put(&record{name: "good", key: "k"}, []string{filepath.Join(dir, "good")}); err != nil {
		t.Fatal(err)
	}
	if err := l.put(&record{name: "lost", key: "k"}, []string{filepath.Join(dir, "missing")}); err != nil {
		t.Fatal(err) // put only queues: the error is Close's
	}
	if err := l.Close(); err == nil {
		t.Error("a record whose file cannot be synced was accepted")
	}
	data, _ := os.ReadFile(filepath.Join(dir, logName))
	if !strings.Contains(string(data), "good\tk") || strings.Contains(string(data), "lost\t") {
		t.Errorf("log:\n%s", data)
	}
}

// TestOutputIntoSpecialFile: an action's output that is a FIFO or a
// symlink in the build's directory is written into, not replaced.
func TestOutputIntoSpecialFile(t *testing.T) {
	tb := newTestBuild(t)
	tb.write("in.txt", "x")
	tb.write("real.bin", "old and longer")
	os.Symlink("real.bin", filepath.Join(tb.dir, "link.bin"))
	fifo := filepath.Join(tb.dir, "pipe.bin")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tool := &Tool{Name: "sh", Path: "sh", Version: "test"}
	tb.g.Add(&Action{Desc: "copy", Tool: tool, Argv: []string{"sh", "-c", `echo new > "$1"; echo piped > "$2"`, "sh", "link.bin", "pipe.bin"},
		In: []*Node{tb.g.File("in.txt", Plain)}, Out: []*Node{tb.g.File("link.bin", Plain), tb.g.File("pipe.bin", Plain)}})
	if _, err := tb.g.Build(context.Background(), tb.opts()); err != nil {
		t.Fatalf("%v\n%s", err, tb.log.String())
	}
	if fi, err := os.Lstat(filepath.Join(tb.dir, "link.bin")); err != nil || fi.Mode().Type() != os.ModeSymlink {
		t.Errorf("link.bin was replaced: %v", err)
	}
	if got := tb.read("real.bin"); got != "new\n" {
		t.Errorf("the symlink's target holds %q", got)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode().Type() != os.ModeNamedPipe {
		t.Errorf("pipe.bin was replaced: %v", err)
	}
	b := make([]byte, 64)
	r.SetReadDeadline(time.Now().Add(time.Second))
	if n, _ := r.Read(b); string(b[:n]) != "piped\n" {
		t.Errorf("the FIFO's reader got %q", b[:n])
	}
}

// TestFailedCommandKeepsSpecialOutput: a command that fails after writing
// in place to an output that is a FIFO (not named whole in its command
// line, so not written to a temporary name) does not remove it.
func TestFailedCommandKeepsSpecialOutput(t *testing.T) {
	tb := newTestBuild(t)
	tb.write("in.txt", "x")
	fifo := filepath.Join(tb.dir, "pipe.bin")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tb.g.Add(&Action{Desc: "fail", Tool: shTool, Argv: []string{"sh", "-c", `exit 3`, "sh", "in.txt", "--out=./pipe.bin"},
		In: []*Node{tb.g.File("in.txt", Plain)}, Out: []*Node{tb.g.File("pipe.bin", Plain)}})
	if _, err := tb.g.Build(context.Background(), tb.opts()); !errors.Is(err, ErrFailed) {
		t.Fatalf("err %v", err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode().Type() != os.ModeNamedPipe {
		t.Errorf("the FIFO was removed: %v", err)
	}
}
