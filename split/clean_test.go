package split

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

// TestInternalizeKeepsAlwaysPreservedNames: InternalizePass leaves the
// functions it always preserves (by name) external; others a kernel
// calls become internal.
func TestInternalizeKeepsAlwaysPreservedNames(t *testing.T) {
	src := `define spir_kernel void @k() {
  call void @__stack_chk_fail()
  call void @__stack_chk_failx()
  call void @llvm.usedx()
  ret void
}

define void @__stack_chk_fail() {
  ret void
}

define void @__stack_chk_failx() {
  ret void
}

define void @llvm.usedx() {
  ret void
}
`
	m, err := llvmir.Parse("p.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := New(m, Config{Scope: ScopePerKernel})
	p := s.Part(0)
	var b bytes.Buffer
	if err := p.Plan().Write(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"define void @__stack_chk_fail()", "define internal void @__stack_chk_failx()", "define internal void @llvm.usedx()"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	for name, want := range map[string]llvmir.Linkage{"__stack_chk_fail": llvmir.External, "__stack_chk_failx": llvmir.Internal} {
		if got := p.Linkage(m.Global(name)); got != want {
			t.Errorf("@%s: linkage %s, want %s", name, got, want)
		}
	}
}

// TestInternalizeKeepsPinnedLinkages: dllexport and available_externally
// functions keep their linkage, and an externally initialized variable,
// even an internal one, keeps its comdat (and the comdat's other members)
// as it is.
func TestInternalizeKeepsPinnedLinkages(t *testing.T) {
	src := `$c = comdat any

@v = internal addrspace(1) externally_initialized global i32 0, comdat($c)

define spir_kernel void @k() {
  call void @dx()
  call void @ae()
  call void @cf()
  call void @plain()
  ret void
}

define dllexport void @dx() {
  ret void
}

define available_externally void @ae() {
  ret void
}

define linkonce_odr void @cf() comdat($c) {
  %x = load i32, ptr addrspace(1) @v
  ret void
}

define void @plain() {
  ret void
}
`
	m, err := llvmir.Parse("p.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := New(m, Config{Scope: ScopePerKernel}).Part(0)
	var b bytes.Buffer
	if err := p.Plan().Write(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"define dllexport void @dx()", "define available_externally void @ae()",
		"define linkonce_odr void @cf() comdat($c)", "$c = comdat any", "define internal void @plain()"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	assemble(t, "", text)
}

// TestLinkageAt: the recorded linkages are the entities', and an entity
// whose linkage is not recorded is asked.
func TestLinkageAt(t *testing.T) {
	m := parseTestdata(t, "comdat.ll")
	in := newInfo(m)
	for i, e := range m.Entities {
		if got, want := in.linkageAt(int32(i)), in.linkage(e); got != want {
			t.Errorf("@%s: linkage %q, want %q", e.Name, got, want)
		}
	}
	if len(in.linkages) < 3 {
		t.Errorf("linkages %q: want at least external and linkonce_odr", in.linkages)
	}
	clear(in.lnk)
	for i, e := range m.Entities {
		if got, want := in.linkageAt(int32(i)), in.linkage(e); got != want {
			t.Errorf("@%s unrecorded: linkage %q, want %q", e.Name, got, want)
		}
	}
}
