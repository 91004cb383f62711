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
