package graph

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// aotBuild is a fan-out of two steps over modules whose lines are their
// "kernels": step 0 copies the module, step 1 (the "compiler") fails with
// status 245 and no message when a kernel's name starts with BAD.
func aotBuild(t *testing.T, modules map[string]string) (*testBuild, *Fanout) {
	tb := newTestBuild(t)
	var names []string
	for name, text := range modules {
		tb.write(name, text)
		names = append(names, name)
	}
	tb.write("mods.list", strings.Join(sorted(names), "\n")+"\n")
	f := &Fanout{
		List: tb.g.File("mods.list", List),
		Dir:  "out",
		Steps: []*Step{
			{Tool: shTool, Args: []string{"-c", `cp "$1" "$2"`, "sh", "mod.ll", "mod.spv"},
				In: []StepInput{{"mod.ll", -1}}, Out: &StepOutput{"mod.spv", "spv", tb.g.File("out/spv.list", List)}},
			{Tool: &Tool{Name: "aot", Path: "sh", Version: "1"}, Args: []string{"-c", `grep -q '^BAD' "$1" && exit 245; sed 's/^/isa /' "$1" > "$2"`, "sh", "mod.spv", "mod.bin"},
				In: []StepInput{{"mod.spv", 0}}, Out: &StepOutput{"mod.bin", "bin", tb.g.File("out/bin.list", List)}},
		},
	}
	if err := tb.g.Add(&Action{Desc: "[gen] aot", Fanout: f, In: []*Node{f.List}, Out: []*Node{f.Steps[0].Out.List, f.Steps[1].Out.List}}); err != nil {
		t.Fatal(err)
	}
	return tb, f
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// splitLines is an Isolate that makes one part per line of the module.
func splitLines(dir, item, outDir string) ([]Part, error) {
	data, err := os.ReadFile(filepath.Join(dir, item))
	if err != nil {
		return nil, err
	}
	var parts []Part
	for i, line := range strings.Fields(string(data)) {
		p := filepath.Join(outDir, fmt.Sprintf("part_%d.ll", i))
		if err := os.WriteFile(filepath.Join(dir, p), []byte(line+"\n"), 0o644); err != nil {
			return nil, err
		}
		parts = append(parts, Part{Name: line, Path: p})
	}
	return parts, nil
}

// TestIsolateKernels: a module whose compile fails is split per kernel,
// the failing step runs on each, and the failure names the kernels that
// fail alone; the other module is built with -k, and nothing of the
// isolation is left.
func TestIsolateKernels(t *testing.T) {
	tb, f := aotBuild(t, map[string]string{"a.ll": "k1\nk2\n", "b.ll": "k3\nBADk4\nk5\nBADk6\n"})
	f.Isolate = splitLines
	opt := tb.opts()
	opt.KeepGoing = true
	res, err := tb.g.Build(context.Background(), opt)
	if !errors.Is(err, ErrFailed) || res.JobsFailed != 1 || res.JobsRan != 1 {
		t.Fatalf("err %v, %+v\n%s", err, res, tb.log.String())
	}
	log := tb.log.String()
	for _, want := range []string{"(exit status 245)", "isolated: 2 of its 4 kernels fail alone: BADk4, BADk6", "the first alone:"} {
		if !strings.Contains(log, want) {
			t.Errorf("the failure does not say %q:\n%s", want, log)
		}
	}
	if got := tb.read("out/mod_0.bin"); got != "isa k1\nisa k2\n" {
		t.Errorf("the good module's image: %q", got)
	}
	if m, _ := filepath.Glob(filepath.Join(tb.dir, "out", ".isolate*")); len(m) > 0 {
		t.Errorf("isolation left %v", m)
	}
}

// TestFallback: a module whose compile fails falls back to its earlier
// step's output, loudly; the build succeeds and lists it.
func TestFallback(t *testing.T) {
	tb, f := aotBuild(t, map[string]string{"a.ll": "k1\n", "b.ll": "k3\nBADk4\n"})
	f.Fallback = &Fallback{Step: 1, From: 0}
	f.Isolate = splitLines // not used: the job is saved
	res := tb.build(tb.opts())
	if len(res.Fallbacks) != 1 || !strings.HasPrefix(res.Fallbacks[0], "b.ll: aot failed (exit status 245); out/mod_1.spv stands in") {
		t.Errorf("fallbacks: %q", res.Fallbacks)
	}
	if got := tb.read("out/mod_1.bin"); got != "k3\nBADk4\n" {
		t.Errorf("the fallen-back image: %q, want the module itself", got)
	}
	if got := tb.read("out/mod_0.bin"); got != "isa k1\n" {
		t.Errorf("the good module's image: %q", got)
	}
	if !strings.Contains(tb.log.String(), "sycbuild: warning: [gen] aot b.ll: aot failed (exit status 245); out/mod_1.spv stands in, to be compiled when the program runs") {
		t.Errorf("no warning:\n%s", tb.log.String())
	}
	// A bad fallback is refused when the fan-out is added.
	g := New()
	bad := *f
	bad.Fallback = &Fallback{Step: 0, From: 1}
	bad.List = g.File("mods.list", List)
	err := g.Add(&Action{Desc: "x", Fanout: &bad, In: []*Node{bad.List}, Out: []*Node{g.File("out/spv.list", List)}})
	if err == nil || !strings.Contains(err.Error(), "fallback from step 1 to step 0") {
		t.Errorf("a fallback from a later step: %v", err)
	}
}

// TestFallbackNotRecorded: a job saved by its fallback is neither recorded
// in the build log nor stored in the cache as its action's result: the
// next build runs the failed command again and, while it fails, says so
// again; once it works, its real output replaces the stand-in.
func TestFallbackNotRecorded(t *testing.T) {
	tb, f := aotBuild(t, map[string]string{"a.ll": "k1\n", "b.ll": "k3\nBADk4\n"})
	f.Fallback = &Fallback{Step: 1, From: 0}
	c := newMemCache()
	opt := tb.opts()
	opt.Cache = c
	const warning = "aot failed (exit status 245); out/mod_1.spv stands in"
	for i := range 2 {
		tb.log.Reset()
		res := tb.build(opt)
		if len(res.Fallbacks) != 1 || !strings.Contains(tb.log.String(), warning) {
			t.Fatalf("build %d: fallbacks %q, not announced:\n%s", i+1, res.Fallbacks, tb.log.String())
		}
		if got := tb.read("out/mod_1.bin"); got != "k3\nBADk4\n" {
			t.Errorf("build %d: the fallen-back image: %q", i+1, got)
		}
	}
	c.mu.Lock()
	for _, outs := range c.entries {
		for name, data := range outs {
			if strings.Contains(name, "mod_1.bin") {
				t.Errorf("the stand-in was cached as the compile's result: %s = %q", name, data)
			}
		}
	}
	c.mu.Unlock()
	// The compiler works again: the job runs, its real image replaces
	// the stand-in.
	tb.write("b.ll", "k3\nk4\n")
	tb.log.Reset()
	res := tb.build(opt)
	if len(res.Fallbacks) != 0 || tb.read("out/mod_1.bin") != "isa k3\nisa k4\n" {
		t.Errorf("after the fix: fallbacks %q, image %q\n%s", res.Fallbacks, tb.read("out/mod_1.bin"), tb.log.String())
	}
}

// TestStaleIsolationRemoved: an isolation directory that a killed build
// left beside a fan-out's outputs is removed by the next build that runs
// the fan-out.
func TestStaleIsolationRemoved(t *testing.T) {
	tb, _ := aotBuild(t, map[string]string{"a.ll": "k1\n"})
	tb.write("out/.isolate_0/part_0.ll", "k1\n")
	tb.write("out/.isolate_7/part_1.ll", "k2\n")
	tb.build(tb.opts())
	if m, _ := filepath.Glob(filepath.Join(tb.dir, "out", ".isolate*")); len(m) > 0 {
		t.Errorf("a killed build's isolation is left: %v", m)
	}
}
