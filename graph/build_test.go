package graph

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
)

var shTool = &Tool{Name: "sh", Path: "sh", Version: "test"}

// testBuild is a graph in a temporary directory, built with paths relative
// to it.
type testBuild struct {
	t   *testing.T
	dir string
	g   *Graph
	log bytes.Buffer
	// runner, if set, is opts' Runner (a fake's builds spawn nothing).
	runner jobs.Runner
}

func newTestBuild(t *testing.T) *testBuild {
	return &testBuild{t: t, dir: t.TempDir(), g: New()}
}

func (tb *testBuild) write(name, content string) {
	tb.t.Helper()
	p := filepath.Join(tb.dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *testBuild) read(name string) string {
	tb.t.Helper()
	b, err := os.ReadFile(filepath.Join(tb.dir, name))
	if err != nil {
		tb.t.Fatal(err)
	}
	return string(b)
}

// temps lists the temporary files of name (see atomicfile.TempName).
func (tb *testBuild) temps(name string) []string {
	m, _ := filepath.Glob(filepath.Join(tb.dir, filepath.Dir(name), "."+filepath.Base(name)+".tmp*"))
	return m
}

func (tb *testBuild) exists(name string) bool {
	_, err := os.Stat(filepath.Join(tb.dir, name))
	return err == nil
}

// sh adds an action running a shell script with $1.. bound to args; the
// outputs must appear among args.
func (tb *testBuild) sh(desc, script string, in, out []string, args ...string) *Action {
	tb.t.Helper()
	a := &Action{Desc: desc, Tool: shTool, Argv: append([]string{"sh", "-c", script, "sh"}, args...)}
	for _, p := range in {
		a.In = append(a.In, tb.g.File(p, Plain))
	}
	for _, p := range out {
		a.Out = append(a.Out, tb.g.File(p, Plain))
	}
	if err := tb.g.Add(a); err != nil {
		tb.t.Fatal(err)
	}
	return a
}

func (tb *testBuild) opts() Options {
	tb.log.Reset()
	p := NewProgress(&tb.log, false)
	return Options{
		Pool:     jobs.NewPool(2),
		Observer: Observers{p, Explain(p)},
		StateDir: filepath.Join(tb.dir, ".state"),
		Dir:      tb.dir,
		Runner:   tb.runner,
	}
}

func (tb *testBuild) build(opt Options) *Result {
	tb.t.Helper()
	res, err := tb.g.Build(context.Background(), opt)
	if err != nil {
		tb.t.Fatalf("build: %v\n%s", err, tb.log.String())
	}
	return res
}

// touchLater moves a file's modification time on without changing it.
func (tb *testBuild) touchLater(name string) {
	tb.t.Helper()
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(tb.dir, name), later, later); err != nil {
		tb.t.Fatal(err)
	}
}

func chain(t *testing.T) *testBuild {
	tb := newTestBuild(t)
	tb.write("a.txt", "alpha\n")
	tb.write("b.txt", "beta\n")
	// upper: a → A; lower-first-char: b → B (its output ignores most of b)
	tb.sh("upper a", `tr a-z A-Z < "$1" > "$2"`, []string{"a.txt"}, []string{"out/A.txt"}, "a.txt", "out/A.txt")
	tb.sh("first b", `head -c 1 "$1" > "$2"`, []string{"b.txt"}, []string{"out/B.txt"}, "b.txt", "out/B.txt")
	tb.sh("join", `cat "$1" "$2" > "$3"`, []string{"out/A.txt", "out/B.txt"}, []string{"out/AB.txt"}, "out/A.txt", "out/B.txt", "out/AB.txt")
	return tb
}

func TestIncremental(t *testing.T) {
	tb := chain(t)
	res := tb.build(tb.opts())
	if res.Ran != 3 || res.UpToDate != 0 {
		t.Fatalf("first build: ran %d, up to date %d\n%s", res.Ran, res.UpToDate, tb.log.String())
	}
	if got := tb.read("out/AB.txt"); got != "ALPHA\nb" {
		t.Fatalf("out/AB.txt = %q", got)
	}
	steps := []struct {
		name    string
		change  func()
		ran     int
		explain []string
	}{
		{"no change", func() {}, 0, nil},
		{"mtime only", func() { tb.touchLater("a.txt") }, 0, nil},
		{"input changed", func() { tb.write("a.txt", "gamma\n") }, 2, []string{
			"sycbuild explain: out/A.txt: input a.txt changed",
			"sycbuild explain: out/AB.txt: input out/A.txt changed",
		}},
		// Restat: b's output keeps its bytes, so join does not run.
		{"output unchanged", func() { tb.write("b.txt", "bravo\n") }, 1, []string{
			"sycbuild explain: out/B.txt: input b.txt changed",
		}},
		{"output deleted", func() { os.Remove(filepath.Join(tb.dir, "out/AB.txt")) }, 1, []string{
			"sycbuild explain: out/AB.txt: output out/AB.txt is missing",
		}},
		{"output edited", func() { tb.write("out/A.txt", "edited") }, 1, []string{
			"sycbuild explain: out/A.txt: output out/A.txt changed since it was built",
		}},
		{"state lost", func() { os.RemoveAll(filepath.Join(tb.dir, ".state")) }, 3, []string{
			"sycbuild explain: out/A.txt: no record of an earlier build",
			"sycbuild explain: out/B.txt: no record of an earlier build",
			"sycbuild explain: out/AB.txt: no record of an earlier build",
		}},
	}
	for _, s := range steps {
		s.change()
		res := tb.build(tb.opts())
		if res.Ran != s.ran || res.UpToDate != 3-s.ran {
			t.Errorf("%s: ran %d, up to date %d; want %d ran\n%s", s.name, res.Ran, res.UpToDate, s.ran, tb.log.String())
		}
		var explained []string
		for _, l := range strings.Split(tb.log.String(), "\n") {
			if strings.HasPrefix(l, "sycbuild explain:") {
				explained = append(explained, l)
			}
		}
		sort.Strings(explained)
		want := append([]string(nil), s.explain...)
		sort.Strings(want)
		if strings.Join(explained, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: explanations:\n%s\nwant:\n%s", s.name, strings.Join(explained, "\n"), strings.Join(want, "\n"))
		}
	}
	if got := tb.read("out/AB.txt"); got != "GAMMA\nb" {
		t.Errorf("out/AB.txt = %q", got)
	}
}

func TestCommandChangeAndNoCache(t *testing.T) {
	tb := newTestBuild(t)
	tb.write("a.txt", "x")
	a := tb.sh("copy", `cp "$1" "$2"`, []string{"a.txt"}, []string{"b.txt"}, "a.txt", "b.txt")
	tb.build(tb.opts())
	a.Argv[2] = `cat "$1" > "$2"`
	opt := tb.opts()
	if res := tb.build(opt); res.Ran != 1 || !strings.Contains(tb.log.String(), "b.txt: the command line changed") {
		t.Errorf("command change: ran %d\n%s", res.Ran, tb.log.String())
	}
	a.Tool = &Tool{Name: "sh", Path: "sh", Version: "other"}
	if res := tb.build(tb.opts()); res.Ran != 1 || !strings.Contains(tb.log.String(), "b.txt: the tool changed (its path or version)") {
		t.Errorf("tool change: ran %d\n%s", res.Ran, tb.log.String())
	}
	opt = tb.opts()
	opt.StateDir = ""
	for range 2 {
		if res := tb.build(opt); res.Ran != 1 {
			t.Errorf("without a state dir every action runs; ran %d", res.Ran)
		}
	}
}

// An output that a command writes again with the bytes it holds stays in
// place, with its time; one with other bytes, or one changed since the log
// saw it, is replaced.
func TestSameOutputKept(t *testing.T) {
	tb := newTestBuild(t)
	tb.write("a.txt", "x")
	a := tb.sh("copy", `cp "$1" "$2"`, []string{"a.txt"}, []string{"b.txt"}, "a.txt", "b.txt")
	tb.build(tb.opts())
	stat := func() os.FileInfo {
		t.Helper()
		fi, err := os.Stat(filepath.Join(tb.dir, "b.txt"))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	rerun := func(what string) {
		t.Helper()
		if res := tb.build(tb.opts()); res.Ran != 1 {
			t.Fatalf("%s: ran %d, want 1\n%s", what, res.Ran, tb.log.String())
		}
		if temps := tb.temps("b.txt"); len(temps) > 0 {
			t.Fatalf("%s: temporary files left: %v", what, temps)
		}
		if res := tb.build(tb.opts()); res.Ran != 0 {
			t.Fatalf("%s: the next build ran %d, want 0\n%s", what, res.Ran, tb.log.String())
		}
	}

	before := stat()
	a.Argv[2] = `cat "$1" > "$2"`
	rerun("same bytes")
	if after := stat(); !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("same bytes: b.txt was replaced (time %v, was %v)", after.ModTime(), before.ModTime())
	}

	tb.write("a.txt", "y")
	rerun("other bytes")
	if after := stat(); os.SameFile(before, after) || tb.read("b.txt") != "y" {
		t.Errorf("other bytes: b.txt holds %q, same file %v", tb.read("b.txt"), os.SameFile(before, after))
	}

	// The file in place changes while the command runs (it writes it
	// under its own name too): the log's hash of it is no longer its.
	a.Argv[2] = `cat "$1" > "$2"; printf z > b.txt`
	rerun("output changed meanwhile")
	if got := tb.read("b.txt"); got != "y" {
		t.Errorf("output changed meanwhile: b.txt holds %q, want the command's output", got)
	}
}

// An action may name an output twice: it is placed once.
func TestOutputNamedTwice(t *testing.T) {
	tb := newTestBuild(t)
	tb.write("a.txt", "x")
	tb.sh("copy", `cp "$1" "$2"`, []string{"a.txt"}, []string{"b.txt", "b.txt"}, "a.txt", "b.txt")
	tb.build(tb.opts())
	if got := tb.read("b.txt"); got != "x" {
		t.Errorf("b.txt = %q", got)
	}
}

func TestFailure(t *testing.T) {
	tb := newTestBuild(t)
	tb.write("in.txt", "x")
	// "bad" fails once "good" runs, so that "good" is running then.
	tb.sh("bad", `while [ ! -e good.started ]; do sleep 0.01; done; echo partial > "$2"; echo "line 1" >&2; echo "oops: $1" >&2; exit 3`, []string{"in.txt"}, []string{"bad.out"}, "in.txt", "bad.out")
	tb.sh("after bad", `cp "$1" "$2"`, []string{"bad.out"}, []string{"after.out"}, "bad.out", "after.out")
	tb.sh("good", `touch good.started; sleep 0.2; cp "$1" "$2"`, []string{"in.txt"}, []string{"good.out"}, "in.txt", "good.out")
	tb.sh("after good", `cp "$1" "$2"`, []string{"good.out"}, []string{"good2.out"}, "good.out", "good2.out")

	for _, keepGoing := range []bool{false, true} {
		os.RemoveAll(filepath.Join(tb.dir, ".state"))
		os.Remove(filepath.Join(tb.dir, "good2.out"))
		os.Remove(filepath.Join(tb.dir, "good.started"))
		opt := tb.opts()
		opt.KeepGoing = keepGoing
		res, err := tb.g.Build(context.Background(), opt)
		if !errors.Is(err, ErrFailed) {
			t.Fatalf("-k=%v: err = %v, want ErrFailed", keepGoing, err)
		}
		want := "FAILED: bad (exit status 3)\n" +
			`  $ sh -c 'while [ ! -e good.started ]; do sleep 0.01; done; echo partial > "$2"; echo "line 1" >&2; echo "oops: $1" >&2; exit 3' sh in.txt bad.out` + "\n" +
			"  | line 1\n  | oops: in.txt\n"
		if !strings.Contains(tb.log.String(), want) {
			t.Errorf("-k=%v: failure report:\n%s\nwant it to contain:\n%s", keepGoing, tb.log.String(), want)
		}
		if tb.exists("bad.out") || len(tb.temps("bad.out")) > 0 {
			t.Errorf("-k=%v: a failed command left its output", keepGoing)
		}
		if res.Failed != 1 {
			t.Errorf("-k=%v: failed = %d", keepGoing, res.Failed)
		}
		// "good" was already running when "bad" failed; whether its
		// dependant starts depends on -k.
		if got := tb.exists("good2.out"); got != keepGoing {
			t.Errorf("-k=%v: independent work after the failure ran: %v", keepGoing, got)
		}
		wantNotRun := 2
		if keepGoing {
			wantNotRun = 1
		}
		if res.NotRun != wantNotRun {
			t.Errorf("-k=%v: not run = %d, want %d", keepGoing, res.NotRun, wantNotRun)
		}
	}
}

func TestMissingOutputAndInput(t *testing.T) {
	tb := newTestBuild(t)
	tb.sh("lazy", `true`, nil, []string{"never.out"}, "never.out")
	tb.sh("needs", `cp "$1" "$2"`, []string{"missing.txt"}, []string{"x.out"}, "missing.txt", "x.out")
	opt := tb.opts()
	opt.KeepGoing = true
	_, err := tb.g.Build(context.Background(), opt)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{
		"FAILED: lazy (exit status 0)\n  $ sh -c true sh never.out\n  it did not write never.out",
		"FAILED: needs: input missing.txt does not exist",
	} {
		if !strings.Contains(tb.log.String(), want) {
			t.Errorf("log:\n%s\nwant it to contain:\n%s", tb.log.String(), want)
		}
	}
}

func TestTempOutputs(t *testing.T) {
	run, temps := withTempOutputs(
		[]string{"fatbinary", "--create=o/m.fatbin", "--image3=kind=elf,file=o/m.cubin", "-o", "o/x.bc", "o/x.bc.d"},
		[]string{"o/m.fatbin", "o/x.bc"})
	want := []string{"fatbinary", "--create=" + temps["o/m.fatbin"], "--image3=kind=elf,file=o/m.cubin", "-o", temps["o/x.bc"], "o/x.bc.d"}
	if strings.Join(run, " ") != strings.Join(want, " ") || len(temps) != 2 ||
		!strings.HasPrefix(temps["o/m.fatbin"], "o/.m.fatbin.tmp") || !strings.HasPrefix(temps["o/x.bc"], "o/.x.bc.tmp") {
		t.Errorf("withTempOutputs = %q, %v", run, temps)
	}
	// Every run gets names of its own: a writer left from a killed build
	// never writes the file a later build renames.
	if again, _ := withTempOutputs([]string{"cc", "-o", "o/x.bc"}, []string{"o/x.bc"}); again[2] == temps["o/x.bc"] {
		t.Errorf("two runs share the temporary name %s", again[2])
	}
	// A file starting with '-' is passed as ./-…, also while it is written.
	if run, temps := withTempOutputs([]string{"cc", "-o", "./-x.o"}, []string{"-x.o"}); run[2] != "./"+temps["-x.o"] {
		t.Errorf("withTempOutputs(./-x.o) = %q", run)
	}
}

func TestInProcess(t *testing.T) {
	tb := newTestBuild(t)
	tb.write("in.txt", "data")
	var calls atomic.Int32
	copyMain := func(_ Env, args []string, stdio Stdio) int {
		calls.Add(1)
		b, err := os.ReadFile(filepath.Join(tb.dir, args[0]))
		if err != nil {
			fmt.Fprintln(stdio.Err, "copy:", err)
			return 1
		}
		fmt.Fprintln(stdio.Out, "copy: note")
		os.WriteFile(filepath.Join(tb.dir, args[1]), b, 0o644)
		return 0
	}
	tool := &Tool{Name: "copy", Path: "sycbuild", Version: "1"}
	tb.g.Add(&Action{Desc: "copy", Tool: tool, Argv: []string{"sycbuild", "copy", "in.txt", "out.txt"}, Main: copyMain,
		In: []*Node{tb.g.File("in.txt", Plain)}, Out: []*Node{tb.g.File("out.txt", Plain)}})
	tb.g.Add(&Action{Desc: "boom", Tool: tool, Argv: []string{"sycbuild", "boom"}, Out: []*Node{tb.g.File("boom.txt", Plain)},
		Main: func(Env, []string, Stdio) int { panic("boom") }})
	opt := tb.opts()
	opt.KeepGoing = true
	_, err := tb.g.Build(context.Background(), opt)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v", err)
	}
	if tb.read("out.txt") != "data" || !strings.Contains(tb.log.String(), "copy: note") {
		t.Errorf("in-process copy: log\n%s", tb.log.String())
	}
	if !strings.Contains(tb.log.String(), "FAILED: boom (panic (a bug in sycbuild))\n  $ sycbuild boom\n  | panic: boom") {
		t.Errorf("panic report:\n%s", tb.log.String())
	}
	tb.build2(t, 0)
	if calls.Load() != 1 {
		t.Errorf("in-process tool ran %d times over two builds", calls.Load())
	}
}

// build2 builds expecting only failures from the panicking action.
func (tb *testBuild) build2(t *testing.T, wantRan int) {
	res, _ := tb.g.Build(context.Background(), tb.opts())
	if res.Ran != wantRan {
		t.Errorf("ran %d, want %d\n%s", res.Ran, wantRan, tb.log.String())
	}
}

// TestCancel: cancelling a build kills its commands' process groups,
// grandchildren included, removes their outputs and records nothing.
func TestCancel(t *testing.T) {
	tb := newTestBuild(t)
	tb.write("in.txt", "x")
	// The command starts a grandchild that would never end, names it in
	// "$2.pid" and waits for it.
	tb.sh("slow", `sleep 1000000 & echo $! > "$2.p"; mv "$2.p" "$2.pid"; echo partial > "$2"; wait; cp "$1" "$2"`,
		[]string{"in.txt"}, []string{"slow.out"}, "in.txt", "slow.out")
	pidFiles := filepath.Join(tb.dir, ".slow.out.tmp*.pid")
	ctx, cancel := context.WithCancel(context.Background())
	var pid int
	var guarded atomic.Bool
	go func() {
		for {
			if m, _ := filepath.Glob(pidFiles); len(m) == 1 {
				data, _ := os.ReadFile(m[0])
				pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		// Only a guard against hanging the test: a cancel that kills
		// nothing leaves the grandchild to this.
		time.AfterFunc(time.Minute, func() { guarded.Store(true); syscall.Kill(pid, syscall.SIGKILL) })
		cancel()
	}()
	res, err := tb.g.Build(ctx, tb.opts())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if guarded.Load() {
		t.Fatalf("cancel did not stop the command")
	}
	// The grandchild got SIGKILL with its group; it may take a moment to go.
	for deadline := time.Now().Add(10 * time.Second); alive(pid) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if alive(pid) {
		t.Errorf("the command's grandchild %d is alive after the cancel", pid)
	}
	if tb.exists("slow.out") || len(tb.temps("slow.out")) != 1 || res.NotRun != 1 { // the one left is .pid
		t.Errorf("after cancel: out %v tmp %v notRun %d", tb.exists("slow.out"), tb.temps("slow.out"), res.NotRun)
	}
	if rec := mustLog(t, tb).records["slow.out"]; rec != nil {
		t.Errorf("an interrupted action was recorded")
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

func mustLog(t *testing.T, tb *testBuild) *buildLog {
	t.Helper()
	l, err := openLog(context.Background(), filepath.Join(tb.dir, ".state"), "", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestDryRun(t *testing.T) {
	tb := chain(t)
	var script bytes.Buffer
	opt := tb.opts()
	opt.DryRun, opt.Script = true, &script
	res := tb.build(opt)
	want := "mkdir -p out\n" +
		`sh -c 'tr a-z A-Z < "$1" > "$2"' sh a.txt out/A.txt` + "\n" +
		`sh -c 'head -c 1 "$1" > "$2"' sh b.txt out/B.txt` + "\n" +
		`sh -c 'cat "$1" "$2" > "$3"' sh out/A.txt out/B.txt out/AB.txt` + "\n"
	if script.String() != want || res.Ran != 3 {
		t.Errorf("dry run (ran %d):\n%s\nwant:\n%s", res.Ran, script.String(), want)
	}
	if tb.exists("out") || tb.exists(".state/log") {
		t.Error("the dry run wrote something")
	}
	tb.build(tb.opts())
	tb.write("b.txt", "x")
	script.Reset()
	opt = tb.opts()
	opt.DryRun, opt.Script = true, &script
	tb.build(opt)
	want = `sh -c 'head -c 1 "$1" > "$2"' sh b.txt out/B.txt` + "\n" +
		`sh -c 'cat "$1" "$2" > "$3"' sh out/A.txt out/B.txt out/AB.txt` + "\n"
	if script.String() != want {
		t.Errorf("dry run after a change:\n%s\nwant:\n%s", script.String(), want)
	}
}

func TestGraphErrors(t *testing.T) {
	g := New()
	a := g.File("a", Plain)
	b := g.File("b", Plain)
	if err := g.Add(&Action{Desc: "x", Argv: []string{"x"}, In: []*Node{a}, Out: []*Node{b}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		act  *Action
		want string
	}{
		{&Action{Desc: "y", Argv: []string{"y"}, Out: []*Node{b}}, `graph: b is an output of both "x" and "y"`},
		{&Action{Desc: "z", Argv: []string{"z"}, Out: []*Node{a}}, `graph: a is an output of "z" but an input of the earlier action "x" (add producers first)`},
		{&Action{Desc: "w", Argv: []string{"w"}, In: []*Node{g.File("c", Plain)}, Out: []*Node{g.File("c", Plain)}}, `graph: c is both an input and an output of "w"`},
		{&Action{Desc: "v", Argv: []string{"v"}}, `graph: action "v" has no outputs`},
		{&Action{Desc: "u", Argv: []string{"u"}, Out: []*Node{g.File("bad\tname", Plain)}}, `graph: unusable file name "bad\tname" in action "u"`},
	} {
		if err := g.Add(tc.act); err == nil || err.Error() != tc.want {
			t.Errorf("Add(%s) = %v, want %s", tc.act.Desc, err, tc.want)
		}
	}
}

func TestDOT(t *testing.T) {
	tb := chain(t)
	var b bytes.Buffer
	tb.g.WriteDOT(&b)
	want := `digraph sycbuild {
  rankdir="LR"
  node [fontsize=10, shape=box, height=0.25]
  edge [fontsize=10]
  "f:a.txt" [label="a.txt", shape=ellipse]
  "f:out/A.txt" [label="out/A.txt", shape=ellipse]
  "f:b.txt" [label="b.txt", shape=ellipse]
  "f:out/B.txt" [label="out/B.txt", shape=ellipse]
  "f:out/AB.txt" [label="out/AB.txt", shape=ellipse]
  "a:0" [label="upper a"]
  "f:a.txt" -> "a:0"
  "a:0" -> "f:out/A.txt"
  "a:1" [label="first b"]
  "f:b.txt" -> "a:1"
  "a:1" -> "f:out/B.txt"
  "a:2" [label="join"]
  "f:out/A.txt" -> "a:2"
  "f:out/B.txt" -> "a:2"
  "a:2" -> "f:out/AB.txt"
}
`
	if b.String() != want {
		t.Errorf("DOT:\n%s", b.String())
	}
}

func TestLogTornLineAndCompaction(t *testing.T) {
	dir := t.TempDir()
	l, err := openLog(context.Background(), dir, "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 150 {
		l.put(&record{name: "x", key: fmt.Sprint(i), outputs: []fileState{{path: "x", hash: "h", size: 1, mtime: 2}}}, nil)
	}
	l.Close()
	data, _ := os.ReadFile(filepath.Join(dir, logName))
	if n := strings.Count(string(data), "\n"); n != 2 {
		t.Errorf("after 150 records of one name the log has %d lines, want header + 1", n)
	}
	os.WriteFile(filepath.Join(dir, logName), append(data, []byte("y\tk\t\tc\t\ty\x1fh\x1f1")...), 0o644)
	l, err = openLog(context.Background(), dir, "", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.records) != 1 || l.records["x"].key != "149" || l.records["x"].outputs[0] != (fileState{"x", "h", 1, 2}) {
		t.Errorf("records after reload: %+v", l.records)
	}
}

func TestShellQuote(t *testing.T) {
	got := ShellQuote([]string{"ocloc", "-device", "pvc,acm-g10", "-options", "-cl-fast-relaxed-math -g", "it's", "", "a=b/c.d@e%f+g"})
	want := `ocloc -device pvc,acm-g10 -options '-cl-fast-relaxed-math -g' 'it'\''s' '' a=b/c.d@e%f+g`
	if got != want {
		t.Errorf("ShellQuote = %s", got)
	}
}

// FuzzParseRecord: no log line, however damaged, crashes the loader, and
// every record it accepts is written back as the same line.
func FuzzParseRecord(f *testing.F) {
	f.Add("out/a.o\tk\tt1\x1et2\tc\tin.ll\x1fh\x1f1\x1f2\tout/a.o\x1fh\x1f3\x1f4")
	f.Add("x\tk\t\tc\t\t")
	f.Add("x\tk\t\tc\ta\x1fb\x1f-1\x1f9\x1ec\x1fd\x1f0\x1f0\t")
	f.Fuzz(func(t *testing.T, line string) {
		r := parseRecord(line)
		if r == nil {
			return
		}
		if got := parseRecord(strings.TrimSuffix(r.line(), "\n")); got == nil || got.line() != r.line() {
			t.Fatalf("%q: record does not round-trip: %q", line, r.line())
		}
	})
}

// TestForgetNothing: a step that writes nothing (a check) forgets nothing:
// the state a command's run gave an earlier output stays, so it is not
// read and hashed again; an in-process tool's forgetAll drops it.
func TestForgetNothing(t *testing.T) {
	dir := t.TempDir()
	l, err := openLog(context.Background(), filepath.Join(dir, ".state"), "", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.spv"), []byte("now"), 0o644)
	given := fileState{hash: "given", size: 3, mtime: 1}
	l.wrote("a.spv", given)
	l.forget() // spirv-val's outputs: none
	if st, err := l.state(dir, "a.spv"); err != nil || st.hash != "given" {
		t.Errorf("after forget(): %+v, %v; want the written state", st, err)
	}
	l.forgetAll()
	if st, err := l.state(dir, "a.spv"); err != nil || st.hash == "given" || st.size != 3 {
		t.Errorf("after forgetAll: %+v, %v; want the file looked at again", st, err)
	}
}

// TestHashStrings pins the encoding the build log's keys were made with.
func TestHashStrings(t *testing.T) {
	sum := sha256.Sum256([]byte("2:ab;0:;10:llvm-as\x0022;"))
	if got, want := hashStrings("ab", "", "llvm-as\x0022"), hex.EncodeToString(sum[:16]); got != want {
		t.Errorf("hashStrings = %s, want %s", got, want)
	}
}
