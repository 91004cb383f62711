package graph

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
)

// fakeCompiler is a shell script that compiles as ocloc does in the ways
// batches depend on: "compile -file IN -output OUT" writes "compiled: "
// and IN's bytes to OUT, and fails on an input holding "bad"; "multi LIST"
// runs LIST's lines ("-file IN -output NAME") in order, printing "Command
// number <n>: " before each, writes each output into the directory named
// after LIST (without its extension) and, when a line fails, stops and
// writes none. An input holding "lost" is compiled, but its output is
// written nowhere in a batch (as ocloc multi loses some without a word);
// one holding "slow" hangs a batch for 10 s.
// Every run is logged to calls.log.
const fakeCompiler = `#!/bin/sh
log="$(dirname "$0")/calls.log"
compile() { # in out
	if grep -q bad "$1"; then echo "error: $1 is bad"; return 1; fi
	{ printf 'compiled: '; cat "$1"; } > "$2"
	echo "Build succeeded."
}
case "$1" in
compile)
	echo "compile $3" >> "$log"
	compile "$3" "$5" ;;
multi)
	echo "multi $(wc -l < "$2")" >> "$log"
	dir=$(basename "$2" .txt); n=0
	mkdir -p "$dir.tmp"
	while read -r f in o name; do
		n=$((n+1)); echo "Command number $n: "
		compile "$in" "$dir.tmp/$name" || { rm -r "$dir.tmp"; exit 1; }
		grep -q lost "$in" && rm "$dir.tmp/$name"
		grep -q slow "$in" && sleep 10
	done < "$2"
	mkdir -p "$dir" && mv "$dir.tmp"/* "$dir"/ 2>/dev/null; rm -r "$dir.tmp" ;;
esac
`

// batchBuild is a fan-out over items (each holding its content) whose
// chain copies the item, then compiles the copy with fakeCompiler, which
// batches.
func batchBuild(t *testing.T, contents ...string) (*testBuild, *Fanout) {
	tb := newTestBuild(t)
	var items []string
	for i, c := range contents {
		items = append(items, fmt.Sprintf("src/m%d.txt", i))
		tb.write(items[i], c+"\n")
	}
	tb.write("mods.list", strings.Join(items, "\n")+"\n")
	tb.write("bin/cc", fakeCompiler)
	os.Chmod(filepath.Join(tb.dir, "bin/cc"), 0o755)
	cc := &Tool{Name: "cc", Path: "bin/cc", Version: "test", Chatter: []string{"Build succeeded."}, Batch: &Batch{
		Line: func(argv []string, out, name string, abs func(string) string) (string, bool) {
			if len(argv) != 6 || argv[1] != "compile" || argv[5] != out {
				return "", false
			}
			return "-file " + abs(argv[3]) + " -output " + name, true
		},
		Argv:    func(list string) []string { return []string{"bin/cc", "multi", list} },
		Outputs: func(list string) string { return strings.TrimSuffix(list, ".txt") },
		Split: func(out []byte, lines int) [][]byte {
			parts := strings.Split(string(out), "Command number ")[1:]
			if len(parts) != lines {
				return nil
			}
			var res [][]byte
			for _, p := range parts {
				_, rest, _ := strings.Cut(p, "\n")
				res = append(res, []byte(rest))
			}
			return res
		},
	}}
	f := &Fanout{
		List: tb.g.File("mods.list", List),
		Dir:  "out",
		Steps: []*Step{
			{Tool: shTool, Args: []string{"-c", `cp "$1" "$2"`, "sh", "mod.src", "mod.cp"},
				In: []StepInput{{"mod.src", -1}}, Out: &StepOutput{"mod.cp", "cp", tb.g.File("out/cp.list", List)}},
			{Tool: cc, Args: []string{"compile", "-file", "mod.cp", "-output", "mod.bin"},
				In: []StepInput{{"mod.cp", 0}}, Out: &StepOutput{"mod.bin", "bin", tb.g.File("out/bin.list", List)}},
		},
	}
	a := &Action{Desc: "[t] cc", Fanout: f, In: []*Node{f.List}, Out: []*Node{f.Steps[0].Out.List, f.Steps[1].Out.List}}
	if err := tb.g.Add(a); err != nil {
		t.Fatal(err)
	}
	return tb, f
}

// calls returns the compiler's runs since the last call, and forgets them.
func (tb *testBuild) calls() []string {
	tb.t.Helper()
	p := filepath.Join(tb.dir, "bin/calls.log")
	b, _ := os.ReadFile(p)
	os.Remove(p)
	return strings.Fields(strings.ReplaceAll(strings.TrimSpace(string(b)), " ", "_"))
}

// batchDirs lists what batches left in the fan-out's directory.
func (tb *testBuild) batchDirs() []string {
	m, _ := filepath.Glob(filepath.Join(tb.dir, "out", isolatePrefix+"*"))
	return m
}

func TestBatch(t *testing.T) {
	contents := []string{"a", "b", "c", "d", "e", "f", "g"}
	tb, _ := batchBuild(t, contents...)
	rec := &recorder{}
	opt := tb.opts()
	opt.Batch = 3
	opt.Observer = Observers{opt.Observer, rec}
	res := tb.build(opt)
	if res.JobsRan != 7 {
		t.Fatalf("jobs ran %d\n%s", res.JobsRan, tb.log.String())
	}
	// Groups of 3, 3 and 1: two batches, and a job alone.
	calls := tb.calls()
	slices.Sort(calls)
	if want := []string{"compile_out/mod_6.cp", "multi_3", "multi_3"}; !slices.Equal(calls, want) {
		t.Errorf("compiler runs %q, want two batches of 3 and one alone", calls)
	}
	for i, c := range contents {
		if got := tb.read(fmt.Sprintf("out/mod_%d.bin", i)); got != "compiled: "+c+"\n" {
			t.Errorf("out/mod_%d.bin = %q", i, got)
		}
	}
	if d := tb.batchDirs(); len(d) > 0 {
		t.Errorf("left behind: %q", d)
	}
	if strings.Contains(tb.log.String(), "Command number") || strings.Contains(tb.log.String(), "Build succeeded") {
		t.Errorf("the batch's chatter was shown:\n%s", tb.log.String())
	}
	// Each job gets a command event of its own for its compile, and the
	// commands of one slot never overlap.
	compiles := 0
	bySlot := map[int][]Event{}
	for _, e := range rec.finished {
		if e.Kind == KindCommand {
			bySlot[e.Slot] = append(bySlot[e.Slot], e)
			if e.Tool == "cc" {
				compiles++
			}
		}
	}
	if compiles != 7 {
		t.Errorf("%d compile events, want 7", compiles)
	}
	for slot, evs := range bySlot {
		slices.SortFunc(evs, func(a, b Event) int { return a.Start.Compare(b.Start) })
		for i := 1; i < len(evs); i++ {
			if evs[i].Start.Before(evs[i-1].End) {
				t.Errorf("slot %d: %s starts before %s ends", slot, evs[i].Desc, evs[i-1].Desc)
			}
		}
	}

	// Up to date: nothing runs; one item changed: its job runs alone.
	if res := tb.build(opt); res.JobsRan != 0 || res.JobsCached != 7 {
		t.Errorf("second build: jobs ran %d, cached %d", res.JobsRan, res.JobsCached)
	}
	tb.write("src/m4.txt", "E\n")
	if res := tb.build(opt); res.JobsRan != 1 {
		t.Errorf("third build: jobs ran %d", res.JobsRan)
	}
	if calls := tb.calls(); len(calls) != 1 || !strings.HasPrefix(calls[0], "compile_") {
		t.Errorf("third build's compiler runs %q, want one alone", calls)
	}
	if got := tb.read("out/mod_4.bin"); got != "compiled: E\n" {
		t.Errorf("out/mod_4.bin = %q", got)
	}
}

// TestBatchFailure: a batch that fails writes nothing; each of its jobs
// then runs alone, so that the failure is the failing job's own command's
// and the others succeed.
func TestBatchFailure(t *testing.T) {
	tb, _ := batchBuild(t, "a", "bad", "c")
	opt := tb.opts()
	opt.Batch, opt.KeepGoing = 3, true
	rec := &recorder{}
	opt.Observer = Observers{opt.Observer, rec}
	res, err := tb.g.Build(t.Context(), opt)
	if err == nil || res.JobsFailed != 1 || res.JobsRan != 2 {
		t.Fatalf("build: %v; jobs failed %v\n%s", err, res, tb.log.String())
	}
	if calls := tb.calls(); len(calls) != 4 || calls[0] != "multi_3" {
		t.Errorf("compiler runs %q, want the batch then each job alone", calls)
	}
	var ce *CommandError
	for _, e := range rec.finished {
		if e.Kind == KindJob && e.Outcome == Failed && !errors.As(e.Err, &ce) {
			t.Errorf("job %s failed with %v", e.Item, e.Err)
		}
	}
	if ce == nil || ShellQuote(ce.Argv) != "bin/cc compile -file out/mod_1.cp -output out/mod_1.bin" || !strings.Contains(string(ce.Output), "error: out/mod_1.cp is bad") {
		t.Fatalf("the failure: %v", ce)
	}
	if tb.exists("out/mod_1.bin") || tb.exists("out/mod_1.cp") {
		t.Errorf("the failed job left outputs")
	}
	if tb.read("out/mod_2.bin") != "compiled: c\n" {
		t.Errorf("out/mod_2.bin = %q", tb.read("out/mod_2.bin"))
	}
	if d := tb.batchDirs(); len(d) > 0 {
		t.Errorf("left behind: %q", d)
	}
}

// TestBatchLostOutput: an output a batch did not write (ocloc multi exits
// 0 without some) makes every job of the batch run alone.
func TestBatchLostOutput(t *testing.T) {
	tb, _ := batchBuild(t, "a", "lost", "c")
	opt := tb.opts()
	opt.Batch = 3
	if res := tb.build(opt); res.JobsRan != 3 {
		t.Fatalf("jobs ran %d", res.JobsRan)
	}
	if calls := tb.calls(); len(calls) != 4 || calls[0] != "multi_3" {
		t.Errorf("compiler runs %q, want the batch then each job alone", calls)
	}
	if got := tb.read("out/mod_1.bin"); got != "compiled: lost\n" {
		t.Errorf("out/mod_1.bin = %q", got)
	}
}

func TestBatchSize(t *testing.T) {
	tb, f := batchBuild(t, "a")
	b := &builder{opt: tb.opts(), runner: jobs.Local{}}
	b.pool = b.opt.Pool
	for _, c := range []struct{ items, want int }{{1, 1}, {8, 1}, {16, 2}, {240, maxBatch}} {
		if got := b.batchSize(f, c.items); got != c.want {
			t.Errorf("%d items on 2 slots: batches of %d, want %d", c.items, got, c.want)
		}
	}
	b.runner = &recordingRunner{}
	if got := b.batchSize(f, 240); got != 1 {
		t.Errorf("another runner: batches of %d, want 1", got)
	}
}

// TestBatchCache: a batch's jobs are stored in the shared cache one by one,
// as jobs run alone are; another checkout restores them all and runs
// nothing, and one of a group that misses runs alone.
func TestBatchCache(t *testing.T) {
	c := newMemCache()
	contents := []string{"a", "b", "c", "d"}
	tb, _ := batchBuild(t, contents...)
	opt := tb.opts()
	opt.Batch, opt.Cache = 4, c
	tb.build(opt)
	if calls := tb.calls(); len(calls) != 1 || calls[0] != "multi_4" {
		t.Fatalf("first checkout's compiler runs %q", calls)
	}
	other, _ := batchBuild(t, append(contents[:3:3], "D")...)
	opt = other.opts()
	opt.Batch, opt.Cache = 4, c
	res := other.build(opt)
	if res.JobsRan != 1 || res.RemoteHits != 3 {
		t.Errorf("other checkout: jobs ran %d, restored %d", res.JobsRan, res.RemoteHits)
	}
	if calls := other.calls(); len(calls) != 1 || calls[0] != "compile_out/mod_3.cp" {
		t.Errorf("other checkout's compiler runs %q, want the one miss alone", calls)
	}
	for i, want := range []string{"a", "b", "c", "D"} {
		if got := other.read(fmt.Sprintf("out/mod_%d.bin", i)); got != "compiled: "+want+"\n" {
			t.Errorf("out/mod_%d.bin = %q", i, got)
		}
	}
}

// TestBatchTimeout: a batch runs under one command's timeout; one that runs
// past it is stopped, and its jobs run alone, each under its own.
func TestBatchTimeout(t *testing.T) {
	tb, f := batchBuild(t, "a", "slow", "c")
	f.Steps[1].Tool.Timeout = 500 * time.Millisecond
	opt := tb.opts()
	opt.Batch = 3
	start := time.Now()
	if res := tb.build(opt); res.JobsRan != 3 {
		t.Fatalf("jobs ran %d", res.JobsRan)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("the build took %v: the batch was not stopped at its timeout", d)
	}
	if calls := tb.calls(); len(calls) != 4 || calls[0] != "multi_3" {
		t.Errorf("compiler runs %q, want the batch then each job alone", calls)
	}
	if d := tb.batchDirs(); len(d) > 0 {
		t.Errorf("left behind: %q", d)
	}
}
