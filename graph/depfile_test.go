package graph

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

func TestMakeEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"out/dev.o", "out/dev.o"},
		{"a b.ll", `a\ b.ll`},
		{"tab\there", "tab\\\there"},
		{"#1.ll", `\#1.ll`},
		{"$HOME.ll", "$$HOME.ll"},
		{`back\slash.ll`, `back\slash.ll`},
		{`end\ space`, `end\\\ space`},
		{`two\\ space`, `two\\\\\ space`},
		{`C:\dir\x.ll`, `C:\dir\x.ll`},
	} {
		got, err := makeEscape(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("makeEscape(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := makeEscape("a\nb"); err == nil {
		t.Error("makeEscape accepted a line break")
	}
}

func TestDepfileText(t *testing.T) {
	d := &Depfile{Targets: []string{"out/dev.o"}, Prerequisites: []string{"t.yaml", "in 1.ll"}}
	got, err := d.text()
	if err != nil {
		t.Fatal(err)
	}
	if want := "out/dev.o: \\\n  t.yaml \\\n  in\\ 1.ll\n"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	d.PhonyPrerequisites = true
	got, _ = d.text()
	if want := "out/dev.o: \\\n  t.yaml \\\n  in\\ 1.ll\n\nt.yaml:\n\nin\\ 1.ll:\n"; got != want {
		t.Errorf("text with phony rules = %q, want %q", got, want)
	}
	if _, err := (&Depfile{}).text(); err == nil {
		t.Error("a depfile without targets was written")
	}
}

// oddNames are file names that need every escape a depfile has. (A tab,
// which make reads escaped and ninja does not, never reaches a depfile:
// the graph takes no file name with a control character.)
var oddNames = []string{"plain.ll", "a b.ll", "#hash.ll", "cost$5.ll", `back\ space.ll`}

// TestDepfileReadByMake has make read a depfile whose prerequisites do
// not exist: make names each missing one, unescaped, in its error.
func TestDepfileReadByMake(t *testing.T) {
	mk := testenv.Tool(t, "make")
	for _, name := range oddNames {
		dir := t.TempDir()
		d := &Depfile{Targets: []string{"out.o"}, Prerequisites: []string{name}}
		if err := d.WriteFile(filepath.Join(dir, "out.d")); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "Makefile"), []byte("include out.d\nout.o:\n\ttouch $@\n"), 0o644)
		cmd := exec.Command(mk, "-s", "out.o")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		want := "No rule to make target '" + name + "', needed by 'out.o'"
		if err == nil || !strings.Contains(string(out), want) {
			t.Errorf("%q: make said %q, want %q", name, out, want)
		}
	}
}

// TestDepfileReadByNinja has ninja load a depfile (deps = gcc) and list
// what it recorded: every name must come back as written.
func TestDepfileReadByNinja(t *testing.T) {
	ninja := testenv.Tool(t, "ninja")
	dir := t.TempDir()
	d := &Depfile{Targets: []string{"out.o"}, Prerequisites: oddNames}
	if err := d.WriteFile(filepath.Join(dir, "made.d")); err != nil {
		t.Fatal(err)
	}
	build := "rule w\n  command = cp made.d out.d && touch out.o\n  depfile = out.d\n  deps = gcc\nbuild out.o: w\n"
	os.WriteFile(filepath.Join(dir, "build.ninja"), []byte(build), 0o644)
	for _, args := range [][]string{{}, {"-t", "deps", "out.o"}} {
		cmd := exec.Command(ninja, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("ninja %v: %v\n%s", args, err, out)
		}
		if len(args) == 0 {
			continue
		}
		var got []string
		for _, l := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(l, "    ") {
				got = append(got, l[4:])
			}
		}
		if strings.Join(got, "|") != strings.Join(oddNames, "|") {
			t.Errorf("ninja recorded %q, want %q\n%s", got, oddNames, out)
		}
	}
}

func TestSources(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "in.list"), []byte("a.ll\n\nb.ll\na.ll\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "in.table"), []byte("[Code|Symbols]\nc.bc|c.sym\nb.ll|d.sym\n"), 0o644)
	g := New()
	linked, list, table := g.File("linked.ll", Plain), g.File("in.list", List), g.File("in.table", Table)
	mustAdd(t, g, &Action{Desc: "link", Argv: []string{"link"}, In: []*Node{g.File("x.ll", Plain), list}, Out: []*Node{linked}})
	mustAdd(t, g, &Action{Desc: "use", Argv: []string{"use"}, In: []*Node{linked, table, g.File("x.ll", Plain)}, Out: []*Node{g.File("out.o", Plain)}})
	g.File("unused.ll", Plain) // mentioned, read by no action
	got, err := g.Sources(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := "in.list a.ll b.ll in.table c.bc c.sym d.sym x.ll"
	if strings.Join(got, " ") != want {
		t.Errorf("Sources = %q, want %q", strings.Join(got, " "), want)
	}
	os.Remove(filepath.Join(dir, "in.table"))
	if _, err := g.Sources(dir); err == nil {
		t.Error("Sources read a missing table without an error")
	}
}

func mustAdd(t *testing.T, g *Graph, a *Action) {
	t.Helper()
	if err := g.Add(a); err != nil {
		t.Fatal(err)
	}
}
