package graph

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listBuild is a test build holding the items, each "content of <item>",
// and mods.list naming them.
func listBuild(t *testing.T, items ...string) *testBuild {
	tb := newTestBuild(t)
	for _, it := range items {
		tb.write(it, "content of "+it+"\n")
	}
	tb.write("mods.list", strings.Join(items, "\n")+"\n")
	return tb
}

// fanoutBuild: mods.list names source files; per item: upper-case it,
// check it is not empty, reverse each line of it.
func fanoutBuild(t *testing.T, items ...string) (*testBuild, *Action) {
	tb := listBuild(t, items...)
	f := &Fanout{
		List: tb.g.File("mods.list", List),
		Dir:  "out",
		Steps: []*Step{
			{Tool: shTool, Args: []string{"-c", `tr a-z A-Z < "$1" > "$2"`, "sh", "mod.src", "mod.up"},
				In: []StepInput{{"mod.src", -1}}, Out: &StepOutput{"mod.up", "up", tb.g.File("out/up.list", List)}},
			{Tool: shTool, Args: []string{"-c", `test -s "$1"`, "sh", "mod.up"}, In: []StepInput{{"mod.up", 0}}},
			{Tool: shTool, Args: []string{"-c", `rev "$1" > "$2"; cat "$3" >> "$2"`, "sh", "mod.up", "mod.rev", "mod.src"},
				In: []StepInput{{"mod.up", 0}, {"mod.src", -1}}, Out: &StepOutput{"mod.rev", "rev", tb.g.File("out/rev.list", List)}},
		},
	}
	a := &Action{Desc: "[t] rev", Fanout: f, In: []*Node{f.List}, Out: []*Node{f.Steps[0].Out.List, f.Steps[2].Out.List}}
	if err := tb.g.Add(a); err != nil {
		t.Fatal(err)
	}
	// A consumer of the final list, to see restat through a fan-out.
	tb.g.Add(&Action{Desc: "cat", Tool: shTool, Argv: []string{"sh", "-c", `cat $(cat "$1") > "$2"`, "sh", "out/rev.list", "all.txt"},
		In: []*Node{tb.g.File("out/rev.list", List)}, Out: []*Node{tb.g.File("all.txt", Plain)}})
	return tb, a
}

func TestFanout(t *testing.T) {
	tb, a := fanoutBuild(t, "src/m0.txt", "src/m1.txt", "src/m2.txt")
	trace := NewTrace()
	opt := tb.opts()
	opt.Observer = Observers{opt.Observer, trace}
	res := tb.build(opt)
	if res.Ran != 2 || res.JobsRan != 3 {
		t.Fatalf("ran %d actions, %d jobs\n%s", res.Ran, res.JobsRan, tb.log.String())
	}
	if got := tb.read("out/up.list"); got != "out/mod_0.up\nout/mod_1.up\nout/mod_2.up\n" {
		t.Errorf("up.list = %q", got)
	}
	if got := tb.read("out/mod_1.rev"); got != "TXT.1M/CRS FO TNETNOC\ncontent of src/m1.txt\n" {
		t.Errorf("mod_1.rev = %q", got)
	}
	// 2 actions (one a fan-out) + 3 jobs + 3×3 commands.
	if n := trace.Events(); n != 2+3+9 {
		t.Errorf("trace has %d events", n)
	}
	var js bytes.Buffer
	trace.WriteTo(&js)
	if !strings.Contains(js.String(), `"name": "[t] rev src/m2.txt"`) || !strings.Contains(js.String(), `"name": "job slot 0"`) {
		t.Errorf("trace JSON:\n%s", js.String())
	}

	if res := tb.build(tb.opts()); res.Ran != 0 || res.JobsCached != 3 || res.JobsRan != 0 {
		t.Errorf("second build: ran %d, jobs ran %d cached %d", res.Ran, res.JobsRan, res.JobsCached)
	}
	tb.write("src/m1.txt", "new\n")
	res = tb.build(tb.opts())
	if res.JobsRan != 1 || res.JobsCached != 2 || res.Ran != 2 {
		t.Errorf("after changing one item: jobs ran %d cached %d, actions ran %d\n%s", res.JobsRan, res.JobsCached, res.Ran, tb.log.String())
	}
	if !strings.Contains(tb.log.String(), "sycbuild explain: out/mod_1.up: input src/m1.txt changed") {
		t.Errorf("explanations:\n%s", tb.log.String())
	}
	if got := tb.read("all.txt"); !strings.Contains(got, "WEN\nnew\n") {
		t.Errorf("all.txt = %q", got)
	}

	// Fewer items: the third job's files go away.
	tb.write("mods.list", "src/m0.txt\nsrc/m1.txt\n")
	tb.build(tb.opts())
	if tb.exists("out/mod_2.up") || tb.exists("out/mod_2.rev") || !tb.exists("out/mod_1.rev") {
		t.Errorf("stale outputs: mod_2.up %v mod_2.rev %v", tb.exists("out/mod_2.up"), tb.exists("out/mod_2.rev"))
	}
	_ = a
}

func TestFanoutForeachCommand(t *testing.T) {
	_, a := fanoutBuild(t, "m0.txt")
	f := a.Fanout
	want := []string{
		`sycbuild llvm-foreach --in-file-list=mods.list --in-replace=mod.src --out-replace=mod.up --out-dir=out --out-ext=up --out-file-list=out/up.list --deterministic -- sh -c 'tr a-z A-Z < "$1" > "$2"' sh mod.src mod.up`,
		`sycbuild llvm-foreach --in-file-list=out/up.list --in-replace=mod.up -- sh -c 'test -s "$1"' sh mod.up`,
		`sycbuild llvm-foreach --in-file-list=out/up.list --in-replace=mod.up --in-file-list=mods.list --in-replace=mod.src --out-replace=mod.rev --out-dir=out --out-ext=rev --out-file-list=out/rev.list --deterministic -- sh -c 'rev "$1" > "$2"; cat "$3" >> "$2"' sh mod.up mod.rev mod.src`,
	}
	for k := range f.Steps {
		if got := ShellQuote(f.ForeachCommand("sycbuild", k)); got != want[k] {
			t.Errorf("step %d:\n got %s\nwant %s", k, got, want[k])
		}
	}
	j := f.job(4, "dir/m4.ll")
	if got := ShellQuote(j.argvs[2]); got != `sh -c 'rev "$1" > "$2"; cat "$3" >> "$2"' sh out/mod_4.up out/mod_4.rev dir/m4.ll` {
		t.Errorf("job command: %s", got)
	}
}

func TestFanoutFailure(t *testing.T) {
	tb, _ := fanoutBuild(t, "m0.txt", "empty.txt", "m2.txt")
	tb.write("empty.txt", "")
	opt := tb.opts()
	opt.KeepGoing = true
	res, err := tb.g.Build(context.Background(), opt)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v", err)
	}
	// An empty output is a failure of the step that wrote it, whatever
	// its exit status.
	want := "FAILED: [t] rev empty.txt (sh) (exit status 0)\n  $ sh -c 'tr a-z A-Z < \"$1\" > \"$2\"' sh empty.txt out/mod_1.up\n  it wrote an unusable output: out/mod_1.up is empty\n"
	if !strings.Contains(tb.log.String(), want) {
		t.Errorf("log:\n%s\nwant:\n%s", tb.log.String(), want)
	}
	if res.JobsRan != 2 || res.JobsFailed != 1 || res.Failed != 1 || res.NotRun != 1 {
		t.Errorf("jobs ran %d failed %d; actions failed %d not run %d", res.JobsRan, res.JobsFailed, res.Failed, res.NotRun)
	}
	if tb.exists("out/up.list") || tb.exists("out/rev.list") {
		t.Error("a failed fan-out wrote its output lists")
	}
	// The two good jobs are cached: fixing the bad item runs one job.
	tb.write("empty.txt", "now full\n")
	res = tb.build(tb.opts())
	if res.JobsRan != 1 || res.JobsCached != 2 {
		t.Errorf("after the fix: jobs ran %d cached %d", res.JobsRan, res.JobsCached)
	}
}

func TestFanoutDryRun(t *testing.T) {
	tb, _ := fanoutBuild(t, "m0.txt")
	var script bytes.Buffer
	opt := tb.opts()
	opt.DryRun, opt.Script = true, &script
	tb.build(opt)
	lines := strings.Split(strings.TrimSpace(script.String()), "\n")
	if len(lines) != 5 || lines[0] != "mkdir -p out" || !strings.HasPrefix(lines[1], "sycbuild llvm-foreach --in-file-list=mods.list") ||
		!strings.HasPrefix(lines[4], "sh -c 'cat $(cat \"$1\") > \"$2\"' sh out/rev.list all.txt") {
		t.Errorf("dry run:\n%s", script.String())
	}
	if _, err := os.Stat(filepath.Join(tb.dir, "out")); err == nil {
		t.Error("dry run made the output directory")
	}
}

// pipeBuild: mods.list names source files; per item, producer (a shell
// script given the item as $1) pipes into consumer (given the output,
// out/mod_<i>.rev, as $1), and a validator checks the output.
func pipeBuild(t *testing.T, producer, consumer string, items ...string) (*testBuild, *Fanout) {
	tb := listBuild(t, items...)
	f := &Fanout{
		List: tb.g.File("mods.list", List),
		Dir:  "out",
		Steps: []*Step{
			{Tool: shTool, Args: []string{"-c", producer, "sh", "mod.src"}, In: []StepInput{{"mod.src", -1}}, Pipe: true},
			{Tool: shTool, Args: []string{"-c", consumer, "sh", "mod.rev"}, Out: &StepOutput{"mod.rev", "rev", tb.g.File("out/rev.list", List)}},
			{Tool: shTool, Args: []string{"-c", `test -s "$1"`, "sh", "mod.rev"}, In: []StepInput{{"mod.rev", 1}}},
		},
	}
	if err := tb.g.Add(&Action{Desc: "[t] rev", Fanout: f, In: []*Node{f.List}, Out: []*Node{f.Steps[1].Out.List}}); err != nil {
		t.Fatal(err)
	}
	return tb, f
}

// A step that pipes into the next: the two run at once, joined by a pipe,
// with no file between them; the dry run's llvm-foreach line runs them as
// one shell pipeline that writes the same file.
func TestFanoutPipe(t *testing.T) {
	tb, f := pipeBuild(t, `tr a-z A-Z < "$1"`, `rev > "$1"`, "src/m0.txt", "src/m1.txt")
	trace := NewTrace()
	opt := tb.opts()
	opt.Observer = Observers{opt.Observer, trace}
	if res := tb.build(opt); res.Ran != 1 || res.JobsRan != 2 {
		t.Fatalf("ran %d actions, %d jobs\n%s", res.Ran, res.JobsRan, tb.log.String())
	}
	if got := tb.read("out/mod_1.rev"); got != "TXT.1M/CRS FO TNETNOC\n" {
		t.Errorf("mod_1.rev = %q", got)
	}
	if got := tb.read("out/rev.list"); got != "out/mod_0.rev\nout/mod_1.rev\n" {
		t.Errorf("rev.list = %q", got)
	}
	if names, _ := filepath.Glob(filepath.Join(tb.dir, "out", "*")); len(names) != 3 {
		t.Errorf("out holds %v, want the two outputs and their list", names)
	}
	// 1 fan-out + 2 jobs + 2×3 commands.
	if n := trace.Events(); n != 1+2+6 {
		t.Errorf("trace has %d events", n)
	}
	if res := tb.build(tb.opts()); res.JobsRan != 0 || res.JobsCached != 2 {
		t.Errorf("second build: jobs ran %d cached %d", res.JobsRan, res.JobsCached)
	}

	want := `sycbuild llvm-foreach --in-file-list=mods.list --in-replace=mod.src --out-replace=mod.rev --out-dir=out --out-ext=rev --out-file-list=out/rev.list --deterministic -- sh -c 'sh -c '\''tr a-z A-Z < "$1"'\'' sh "$1" | sh -c '\''rev > "$1"'\'' sh "$2"' sh mod.src mod.rev`
	argv := f.ForeachCommand("sycbuild", 0)
	if got := ShellQuote(argv); got != want {
		t.Fatalf("dry run of the pipe:\n got %s\nwant %s", got, want)
	}
	// What llvm-foreach would run for item 1, run here, writes what the
	// build wrote.
	cmd := slices.Index(argv, "--") + 1
	run := append([]string(nil), argv[cmd:]...)
	run[len(run)-2], run[len(run)-1] = "src/m1.txt", "again.rev"
	c := exec.Command(run[0], run[1:]...)
	c.Dir = tb.dir
	if out, err := c.CombinedOutput(); err != nil || tb.read("again.rev") != tb.read("out/mod_1.rev") {
		t.Errorf("%s: %v %s; wrote %q", ShellQuote(run), err, out, tb.read("again.rev"))
	}
}

// A pipeline that fails is reported by the command that failed: the one
// that wrote into the pipe, or the reader that stopped reading (the
// writer then ends on a broken pipe, which is not its fault). No output
// is left.
func TestFanoutPipeFailure(t *testing.T) {
	for _, tc := range []struct {
		name, producer, consumer, want string
	}{
		{"writer", `echo partial; echo "no such thing" >&2; exit 3`, `rev > "$1"`,
			"FAILED: [t] rev m0.txt (sh) (exit status 3)\n  $ sh -c 'echo partial; echo \"no such thing\" >&2; exit 3' sh m0.txt\n"},
		{"reader", `yes`, `head -c 1 > /dev/null; echo "bad input" >&2; exit 4`,
			"FAILED: [t] rev m0.txt (sh) (exit status 4)\n  $ sh -c 'head -c 1 > /dev/null; echo \"bad input\" >&2; exit 4' sh out/mod_0.rev\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, _ := pipeBuild(t, tc.producer, tc.consumer, "m0.txt")
			res, err := tb.g.Build(context.Background(), tb.opts())
			if !errors.Is(err, ErrFailed) || res.JobsFailed != 1 {
				t.Fatalf("err %v, jobs failed %d", err, res.JobsFailed)
			}
			if log := tb.log.String(); !strings.Contains(log, tc.want) {
				t.Errorf("log:\n%s\nwant it to contain:\n%s", log, tc.want)
			}
			if names, _ := filepath.Glob(filepath.Join(tb.dir, "out", "*")); len(names) != 0 {
				t.Errorf("left %v", names)
			}
		})
	}
	// A step that pipes must have no output file and a next step.
	g := New()
	list := g.File("l", List)
	for _, steps := range [][]*Step{
		{{Tool: shTool, Args: []string{"x"}, Pipe: true}},
		{{Tool: shTool, Args: []string{"mod.a"}, Pipe: true, Out: &StepOutput{"mod.a", "a", g.File("a.list", List)}}, {Tool: shTool, Args: []string{"-"}}},
	} {
		a := &Action{Desc: "p", Fanout: &Fanout{List: list, Dir: "out", Steps: steps}, In: []*Node{list}, Out: []*Node{g.File("a.list", List)}}
		if err := g.Add(a); err == nil || !strings.Contains(err.Error(), "pipes into the next step") {
			t.Errorf("%d steps: %v", len(steps), err)
		}
	}
}
