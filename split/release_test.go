package split

import (
	"slices"
	"testing"

	"github.com/sycbuild/sycbuild/bench/gen"
	"github.com/sycbuild/sycbuild/llvmir"
)

// TestReleaseClearsWhatThePartSet makes every per-kernel part twice: once
// releasing each part before the next (so that parts reuse state arrays,
// which Release clears only where the part wrote), once from a fresh
// splitter without releasing. Both give the same parts.
func TestReleaseClearsWhatThePartSet(t *testing.T) {
	c := gen.Scaled(60)
	c.Body = 2
	src, err := gen.String(c)
	if err != nil {
		t.Fatal(err)
	}
	m, err := llvmir.Parse("k.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	reused := New(m, Config{Scope: ScopePerKernel})
	fresh := New(m, Config{Scope: ScopePerKernel})
	for i := range reused.Groups() {
		a := reused.Part(i)
		b := fresh.Part(i)
		if !slices.Equal(a.Globals(), b.Globals()) || !slices.Equal(a.st, b.st) {
			t.Fatalf("part %d differs after earlier parts were released", i)
		}
		if len(a.Globals()) == 0 {
			t.Fatalf("part %d writes nothing", i)
		}
		for _, e := range a.Globals() {
			if !a.Written(e) {
				t.Fatalf("part %d lists @%s but does not write it", i, e.Name)
			}
		}
		a.Release()
		fresh = New(m, Config{Scope: ScopePerKernel})
	}
}
