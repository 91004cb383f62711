package jobs

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// parentEnv makes the test binary a parent that starts, under the guard, a
// command whose own child sleeps, and waits for it.
const parentEnv = "JOBS_TEST_GUARDED_PARENT"

func TestMain(m *testing.M) {
	if ServeGuard() {
		os.Exit(0)
	}
	if dir := os.Getenv(parentEnv); dir != "" {
		UseGuard()
		c := &Command{Argv: []string{"sh", "-c", "sleep 1000 & echo $! > pid; wait"}, Dir: dir}
		wait, err := c.Start(context.Background())
		if err != nil {
			os.Exit(1)
		}
		// Start has named the command's group to the guard: from now on a
		// kill of this process cannot leave the group behind.
		os.WriteFile(filepath.Join(dir, "told"), []byte("1\n"), 0o666)
		wait()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// readPid waits for the pid file a command writes.
func readPid(t *testing.T, name string) int {
	t.Helper()
	for range 10000 {
		if b, err := os.ReadFile(name); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("no pid file")
	return 0
}

// awaitGone waits for the process pid to be gone (or a zombie), killing
// it and failing the test after 10 s.
func awaitGone(t *testing.T, pid int, what string) {
	t.Helper()
	for tries := 0; ; tries++ {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(st), ") Z ") {
			return
		}
		if tries == 10000 {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s: the command's child %d outlived it", what, pid)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestGroupKilledAfterExit: what a command started and left running is
// killed with its process group when the command ends.
func TestGroupKilledAfterExit(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	out, err := CaptureFile()
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	for _, c := range []Command{
		{Argv: []string{"/bin/sh", "-c", "sleep 1000 & echo $! > pid"}, Stdout: out, Stderr: out}, // started directly
		{Argv: []string{"sh", "-c", "sleep 1000 & echo $! > pid"}},                                // through exec.Cmd
	} {
		c.Dir = t.TempDir()
		if _, err := c.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		awaitGone(t, readPid(t, filepath.Join(c.Dir, "pid")), c.Argv[0])
	}
}

// TestGuardKillsGroupsOfKilledParent: when the process that runs a
// command is killed with SIGKILL, the guard kills the command's group,
// the command's own children too.
func TestGuardKillsGroupsOfKilledParent(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	dir := t.TempDir()
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), parentEnv+"="+dir)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	pid := readPid(t, filepath.Join(dir, "pid"))
	readPid(t, filepath.Join(dir, "told"))
	parent.Process.Kill()
	parent.Wait()
	awaitGone(t, pid, "after SIGKILL of its parent")
}
