package jobs

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOutlive starts a copy of the test binary that starts `sleep` under
// the guard and then exits at once: the sleep dies with it, but for a
// Command with Outlive (neither the parent-death signal nor the guard).
func TestOutlive(t *testing.T) {
	if mode := os.Getenv("JOBS_OUTLIVE_PARENT"); mode != "" {
		// The parent: start the child under the guard, say its pid, die.
		UseGuard()
		r, w, _ := os.Pipe()
		c := &Command{Argv: []string{"sh", "-c", "echo $$; exec sleep 30"}, Stdout: w, Outlive: mode == "outlive"}
		go c.Run(context.Background())
		line, _ := bufio.NewReader(r).ReadString('\n')
		os.Stdout.WriteString(line)
		os.Exit(0)
	}
	for _, outlive := range []bool{false, true} {
		mode := "die"
		if outlive {
			mode = "outlive"
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestOutlive$")
		cmd.Env = append(os.Environ(), "JOBS_OUTLIVE_PARENT="+mode)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: the parent failed: %v", mode, err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
		if err != nil {
			t.Fatalf("%s: the parent said %q", mode, out)
		}
		// A child that dies dies within 2 s; one that outlives is still
		// there after 1 s (the guard kills soon after the parent's exit).
		alive := false
		wait := 2 * time.Second
		if outlive {
			wait = time.Second
		}
		for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			// The sleep is the parent's child, reparented to init (or a
			// subreaper): once killed it may linger as a zombie, so read
			// its state rather than signal it.
			stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
			alive = err == nil && !strings.Contains(string(stat), ") Z ")
			if !alive {
				break
			}
		}
		if alive {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		if alive != outlive {
			t.Errorf("Outlive %v: the child is alive %v after its parent died", outlive, alive)
		}
	}
}
