//go:build linux

package slurm

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/slurmtest"
	"github.com/sycbuild/sycbuild/jobs"
)

// newRunner is a Runner of a new allocation whose steps run the test
// binary as sycbuild (TestMain).
func newRunner(t *testing.T, k *slurmtest.Cluster, extra ...string) (*Runner, *[]jobs.Where) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := Open(ctx, Settings{Time: "10", Extra: extra}, k.Env)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var mu sync.Mutex
	var steps []jobs.Where
	r := &Runner{Cluster: c, Self: []string{os.Args[0], StepCommand}, Dir: t.TempDir(),
		Steps: func(w jobs.Where, _ []*jobs.Command) { mu.Lock(); steps = append(steps, w); mu.Unlock() }}
	return r, &steps
}

// capture is a file that a command's output goes to, as the build
// executor's is.
func capture(t *testing.T) (*os.File, func() string) {
	f, err := os.Create(filepath.Join(t.TempDir(), "output"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, func() string { b, _ := os.ReadFile(f.Name()); return string(b) }
}

func command(out *os.File, dir string, argv ...string) *jobs.Command {
	return &jobs.Command{Argv: argv, Dir: dir, Stdout: out, Stderr: out}
}

// testRunner: commands and pipelines run as steps give what they give
// here: the same output, with none of Slurm's own lines, the same errors,
// and the tools' own usage; each call is one step, on the node.
func testRunner(t *testing.T, k *slurmtest.Cluster) {
	r, steps := newRunner(t, k)
	dir := t.TempDir()
	ctx := context.Background()
	run := func(runner jobs.Runner, argvs ...[]string) ([]*jobs.Usage, []error, jobs.Where, string) {
		out, read := capture(t)
		var cmds []*jobs.Command
		for _, a := range argvs {
			cmds = append(cmds, command(out, dir, a...))
		}
		u, errs, w := runner.Run(ctx, cmds, jobs.Request{Memory: 100 << 20})
		return u, errs, w, read()
	}
	for _, tc := range []struct {
		name  string
		argvs [][]string
	}{
		{"success", [][]string{{"sh", "-c", `echo "out $PWD"; echo err >&2`}}},
		{"exit", [][]string{{"sh", "-c", "echo bad >&2; exit 3"}}},
		{"signal", [][]string{{"sh", "-c", "kill -SEGV $$"}}},
		{"missing", [][]string{{filepath.Join(dir, "no-such-tool"), "x"}}},
		{"pipeline", [][]string{{"printf", `a\nb\n`}, {"tr", "a-z", "A-Z"}}},
		{"pipeline fails", [][]string{{"sh", "-c", "echo x"}, {"sh", "-c", "cat >/dev/null; echo no >&2; exit 4"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(*steps)
			lu, lerrs, _, lout := run(jobs.Local{}, tc.argvs...)
			su, serrs, where, sout := run(r, tc.argvs...)
			if sout != lout {
				t.Errorf("output as a step %q, here %q", sout, lout)
			}
			for i := range tc.argvs {
				switch le, se := lerrs[i], serrs[i]; {
				case (le == nil) != (se == nil):
					t.Errorf("command %d: error as a step %v, here %v", i, se, le)
				case le != nil && le.Error() != se.Error():
					t.Errorf("command %d: error as a step %q, here %q", i, se, le)
				case le != nil && jobs.ExitCode(le) != jobs.ExitCode(se):
					t.Errorf("command %d: exit code as a step %d, here %d", i, jobs.ExitCode(se), jobs.ExitCode(le))
				}
				if (lu[i] == nil) != (su[i] == nil) || su[i] != nil && (su[i].MaxRSS <= 0 || su[i].MaxRSS > 64<<20 || su[i].ExitCode != lu[i].ExitCode) {
					t.Errorf("command %d: usage as a step %+v, here %+v", i, su[i], lu[i])
				}
			}
			if !strings.HasPrefix(where.ID, r.Cluster.Job()+".") || where.Node != k.Node {
				t.Errorf("where %+v; want a step of %s on %s", where, r.Cluster.Job(), k.Node)
			}
			if len(*steps) != n+1 || (*steps)[n] != where {
				t.Errorf("steps recorded %v, want %v last", *steps, where)
			}
			if !strings.Contains(k.NodeLog(), "launch task StepId="+where.ID+" ") {
				t.Errorf("slurmd's log does not name StepId=%s", where.ID)
			}
		})
	}
	// A step is given the work's memory, or the allocation's memory per
	// CPU: two run at once on a node of two CPUs.
	if r.Cluster.CPUs() >= 2 {
		t0 := time.Now()
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, _ := capture(t)
				if _, errs, _ := r.Run(ctx, []*jobs.Command{command(out, dir, "sleep", "2")}, jobs.Request{}); errs[0] != nil {
					t.Error(errs[0])
				}
			}()
		}
		wg.Wait()
		if d := time.Since(t0); d > 3500*time.Millisecond {
			t.Errorf("two steps of 2 s took %v: they ran one after the other", d)
		}
	}
	// Excluded nodes are not run on: here, on no node at all.
	out, _ := capture(t)
	_, errs, _ := r.Run(ctx, []*jobs.Command{command(out, dir, "true")}, jobs.Request{Exclude: []string{k.Node}})
	if errs[0] == nil || !strings.Contains(errs[0].Error(), "srun") {
		t.Errorf("a step excluding the only node: %v", errs[0])
	}
}

// testRunnerMemoryKilled: a step that Slurm kills for its memory fails
// with jobs.ErrMemoryKilled, saying so. The allocation has 512 MiB, so a
// step is given at least its CPU's share, 256 MiB.
func testRunnerMemoryKilled(t *testing.T, k *slurmtest.Cluster) {
	r, _ := newRunner(t, k, "--exclusive", "--mem=512M")
	if got, want := r.Cluster.stepMemory(64<<20, 1), int64(512<<20)/int64(r.Cluster.CPUs()); got != want {
		t.Errorf("a step predicted at 64 MiB asks for %d bytes, want its CPU's share %d", got, want)
	}
	if got, want := r.Cluster.stepMemory(400<<20, 1), int64(512<<20); got != want {
		t.Errorf("a step predicted at 400 MiB asks for %d bytes, want the node's %d", got, want)
	}
	out, read := capture(t)
	cmd := command(out, t.TempDir(), "sh", "-c", `x=$(head -c 300000000 /dev/zero | tr '\0' a); sleep 5`)
	_, errs, where := r.Run(context.Background(), []*jobs.Command{cmd}, jobs.Request{Memory: 64 << 20})
	if !errors.Is(errs[0], jobs.ErrMemoryKilled) || errors.Is(errs[0], jobs.ErrNodeFailed) {
		t.Fatalf("error %v, want jobs.ErrMemoryKilled; output:\n%s", errs[0], read())
	}
	var ee *exec.ExitError
	if !errors.As(errs[0], &ee) || !strings.Contains(errs[0].Error(), "exceeding its memory (--mem=256M), on "+where.Node) {
		t.Errorf("error %q: want srun's exit and the reason, on %s", errs[0], where.Node)
	}
	if strings.Contains(read(), "srun:") || strings.Contains(read(), "slurmstepd") {
		t.Errorf("Slurm's lines went into the command's output:\n%s", read())
	}
}

// testRunnerCancel: cancelling a step's context ends the step; squeue
// shows none.
func testRunnerCancel(t *testing.T, k *slurmtest.Cluster) {
	r, _ := newRunner(t, k)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, errs, _ := r.Run(ctx, []*jobs.Command{{Argv: []string{"sleep", "60"}}}, jobs.Request{})
		done <- errs[0]
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if steps, _ := k.Steps(t); contains(steps, r.Cluster.name) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the step did not show in squeue --steps")
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled step's error: %v", err)
	}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if steps, _ := k.Steps(t); !contains(steps, r.Cluster.name) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cancelled step is still in squeue")
		}
	}
}

// testRunnerNodeFailed: a step whose node fails under it (set down here,
// which ends the allocation too) fails with jobs.ErrNodeFailed. The node
// returns to service (ReturnToService=2) for the tests after it.
func testRunnerNodeFailed(t *testing.T, k *slurmtest.Cluster) {
	r, _ := newRunner(t, k)
	done := make(chan error, 1)
	go func() {
		_, errs, _ := r.Run(context.Background(), []*jobs.Command{{Argv: []string{"sleep", "60"}}}, jobs.Request{})
		done <- errs[0]
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if steps, _ := k.Steps(t); contains(steps, r.Cluster.name) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the step did not show in squeue --steps")
		}
	}
	if out, err := k.Command("scontrol", "update", "nodename="+k.Node, "state=down", "reason=test").CombinedOutput(); err != nil {
		t.Fatalf("scontrol: %v\n%s", err, out)
	}
	defer func() {
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			if out, _ := k.Command("sinfo", "-h", "-n", k.Node, "-o", "%t").Output(); strings.TrimSpace(string(out)) == "idle" {
				return
			}
			k.Command("scontrol", "update", "nodename="+k.Node, "state=resume").Run()
		}
		t.Error("the node did not return to service")
	}()
	select {
	case err := <-done:
		if !errors.Is(err, jobs.ErrNodeFailed) || errors.Is(err, jobs.ErrMemoryKilled) || !strings.Contains(err.Error(), "its node failed") {
			t.Errorf("error %v, want jobs.ErrNodeFailed", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the step did not end 30 s after its node went down")
	}
}
