package graph

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
)

// compilerBuild is aotBuild with the compiler step's shell script given:
// $1 is its input (a module's lines are its kernels), $2 its output; every
// run of it is counted in runs.log.
func compilerBuild(t *testing.T, modules map[string]string, script string, timeout time.Duration) (*testBuild, *Fanout) {
	tb, f := aotBuild(t, modules)
	f.Steps[1].Tool = &Tool{Name: "aot", Path: "sh", Version: "2", Timeout: timeout}
	f.Steps[1].Args = []string{"-c", `echo run >> ` + filepath.Join(tb.dir, "runs.log") + "\n" + script, "sh", "mod.spv", "mod.bin"}
	f.Isolate = splitLines
	return tb, f
}

func (tb *testBuild) runs() int { return strings.Count(tb.readOr("runs.log"), "run\n") }

func (tb *testBuild) readOr(name string) string {
	if !tb.exists(name) {
		return ""
	}
	return tb.read(name)
}

// TestIsolationAfterTimeout: a compiler that hangs is stopped at its
// timeout once, and its kernels are not tried one by one (each would hang
// as long): the build takes one timeout, says "timed out" once, and
// isolates nothing.
func TestIsolationAfterTimeout(t *testing.T) {
	tb, _ := compilerBuild(t, map[string]string{"a.ll": "k1\nk2\nk3\n"}, `sleep 30`, 300*time.Millisecond)
	opt := tb.opts()
	start := time.Now()
	_, err := tb.g.Build(context.Background(), opt)
	took := time.Since(start)
	log := tb.log.String()
	if !errors.Is(err, ErrFailed) || strings.Count(log, "timed out") != 1 || strings.Contains(log, "isolated") {
		t.Errorf("err %v; want one \"timed out\" and no isolation:\n%s", err, log)
	}
	if n := tb.runs(); n != 1 || took > 10*time.Second {
		t.Errorf("the compiler ran %d times, the build took %v: want once, stopped at the 300ms timeout (not 30 s per kernel)", n, took)
	}
}

// TestIsolationSameFailure: a command that fails for every kernel as for
// the whole module (a device it does not know) is tried on the first and
// the last kernel only, and the failure says the cause is the command.
func TestIsolationSameFailure(t *testing.T) {
	tb, _ := compilerBuild(t, map[string]string{"a.ll": "k1\nk2\nk3\nk4\n"},
		`echo "Failed to parse target : acm-g1O - invalid device: $1" >&2; exit 1`, 0)
	_, err := tb.g.Build(context.Background(), tb.opts())
	log := tb.log.String()
	if !errors.Is(err, ErrFailed) || !strings.Contains(log, "isolated: not by kernel: its first and its last kernel alone (k1; k4) fail as the whole module does, so the cause is the command (its device names or options), not a kernel") {
		t.Errorf("err %v:\n%s", err, log)
	}
	if n := tb.runs(); n != 3 {
		t.Errorf("the compiler ran %d times, want 3 (the module, its first and last kernel)", n)
	}
}

// TestIsolationCost: isolating a module costs about one more run of its
// chain, not one run per kernel: its kernels run in parallel on the pool's
// free tokens. Counted, not timed: the compiler ran once for the module and
// once per kernel, and at least two kernels ran at once (each run records
// how many runs it saw running beside it).
func TestIsolationCost(t *testing.T) {
	running := filepath.Join(t.TempDir(), "running")
	tb, _ := compilerBuild(t, map[string]string{"a.ll": "k1\nBADk2\nk3\nk4\n"},
		`mkdir -p `+running+`; touch `+running+`/$$; ls `+running+` | wc -l >> `+running+`.log
for k in $(cat "$1"); do sleep 0.3; done; rm `+running+`/$$; grep -q '^BAD' "$1" && exit 245; cp "$1" "$2"`, 0)
	opt := tb.opts()
	opt.Pool = jobs.NewPool(4)
	_, err := tb.g.Build(context.Background(), opt)
	log := tb.log.String()
	if !errors.Is(err, ErrFailed) || !strings.Contains(log, "isolated: 1 of its 4 kernels fail alone: BADk2") {
		t.Fatalf("err %v:\n%s", err, log)
	}
	if n := tb.runs(); n != 5 {
		t.Errorf("the compiler ran %d times, want 5 (the module, then each of its 4 kernels once)", n)
	}
	peak := 0
	seen, _ := os.ReadFile(running + ".log")
	for _, f := range strings.Fields(string(seen)) {
		if n, err := strconv.Atoi(f); err == nil {
			peak = max(peak, n)
		}
	}
	if peak < 2 {
		t.Errorf("at most %d of the kernels' runs were running at once; they run in parallel on the pool's free tokens", peak)
	}
}

// TestChatter: a successful command's chatter is not shown, the lines
// given exactly and those given by a prefix ("Build succeeded for : *",
// one per device); other lines are.
func TestChatter(t *testing.T) {
	tool := &Tool{Chatter: []string{"Build succeeded.", "Build succeeded for : *"}}
	out := withoutChatter([]byte("Build succeeded for : pvc.\nBuild succeeded for : acm-g10.\nwarning: slow\nBuild succeeded.\n"), tool)
	if string(out) != "warning: slow\n" {
		t.Errorf("shown: %q", out)
	}
}

// TestIsolationMemory: under a memory budget that holds one job, the
// kernels of an isolation run one at a time, not beside each other.
func TestIsolationMemory(t *testing.T) {
	tb, f := compilerBuild(t, map[string]string{"a.ll": "k1\nBADk2\nk3\nk4\n"},
		`for k in $(cat "$1"); do sleep 0.3; done; grep -q '^BAD' "$1" && exit 245; cp "$1" "$2"`, 0)
	for _, s := range f.Steps {
		s.Tool.Memory = 1 << 30
	}
	opt := tb.opts()
	opt.Pool = jobs.NewPool(4)
	opt.Memory = 1<<30 + 1<<20
	start := time.Now()
	_, err := tb.g.Build(context.Background(), opt)
	took := time.Since(start)
	log := tb.log.String()
	if !errors.Is(err, ErrFailed) || !strings.Contains(log, "isolated: 1 of its 4 kernels fail alone: BADk2") {
		t.Fatalf("err %v:\n%s", err, log)
	}
	// The chain takes 1.2s; its kernels one after the other take as long
	// again (beside each other, 0.6s).
	if took < 2300*time.Millisecond || took > 2*1200*time.Millisecond+600*time.Millisecond {
		t.Errorf("the build took %v: want the kernels one at a time, within one more run of the chain\n%s", took, log)
	}
}

// TestIsolationBudget: isolation stops when it has taken as long as the
// module's chain took to fail (at least minIsolation), and says how far
// it got.
func TestIsolationBudget(t *testing.T) {
	defer func(d time.Duration) { minIsolation = d }(minIsolation)
	minIsolation = 300 * time.Millisecond
	tb, _ := compilerBuild(t, map[string]string{"a.ll": "k1\nk2\nk3\n"},
		`[ $(wc -l < "$1") -gt 1 ] && exit 245; sleep 5; cp "$1" "$2"`, 0)
	start := time.Now()
	_, err := tb.g.Build(context.Background(), tb.opts())
	took := time.Since(start)
	log := tb.log.String()
	if !errors.Is(err, ErrFailed) || !strings.Contains(log, "isolated: stopped after 0 of its 3 kernels at its limit of 300ms (the time the module's chain took to fail, 300ms at least)") {
		t.Errorf("err %v:\n%s", err, log)
	}
	if took > 2*time.Second {
		t.Errorf("the build took %v, want about the 300ms budget", took)
	}
}
