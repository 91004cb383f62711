package report

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/jobs"
)

var shTool = &graph.Tool{Name: "sh", Path: "sh", Version: "test"}

// meet is a shell function: "meet me other" waits (up to 4 s) for the
// command that runs "meet other me", so the two surely run at once.
const meet = `meet() { mkdir -p meet; : > "meet/$1"; i=0; while [ ! -e "meet/$2" ] && [ $i -lt 200 ]; do sleep 0.02; i=$((i+1)); done; }; `

// smallGraph is a build in dir of two targets, a and b: a's fan-out runs
// two commands per module over three modules (the second fails on a
// module that says "fails", and the first one's output stands in), b
// copies a module's source, and one of b's actions always fails (so the
// one after it never runs). Once src/m1.txt says "changed", m1's job and
// the failing action wait for each other: they run at once, on both job
// slots.
func smallGraph(t *testing.T, dir string) *graph.Graph {
	t.Helper()
	write := func(name, content string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	items := []string{"src/m0.txt", "src/m1.txt", "src/m2.txt"}
	for _, it := range items {
		write(it, "content of "+it+"\n")
	}
	write("mods.list", strings.Join(items, "\n")+"\n")
	write("b.txt", "beta\n")

	g := graph.New()
	add := func(a *graph.Action) {
		if err := g.Add(a); err != nil {
			t.Fatal(err)
		}
	}
	sh := func(desc, script string, in, out []string, args ...string) {
		a := &graph.Action{Desc: desc, Tool: shTool, Argv: append([]string{"sh", "-c", script, "sh"}, args...)}
		for _, p := range in {
			a.In = append(a.In, g.File(p, graph.Plain))
		}
		for _, p := range out {
			a.Out = append(a.Out, g.File(p, graph.Plain))
		}
		add(a)
	}
	list := g.File("mods.list", graph.List)
	f := &graph.Fanout{
		List: list,
		Dir:  "out/a",
		Steps: []*graph.Step{
			{Tool: shTool, Args: []string{"-c", meet + `if grep -q changed "$1"; then meet job broken; fi; sleep 0.05; tr a-z A-Z < "$1" > "$2"`, "sh", "mod.src", "mod.up"},
				In:  []graph.StepInput{{Placeholder: "mod.src", From: -1}},
				Out: &graph.StepOutput{Placeholder: "mod.up", Ext: "up", List: g.File("out/a/up.list", graph.List)}},
			{Tool: &graph.Tool{Name: "rev", Path: "sh", Version: "test"}, Args: []string{"-c", `if grep -q FAILS "$1"; then exit 245; fi; sleep 0.02; rev "$1" > "$2"`, "sh", "mod.up", "mod.img"},
				In:  []graph.StepInput{{Placeholder: "mod.up", From: 0}},
				Out: &graph.StepOutput{Placeholder: "mod.img", Ext: "img", List: g.File("out/a/images.list", graph.List)}},
		},
		Fallback: &graph.Fallback{Step: 1, From: 0},
	}
	add(&graph.Action{Desc: "[a] upper and reverse", Fanout: f, In: []*graph.Node{list},
		Out: []*graph.Node{f.Steps[0].Out.List, f.Steps[1].Out.List}})
	sh("[b] copy", `sleep 0.05; cp "$1" "$2"`, []string{"src/m1.txt"}, []string{"out/b/copy.txt"}, "src/m1.txt", "out/b/copy.txt")
	sh("[b] broken", meet+`if grep -q changed src/m1.txt; then meet broken job; fi; echo "broken: no such kernel" >&2; exit 3`,
		[]string{"b.txt"}, []string{"out/b/never.txt"}, "out/b/never.txt")
	sh("[b] after broken", `cp "$1" "$2"`, []string{"out/b/never.txt"}, []string{"out/b/after.txt"}, "out/b/never.txt", "out/b/after.txt")
	sh("link", `cat "$1" "$2" > "$3"`, []string{"out/a/images.list", "out/b/copy.txt"}, []string{"out/linked.txt"},
		"out/a/images.list", "out/b/copy.txt", "out/linked.txt")
	return g
}

// TestBuildInBrowser builds a small graph twice (the second time after one
// module's source changed) with a report, and opens the second build's
// report in headless Chromium.
func TestBuildInBrowser(t *testing.T) {
	dir := t.TempDir()
	g := smallGraph(t, dir)
	build := func(obs graph.Observer) {
		_, err := g.Build(context.Background(), graph.Options{
			Pool: jobs.NewPool(2), KeepGoing: true, Observer: obs,
			StateDir: filepath.Join(dir, ".state"), Dir: dir,
		})
		if !errors.Is(err, graph.ErrFailed) {
			t.Fatalf("build: %v, want the broken action's failure", err)
		}
	}
	build(nil)
	for name, text := range map[string]string{"src/m1.txt": "changed\n", "src/m2.txt": "fails now\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := New(Options{Title: "small build", Dir: dir})
	build(r)
	page := filepath.Join(dir, "report.html")
	if err := r.WriteFile(page); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	// What ran: b's copy and broken actions, the fan-out with two jobs (of
	// two commands each; m2's second failed, and it fell back), and then
	// link; one job was up to date. m1's job and the broken action ran at
	// once, on slots 0 and 1.
	for _, c := range []struct {
		what string
		n    int
	}{
		{`data-kind="action"`, 3},
		{`data-kind="fan-out"`, 1},
		{`data-kind="job"`, 2},
		{`data-kind="command"`, 4},
		{`<rect class="bar failed"`, 2},
		{`<rect class="bar fallback"`, 1},
		{`<tr data-module="1"`, 3},
		{`<td>up to date</td>`, 1},
		{`data-failure="1"`, 1},
		{`data-fallback="1"`, 1},
		{`>slot 0</text>`, 1},
		{`>slot 1</text>`, 1},
		{`<tr data-target="a">`, 1},
		{`<tr data-target="b">`, 1},
		{`<tr data-target="(all)">`, 1},
	} {
		if n := strings.Count(string(html), c.what); n != c.n {
			t.Errorf("%q occurs %d times in the page, want %d", c.what, n, c.n)
		}
	}
	if !strings.Contains(section(t, string(html), "failures"), "broken: no such kernel") {
		t.Errorf("the failure's section does not show its stderr")
	}
	if !strings.Contains(string(html), "input src/m1.txt changed") {
		t.Errorf("the page does not say why m1 ran")
	}

	shot := filepath.Join(dir, "report.png")
	dom := browse(t, page, shot)
	checkDOM(t, dom)
	// The script sorted the tables it sorts at load, and marked the column.
	if n := strings.Count(dom, `class="num sorted-desc"`); n != 3 {
		t.Errorf("%d columns marked as sorted, want 3 (slowest, modules, memory)", n)
	}
	// The timeline's bars show: sh's actions and commands, rev's commands,
	// and the failure.
	checkShot(t, shot, toolColor("sh"), toolColor("rev"), failColor, fallbackColor)
	keepArtifact(t, page, "report-small.html")
	keepArtifact(t, shot, "report-small.png")
}
