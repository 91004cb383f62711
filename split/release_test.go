package split

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

// TestReleaseClearsWhatThePartSet makes every per-kernel part twice: once
// releasing each part before the next (so that parts reuse state arrays,
// which Release clears only where the part wrote), once from a fresh
// splitter without releasing. Both give the same parts.
func TestReleaseClearsWhatThePartSet(t *testing.T) {
	m := scaledModule(t, 60)
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

// writeGroup makes group i's modules (split by ESIMD as asked), writes
// them, releases them and returns what they hold: their symbols,
// warnings and text. Each released part's per-entity memory must be all
// zeros again.
func writeGroup(t *testing.T, s *Splitter, i int, separate bool) string {
	t.Helper()
	var b bytes.Buffer
	p := s.Part(i)
	for _, w := range p.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	parts, _ := s.SplitESIMD(p, separate)
	for _, q := range parts {
		syms, err := q.SymbolTable()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "module %d:\n%s", q.Status, syms)
		for _, w := range q.Warnings {
			fmt.Fprintf(&b, "warning: %s\n", w)
		}
		if err := q.Plan().Write(&b); err != nil {
			t.Fatal(err)
		}
		mem := q.mem
		q.Release()
		if slices.ContainsFunc(mem.st, func(v uint8) bool { return v != 0 }) ||
			slices.ContainsFunc(mem.ed, func(v uint8) bool { return v != 0 }) {
			t.Fatalf("group %d: a released part's memory is not zeroed", i)
		}
	}
	return b.String()
}

// TestReusedPartsMatchFresh makes every group's modules of every test
// module, under several configurations, with one splitter (first to last,
// then last to first, so that parts reuse the memory of parts made
// before them) and with a fresh splitter for each group: the modules
// must be the same.
func TestReusedPartsMatchFresh(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.ll"))
	if err != nil || len(files) == 0 {
		t.Fatal("no test modules", err)
	}
	configs := []Config{
		{Scope: ScopePerKernel},
		{Scope: ScopePerModule},
		{Scope: ScopePerModule, AllowDeps: true},
		{Scope: ScopeGlobal, NoSplit: true},
	}
	for _, path := range files {
		m := parseTestdata(t, filepath.Base(path))
		for ci, cfg := range configs {
			cfg.ModuleName = path
			cleanupConfig(t, m, &cfg)
			for _, separate := range []bool{false, true} {
				name := fmt.Sprintf("%s/config%d/separate=%v", filepath.Base(path), ci, separate)
				reused := New(m, cfg)
				n := len(reused.Groups())
				fresh := make([]string, n)
				for i := range n {
					fresh[i] = writeGroup(t, New(m, cfg), i, separate)
				}
				for i := range n {
					if got := writeGroup(t, reused, i, separate); got != fresh[i] {
						t.Errorf("%s: group %d made after groups 0 to %d differs:\n%s\nfresh:\n%s", name, i, i-1, got, fresh[i])
					}
				}
				for i := n - 1; i >= 0; i-- {
					if got := writeGroup(t, reused, i, separate); got != fresh[i] {
						t.Errorf("%s: group %d made after the groups after it differs:\n%s\nfresh:\n%s", name, i, got, fresh[i])
					}
				}
			}
		}
	}
}

// TestJoinedHalvesChangeAComdatOnce: the ESIMD and SYCL halves of a module
// inherit its comdat edits and make them again; the joined module
// changes the comdat's selection kind once.
func TestJoinedHalvesChangeAComdatOnce(t *testing.T) {
	src := `$pair = comdat any

define spir_kernel void @syclK() #0 {
  call spir_func void @p1()
  ret void
}

define spir_kernel void @esimdK() #0 !sycl_explicit_simd !0 {
  call spir_func void @p2()
  ret void
}

define linkonce_odr spir_func void @p1() comdat($pair) {
  ret void
}

define linkonce_odr spir_func void @p2() comdat($pair) {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }

!0 = !{}
`
	m, err := llvmir.Parse("j.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := New(m, Config{Scope: ScopePerModule})
	parts, joined := s.SplitESIMD(s.Part(0), false)
	if !joined || len(parts) != 1 {
		t.Fatalf("joined %v, %d parts", joined, len(parts))
	}
	if len(parts[0].comdatSel) != 1 {
		t.Errorf("%d comdat selection changes, want 1", len(parts[0].comdatSel))
	}
	var b bytes.Buffer
	if err := parts[0].Plan().Write(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if strings.Count(text, "$pair = comdat nodeduplicate") != 1 || strings.Contains(text, "comdat any") {
		t.Errorf("comdat not changed once:\n%s", text)
	}
	for _, f := range []string{"p1", "p2"} {
		if !strings.Contains(text, "define internal spir_func void @"+f+"() comdat($pair)") {
			t.Errorf("@%s not internal in its comdat:\n%s", f, text)
		}
	}
	assemble(t, "", text)
}
