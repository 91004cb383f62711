package foreach

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunWaitDoesNotSpin measures this process's own CPU time while two
// one-second children run: blocking waits cost almost nothing, a polling
// loop would burn about a second or more.
func TestRunWaitDoesNotSpin(t *testing.T) {
	s := &Spec{Command: []string{"sleep", "{}"}, Lists: []List{{Replace: "{}", Items: []string{"1", "1"}}}}
	before := cpuTime(t)
	start := time.Now()
	res, err := Run(context.Background(), s, Options{Pool: NewPool(2)})
	wall := time.Since(start)
	used := cpuTime(t) - before
	if err != nil || res.ExitCode != 0 {
		t.Fatal(err, res.ExitCode)
	}
	t.Logf("CPU time %v over %v of waiting", used, wall)
	if used > 150*time.Millisecond {
		t.Errorf("the process used %v of CPU while its children slept for %v: waiting spins", used, wall)
	}
}

func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestRunCancelStopsChildrenAndRemovesOutputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// Keep a writer open ourselves, so reading never sees end-of-file.
	f, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Each child writes part of its output, starts a grandchild, says
	// it started and sleeps.
	script := `echo partial > "$1"; sleep 60 & echo "$$ $!" > ` + fifo + `; wait`
	s := shList(script, "a", "b", "c")
	s.OutReplace, s.OutDir, s.OutExt, s.Deterministic = "OUT", dir, "o", true
	s.OutFileList = filepath.Join(dir, "list")

	ctx, cancel := context.WithCancelCause(context.Background())
	stopped := errors.New("stopped by the test")
	type result struct {
		res *Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := Run(ctx, s, Options{Pool: NewPool(2), KillGrace: time.Second})
		done <- result{r, err}
	}()
	var pids []int
	lines := bufio.NewScanner(f)
	timeout := time.AfterFunc(30*time.Second, func() { f.Close() })
	for len(pids) < 4 && lines.Scan() { // two children (pool of 2), each with a grandchild
		for _, w := range strings.Fields(lines.Text()) {
			pid, _ := strconv.Atoi(w)
			pids = append(pids, pid)
		}
	}
	timeout.Stop()
	if len(pids) < 4 {
		t.Fatal("the children did not start")
	}
	cancel(stopped)
	r := <-done
	if !errors.Is(r.err, stopped) {
		t.Errorf("Run returned %v, want the cancellation cause", r.err)
	}
	for _, pid := range pids {
		// A child is reaped before Run returns; a grandchild got SIGKILL
		// and may take a moment to go.
		deadline := time.Now().Add(5 * time.Second)
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("process %d is still alive after cancel", pid)
		}
	}
	ents, _ := os.ReadDir(dir)
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if fmt.Sprint(left) != "[started]" {
		t.Errorf("files left after cancel: %q", left)
	}
}

// alive reports whether process pid exists and is not a zombie (a dead
// process its new parent has not reaped yet).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}
