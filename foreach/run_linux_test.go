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

	"github.com/sycbuild/sycbuild/jobs"
)

// TestRunWaitDoesNotSpin checks that Run waits for its children by
// blocking, not by polling: the context switches of the whole process
// while two children sleep do not grow with how long they sleep. A loop
// that sleeps and checks adds a voluntary switch per check, a busy loop
// adds involuntary ones when other work wants the CPU; a blocking wait
// adds one wake-up per child whatever the sleep. The test counts switches,
// not time, so a slow or loaded machine does not change its verdict; a
// burst of switches from elsewhere in the process could, which is why a
// verdict of polling must hold on each of three tries.
func TestRunWaitDoesNotSpin(t *testing.T) {
	// Polling at any interval under (long-short)/maxGrowth, 40 ms, adds
	// more than maxGrowth switches; starting two children costs about 75
	// whatever they do, give or take 15.
	const short, long, maxGrowth = "0.05", "2.05", 50
	var grown []int64
	for range 3 {
		g := switchesWhileSleeping(t, long) - switchesWhileSleeping(t, short)
		if g <= maxGrowth {
			return
		}
		grown = append(grown, g)
	}
	t.Errorf("waiting for children sleeping %ss took %v more context switches than for children sleeping %ss (tries: %v): waiting polls", long, grown[0], short, grown)
}

// switchesWhileSleeping runs two children that sleep for secs and returns
// the context switches, voluntary and involuntary, that the process made
// meanwhile.
func switchesWhileSleeping(t *testing.T, secs string) int64 {
	s := &Spec{Command: []string{"sleep", "{}"}, Lists: []List{{Replace: "{}", Items: []string{secs, secs}}}}
	before := switches(t)
	res, err := Run(context.Background(), s, Options{Pool: jobs.NewPool(2)})
	n := switches(t) - before
	if err != nil || res.ExitCode != 0 {
		t.Fatal(err, res.ExitCode)
	}
	t.Logf("%d context switches while two children slept %ss", n, secs)
	return n
}

func switches(t *testing.T) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return ru.Nvcsw + ru.Nivcsw
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
		r, err := Run(ctx, s, Options{Pool: jobs.NewPool(2), KillGrace: time.Second})
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
