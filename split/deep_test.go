package split

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

// splitLarge splits src per kernel with a small stack limit (so that a walk
// whose recursion follows the input's size fails here, rather than only on
// inputs too large for a test) and returns the one part's module text.
func splitLarge(t *testing.T, src string) string {
	t.Helper()
	defer debug.SetMaxStack(debug.SetMaxStack(16 << 20))
	m, err := llvmir.Parse("large.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := New(m, Config{Scope: ScopePerKernel, ModuleName: "large.ll"})
	if len(s.Groups()) != 1 {
		t.Fatalf("%d groups", len(s.Groups()))
	}
	var buf bytes.Buffer
	if err := s.Part(0).Plan().Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestLongAliasChain: a kernel that uses the last of 300,000 aliases,
// each of the one before, depends on the variable at the chain's start.
func TestLongAliasChain(t *testing.T) {
	const n = 300_000
	var b strings.Builder
	b.WriteString("@a0 = global i32 7\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "@a%d = alias i32, ptr @a%d\n", i, i-1)
	}
	fmt.Fprintf(&b, "define spir_kernel void @k() {\n  store i32 1, ptr @a%d\n  ret void\n}\n", n)
	out := splitLarge(t, b.String())
	if !strings.HasPrefix(out, "@a0 = global i32 7\n") || !strings.Contains(out, fmt.Sprintf("@a%d = alias i32, ptr @a%d\n", n, n-1)) {
		t.Errorf("the chain is not written:\n%.300s", out)
	}
}

// TestLargeComdat: a kernel that calls every member of a comdat of 200,000
// functions keeps them all, and the comdat keeps them alive in time linear
// in their number.
func TestLargeComdat(t *testing.T) {
	const n = 200_000
	var b strings.Builder
	b.WriteString("$c = comdat any\n")
	for i := range n {
		fmt.Fprintf(&b, "define linkonce_odr void @f%d() comdat($c) {\n  ret void\n}\n", i)
	}
	b.WriteString("define spir_kernel void @k() {\n")
	for i := range n {
		fmt.Fprintf(&b, "  call void @f%d()\n", i)
	}
	b.WriteString("  ret void\n}\n")
	out := splitLarge(t, b.String())
	if got := strings.Count(out, "\ndefine ") - 1; got != n {
		t.Errorf("%d members written, want %d", got, n)
	}
}

// TestAliasOfAlias: an alias of an alias of a definition is written as it
// is, and LLVM accepts the module.
func TestAliasOfAlias(t *testing.T) {
	out := splitLarge(t, "@a0 = global i32 7\n@a1 = alias i32, ptr @a0\n@a2 = alias i32, ptr @a1\n"+
		"define spir_kernel void @k() {\n  store i32 1, ptr @a2\n  ret void\n}\n")
	if !strings.Contains(out, "@a2 = alias i32, ptr @a1\n") {
		t.Errorf("no alias chain in\n%s", out)
	}
	assemble(t, "", out)
}
