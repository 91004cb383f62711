package foreach

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/jobs/jobstest"
)

// shList is a one-list spec running `sh -c script <item> <output>`.
func shList(script string, items ...string) *Spec {
	return &Spec{
		Command: []string{"sh", "-c", script, "{}", "OUT"},
		Lists:   []List{{Replace: "{}", Items: items, Name: "items"}},
	}
}

func TestRunOrderAndNames(t *testing.T) {
	dir := t.TempDir()
	// Job 0 finishes last, yet the outputs and the list keep list order.
	s := shList(`sleep "$0"; echo "item $0" > "$1"`, "0.3", "0", "0.1")
	s.OutReplace, s.OutDir, s.OutExt, s.Deterministic = "OUT", dir, "txt", true
	s.OutFileList = filepath.Join(dir, "out.list")
	res, err := Run(context.Background(), s, Options{Pool: jobs.NewPool(3)})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "OUT_0.txt"), filepath.Join(dir, "OUT_1.txt"), filepath.Join(dir, "OUT_2.txt")}
	if strings.Join(res.Outputs, ",") != strings.Join(want, ",") || res.ExitCode != 0 {
		t.Errorf("outputs %q exit %d, want %q", res.Outputs, res.ExitCode, want)
	}
	if got, _ := os.ReadFile(s.OutFileList); string(got) != strings.Join(want, "\n")+"\n" {
		t.Errorf("out list %q", got)
	}
	for i, w := range want {
		if got, _ := os.ReadFile(w); string(got) != "item "+s.Lists[0].Items[i]+"\n" {
			t.Errorf("%s holds %q", w, got)
		}
	}
}

func TestRunRandomNames(t *testing.T) {
	dir := t.TempDir()
	s := shList(`cp "$0" "$1"`, "/dev/null", "/dev/null")
	s.OutReplace, s.OutDir, s.OutExt = filepath.Join("some", "where", "x.tmp"), dir, "out"
	s.Command[4] = s.OutReplace
	res, err := Run(context.Background(), s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outputs) != 2 || res.Outputs[0] == res.Outputs[1] {
		t.Fatalf("outputs %q", res.Outputs)
	}
	for _, o := range res.Outputs {
		if filepath.Dir(o) != dir || !strings.HasPrefix(filepath.Base(o), "x-") || !strings.HasSuffix(o, ".out") {
			t.Errorf("output %q is not <dir>/x-*.out", o)
		}
		if _, err := os.Stat(o); err != nil {
			t.Error(err)
		}
	}
}

func TestRunExitCodeIsLastFailureInListOrder(t *testing.T) {
	// Job 2 (exit 5) ends before job 0 (exit 3): the code is still 5.
	s := shList(`sleep "${0%:*}"; exit "${0#*:}"`, "0.3:3", "0:0", "0:5", "0.2:0")
	var stderr bytes.Buffer
	res, err := Run(context.Background(), s, Options{Pool: jobs.NewPool(4), Stderr: &stderr, Name: "llvm-foreach"})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 5 || len(res.Failures) != 2 || res.Failures[0].Index != 0 || res.Failures[1].Index != 2 {
		t.Errorf("exit %d failures %+v", res.ExitCode, res.Failures)
	}
	for _, want := range []string{
		`llvm-foreach: command failed (exit status 3): sh -c 'sleep "${0%:*}"; exit "${0#*:}"' 0.3:3 OUT`,
		`llvm-foreach: command failed (exit status 5): sh -c 'sleep "${0%:*}"; exit "${0#*:}"' 0:5 OUT`,
	} {
		if !strings.Contains(stderr.String(), want+"\n") {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

func TestRunFailureRemovesItsOutputAndTheList(t *testing.T) {
	dir := t.TempDir()
	s := shList(`echo data > "$1"; exit "$0"`, "0", "7")
	s.OutReplace, s.OutDir, s.OutExt, s.Deterministic = "OUT", dir, "o", true
	s.OutFileList = filepath.Join(dir, "list")
	os.WriteFile(s.OutFileList, []byte("stale\n"), 0o644)
	res, err := Run(context.Background(), s, Options{})
	if err != nil || res.ExitCode != 7 {
		t.Fatalf("exit %d, %v", res.ExitCode, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "OUT_1.o")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the failed job's output is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "OUT_0.o")); err != nil {
		t.Errorf("the good job's output is gone: %v", err)
	}
	if _, err := os.Stat(s.OutFileList); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a stale out list remains: %v", err)
	}
}

func TestRunOutputIsWholePerChild(t *testing.T) {
	// Both children are running while each writes its second line; without
	// capture their lines would interleave.
	s := shList(`echo "$0 begin"; echo "$0 err" >&2; sleep 0.3; echo "$0 end"`, "A", "B")
	var out, errb bytes.Buffer
	if _, err := Run(context.Background(), s, Options{Pool: jobs.NewPool(2), Stdout: &out, Stderr: &errb}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if got != "A begin\nA end\nB begin\nB end\n" && got != "B begin\nB end\nA begin\nA end\n" {
		t.Errorf("stdout interleaved: %q", got)
	}
	if e := errb.String(); e != "A err\nB err\n" && e != "B err\nA err\n" {
		t.Errorf("stderr %q", e)
	}
}

func TestRunSharesThePool(t *testing.T) {
	pool := &jobstest.CountingPool{Pool: jobs.NewPool(2)}
	var wg sync.WaitGroup
	for range 2 { // two runs of three jobs on one pool of two tokens
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Run(context.Background(), shList(`sleep 0.1`, "a", "b", "c"), Options{Pool: pool}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if out, peak, acquired, _ := pool.Counts(); acquired != 6 || peak > 2 || out != 0 {
		t.Errorf("acquired %d, peak %d, left out %d", acquired, peak, out)
	}
}

func TestRunChecksOutputPlacesFirst(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	s := shList(`touch `+marker, "a")
	s.OutFileList = filepath.Join(dir, "no", "such", "dir", "out.list")
	if _, err := Run(context.Background(), s, Options{}); err == nil || !strings.Contains(err.Error(), "error opening the file") {
		t.Errorf("got %v", err)
	}
	s = shList(`touch `+marker+` "$1"`, "a")
	s.OutReplace, s.OutDir = "OUT", filepath.Join(dir, "missing")
	if _, err := Run(context.Background(), s, Options{}); err == nil || !strings.Contains(err.Error(), "the output directory") {
		t.Errorf("got %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a command ran although the run could not write its outputs")
	}
}

// BenchmarkRun measures the cost of running trivial children, two at a
// time: what foreach adds to each (capture files, process group, waiting).
func BenchmarkRun(b *testing.B) {
	items := make([]string, 50)
	for i := range items {
		items[i] = strconv.Itoa(i)
	}
	s := &Spec{Command: []string{"true", "{}"}, Lists: []List{{Replace: "{}", Items: items}}}
	pool := jobs.NewPool(2)
	for b.Loop() {
		if _, err := Run(context.Background(), s, Options{Pool: pool}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(items))/1e3, "µs/child")
}
