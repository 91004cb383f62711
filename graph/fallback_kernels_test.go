package graph

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// listParts is a Fallback.Parts that writes out as one line per image:
// "F path" for a kernel that failed alone, "ok path" for the others.
func listParts(dir, out string, images []PartImage) ([]string, error) {
	var b strings.Builder
	for _, img := range images {
		mark := "ok"
		if img.Failed {
			mark = "F"
		}
		b.WriteString(mark + " " + img.Path + " " + img.Name + "\n")
	}
	return nil, os.WriteFile(filepath.Join(dir, out), []byte(b.String()), 0o644)
}

// TestFallbackPerKernel: in a module whose compile fails, only the
// kernel that fails alone becomes its own SPIR-V image; the others keep
// their compiled images. A fallback is never recorded as the job's
// result: a rebuild runs that job again and says so again, while the
// module that compiled is up to date; a lost kernel image is made again.
func TestFallbackPerKernel(t *testing.T) {
	tb, f := aotBuild(t, map[string]string{"a.ll": "k1\n", "b.ll": "k3\nBADk4\nk5\n"})
	f.Isolate = splitLines
	f.Fallback = &Fallback{Step: 1, From: 0, Parts: listParts}
	res := tb.build(tb.opts())
	if len(res.Fallbacks) != 1 || res.Fallbacks[0] != "b.ll: aot failed (exit status 245); 1 of its 3 kernels fail alone (BADk4) and become SPIR-V images of their own, to be compiled when the program runs; 2 stay ahead-of-time" {
		t.Errorf("fallbacks: %q", res.Fallbacks)
	}
	if got, want := tb.read("out/mod_1.bin"), "ok out/mod_1.k0.bin k3\nF out/mod_1.k1.spv BADk4\nok out/mod_1.k2.bin k5\n"; got != want {
		t.Errorf("the module's images:\n%s\nwant\n%s", got, want)
	}
	for name, want := range map[string]string{"out/mod_1.k0.bin": "isa k3\n", "out/mod_1.k1.spv": "BADk4\n", "out/mod_1.k2.bin": "isa k5\n", "out/mod_0.bin": "isa k1\n"} {
		if got := tb.read(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(tb.dir, "out", ".isolate*")); len(m) > 0 {
		t.Errorf("isolation left %v", m)
	}
	if res := tb.build(tb.opts()); res.JobsRan != 1 || res.JobsCached != 1 || len(res.Fallbacks) != 1 {
		t.Errorf("the rebuild: %+v", res)
	}
	os.Remove(filepath.Join(tb.dir, "out/mod_1.k2.bin"))
	if res := tb.build(tb.opts()); res.JobsRan != 1 || len(res.Fallbacks) != 1 || tb.read("out/mod_1.k2.bin") != "isa k5\n" {
		t.Errorf("after a kernel image went: %+v\n%s", res, tb.log.String())
	}
}

// TestFallbackEverywhere: when every module of a fan-out falls back as a
// whole, nothing is compiled ahead of time: the fan-out fails (and fails
// again on a rebuild), unless its fallback accepts it (spirv-all).
func TestFallbackEverywhere(t *testing.T) {
	tb, f := aotBuild(t, map[string]string{"a.ll": "BADk1\n", "b.ll": "BADk2\n"})
	f.Fallback = &Fallback{Step: 1, From: 0}
	for range 2 {
		_, err := tb.g.Build(context.Background(), tb.opts())
		if !errors.Is(err, ErrFailed) || !strings.Contains(tb.log.String(), "[gen] aot: every one of its 2 modules fell back to SPIR-V, so nothing is compiled ahead of time (a device or an option the compiler refuses does that); aot_fallback: spirv-all accepts it") {
			t.Errorf("err %v:\n%s", err, tb.log.String())
		}
	}
	if tb.exists("out/bin.list") {
		t.Errorf("the failed fan-out wrote its list")
	}
	f.Fallback.All = true
	tb.build(tb.opts())
}
