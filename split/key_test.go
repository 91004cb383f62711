package split

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

func parseTestdata(t *testing.T, name string) *llvmir.Module {
	t.Helper()
	path := filepath.Join("testdata", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := llvmir.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The per-source keys of per-source.ll and the order the groups come out
// in: descending byte-wise key order.
func TestPerSourceGroups(t *testing.T) {
	m := parseTestdata(t, "per-source.ll")
	want := []struct {
		key     string
		entries []string
	}{
		{"b.cpp--------2---", []string{"other"}},
		{"b.cpp--------16-2---", []string{"sg16"}},
		{"a.cpp-----6-------", []string{"fp64"}},
		// a {name, value} pair counts by value; -1 is zero-extended
		{"a.cpp-----5-4294967295-------", []string{"named"}},
		// aspects are sorted: {2, 1} and {1, 2} share a module
		{"a.cpp-----1-2-------", []string{"aspects21", "aspects12"}},
		{"a.cpp------8-1-1------", []string{"wg8", "wg8b"}},
		{"a.cpp-----------", []string{"plain"}},
	}
	s := New(m, Config{Scope: ScopePerModule})
	gs := s.Groups()
	if len(gs) != len(want) {
		t.Fatalf("got %d groups, want %d", len(gs), len(want))
	}
	for i, g := range gs {
		var names []string
		for _, e := range g.Entries {
			names = append(names, e.Name)
		}
		if g.Key != want[i].key || !slices.Equal(names, want[i].entries) {
			t.Errorf("group %d: %q %q, want %q %q", i, g.Key, names, want[i].key, want[i].entries)
		}
	}
	// Per kernel the key is the name; globally there is one group.
	if gs := New(m, Config{Scope: ScopePerKernel}).Groups(); gs[0].Key != "wg8b" || gs[len(gs)-1].Key != "aspects12" {
		t.Errorf("per-kernel order: first %q, last %q", gs[0].Key, gs[len(gs)-1].Key)
	}
	if gs := New(m, Config{Scope: ScopeGlobal}).Groups(); len(gs) != 1 || gs[0].Key != GlobalKey || len(gs[0].Entries) != 9 {
		t.Errorf("global: %d groups, key %q", len(gs), gs[0].Key)
	}
}

// A module without entry points is one empty <GLOBAL> group, copied
// rather than split.
func TestNoEntryPoints(t *testing.T) {
	m, err := llvmir.Parse("none.ll", []byte("define internal void @f() {\n  ret void\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := New(m, Config{Scope: ScopePerKernel})
	if gs := s.Groups(); len(gs) != 1 || gs[0].Key != GlobalKey || len(gs[0].Entries) != 0 || s.Splits() {
		t.Errorf("groups %+v, splits %v", gs, s.Splits())
	}
}

func TestNames(t *testing.T) {
	builtin := map[string]bool{
		"_Z28__spirv_GlobalInvocationId_xv": true, "_Z10__sycl_foov": true, "_Z12__esimd_thingv": true,
		"_Z3foov": false, "__spirv_x": false, "spirv": false,
	}
	for n, want := range builtin {
		if got := isSpirvSyclBuiltin(n) || isESIMDBuiltin(n); got != want {
			t.Errorf("builtin(%q) = %v", n, got)
		}
	}
	under := map[string]bool{
		"_Z8__insidev": true, "_Z7outsidev": false, "_ZN2__3fooEv": true, "_ZN3foo5__barEv": false,
		"_ZNK3foo3barEv": false, "_ZL8__staticv": true, "__plain": false, "plain": false,
	}
	for n, want := range under {
		if got := demangledStartsWithUnderscores(n); got != want {
			t.Errorf("demangledStartsWithUnderscores(%q) = %v", n, got)
		}
	}
}
