//go:build linux

package slurm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/slurmtest"
	"github.com/sycbuild/sycbuild/jobs"
)

// TestCluster runs the package's tests under one cluster: starting one takes
// seconds.
func TestCluster(t *testing.T) {
	if os.Getenv("SLURM_TEST_CHILD") != "" {
		t.Skip("in a child")
	}
	k := slurmtest.Start(t)
	for _, test := range []struct {
		name string
		run  func(*testing.T, *slurmtest.Cluster)
	}{
		{"owned allocation", testOwnedAllocation},
		{"inside an allocation", testInsideAllocation},
		{"step", testStep},
		{"memory killed", testMemoryKilled},
		{"cancel", testCancel},
		{"shared", testShared},
		{"killed holder", testKilledHolder},
		{"runner", testRunner},
		{"runner memory killed", testRunnerMemoryKilled},
		{"runner cancel", testRunnerCancel},
		{"runner node failed", testRunnerNodeFailed},
	} {
		t.Run(test.name, func(t *testing.T) { test.run(t, k) })
	}
}

func open(t *testing.T, env []string) *Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := Open(ctx, Settings{Time: "10"}, env)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// waitGone waits until squeue shows no job and no step whose line has name.
func waitGone(t *testing.T, k *slurmtest.Cluster, name string) {
	t.Helper()
	var steps, jobs []string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		steps, jobs = k.Steps(t)
		if !contains(steps, name) && !contains(jobs, name) {
			return
		}
	}
	t.Fatalf("%s still in squeue after 15 s: steps %q, jobs %q", name, steps, jobs)
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

func testOwnedAllocation(t *testing.T, k *slurmtest.Cluster) {
	c := open(t, k.Env)
	if !c.Owned() {
		t.Fatal("outside an allocation, Open did not make one")
	}
	if c.CPUs() < 1 || c.Nodes() != k.Node {
		t.Errorf("CPUs %d, nodes %q; want at least 1 on %s", c.CPUs(), c.Nodes(), k.Node)
	}
	_, jobs := k.Steps(t)
	if !contains(jobs, c.Job()+" "+c.name+" RUNNING") {
		t.Errorf("squeue does not show the allocation %s running: %q", c.Job(), jobs)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, k, c.name)
}

func testInsideAllocation(t *testing.T, k *slurmtest.Cluster) {
	out, err := k.Command("salloc", "--no-shell", "--job-name=outer", "--time=10").CombinedOutput()
	if err != nil {
		t.Fatalf("salloc: %v\n%s", err, out)
	}
	_, jobs := k.Steps(t)
	var job string
	for _, j := range jobs {
		if f := strings.Fields(j); len(f) == 3 && f[1] == "outer" {
			job = f[0]
		}
	}
	if job == "" {
		t.Fatalf("no allocation named outer: %q", jobs)
	}
	defer k.Command("scancel", job).Run()
	c := open(t, append(k.Env, "SLURM_JOB_ID="+job))
	if c.Owned() || c.Job() != job {
		t.Errorf("inside allocation %s: Open gave job %s, owned %v", job, c.Job(), c.Owned())
	}
	c.Close()
	if _, jobs := k.Steps(t); !contains(jobs, job+" outer RUNNING") {
		t.Errorf("Close ended the allocation it did not make: %q", jobs)
	}
}

func testStep(t *testing.T, k *slurmtest.Cluster) {
	c := open(t, k.Env)
	defer c.Close()
	dir := t.TempDir()
	info := filepath.Join(dir, "step.info")
	var stdout, stderr bytes.Buffer
	cmd := c.Wrap(&jobs.Command{Argv: []string{"sh", "-c", `echo "out $PWD"; echo err >&2; exit 3`}, Dir: dir,
		Stdout: &stdout, Stderr: &stderr}, Step{CPUs: 1, Memory: 64 << 20, Info: info})
	_, err := cmd.Run(context.Background())
	if jobs.ExitCode(err) != 3 {
		t.Errorf("exit status %d (%v), want the command's 3", jobs.ExitCode(err), err)
	}
	if got := strings.TrimSpace(stdout.String()); got != "out "+dir {
		t.Errorf("stdout %q, want %q: the step runs in the command's directory", got, "out "+dir)
	}
	if !strings.Contains(stderr.String(), "err") {
		t.Errorf("stderr %q", stderr.String())
	}
	where, err := ReadStep(info)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(where.ID, c.Job()+".") || where.Node != k.Node {
		t.Errorf("the step says it is %+v; want a step of %s on %s", where, c.Job(), k.Node)
	}
	// Slurm's node daemon launched the step.
	if log := k.NodeLog(); !strings.Contains(log, "launch task StepId="+where.ID+" ") {
		t.Errorf("slurmd's log does not name StepId=%s", where.ID)
	}
	// A command that cannot run is a failed step, not an info file.
	info2 := filepath.Join(dir, "none.info")
	cmd = c.Wrap(&jobs.Command{Argv: []string{filepath.Join(dir, "no-such-tool")}, Stdout: &stdout, Stderr: &stderr}, Step{Info: info2})
	if _, err := cmd.Run(context.Background()); err == nil {
		t.Error("a missing program ran")
	}
	if _, err := os.Stat(info2); err != nil {
		t.Log("no info file for a program that did not start:", err)
	}
}

func testMemoryKilled(t *testing.T, k *slurmtest.Cluster) {
	c := open(t, k.Env)
	defer c.Close()
	var out bytes.Buffer
	// The shell holds a string of 300 MB for 5 s against a 64 MiB limit.
	cmd := c.Wrap(&jobs.Command{Argv: []string{"sh", "-c", `x=$(head -c 300000000 /dev/zero | tr '\0' a); sleep 5`},
		Stdout: &out, Stderr: &out}, Step{Memory: 64 << 20})
	_, err := cmd.Run(context.Background())
	if err == nil {
		t.Fatalf("the step was not killed:\n%s", out.String())
	}
	if f := Classify(out.Bytes()); f != MemoryKilled {
		t.Errorf("Classify: %v, want %v; the step's output:\n%s", f, MemoryKilled, out.String())
	}
}

func testCancel(t *testing.T, k *slurmtest.Cluster) {
	c := open(t, k.Env)
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	info := filepath.Join(t.TempDir(), "step.info")
	go func() {
		_, _, err := c.Run(ctx, &jobs.Command{Argv: []string{"sleep", "60"}}, Step{Info: info})
		done <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if steps, _ := k.Steps(t); contains(steps, c.name) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the step did not show in squeue --steps")
		}
	}
	t0 := time.Now()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled step's error: %v", err)
	}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		steps, _ := k.Steps(t)
		if !contains(steps, c.name) {
			t.Logf("the step was gone %v after the cancel", time.Since(t0).Round(time.Millisecond))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cancelled step is still in squeue: %q", steps)
		}
	}
	if out, err := exec.Command("pgrep", "-f", "^sleep 60$").Output(); err == nil {
		t.Errorf("the step's command still runs: %s", out)
	}
}

func testShared(t *testing.T, k *slurmtest.Cluster) {
	c := open(t, k.Env)
	defer c.Close()
	// One machine: every directory is shared.
	if err := c.CheckShared(context.Background(), t.TempDir()); err != nil {
		t.Error(err)
	}
	_, where, oerr := c.Output(context.Background(), t.TempDir(), "hostname")
	if oerr != nil || where.Node != k.Node {
		t.Errorf("Output: %+v, %v", where, oerr)
	}
}

// testKilledHolder kills a process that made an allocation and runs a step
// in it with SIGKILL: the allocation and the step end all the same.
func testKilledHolder(t *testing.T, k *slurmtest.Cluster) {
	child := exec.Command(os.Args[0], "-test.run=^TestHolderChild$")
	child.Env = append(k.Env, "SLURM_TEST_CHILD=1")
	stdout, _ := child.StdoutPipe()
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the child said nothing: %v", err)
	}
	name := strings.TrimSpace(line)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if steps, _ := k.Steps(t); contains(steps, name) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child's step did not show in squeue --steps")
		}
	}
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()
	waitGone(t, k, name)
}

// TestHolderChild is testKilledHolder's child: it makes an allocation,
// starts a long step, says its steps' name and waits to be killed.
func TestHolderChild(t *testing.T) {
	if os.Getenv("SLURM_TEST_CHILD") == "" {
		t.Skip("run by testKilledHolder")
	}
	c, err := Open(context.Background(), Settings{Time: "10"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	go c.Wrap(&jobs.Command{Argv: []string{"sleep", "600"}}, Step{}).Run(context.Background())
	os.Stdout.WriteString(c.name + "\n")
	time.Sleep(time.Minute)
}
