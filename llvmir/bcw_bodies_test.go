package llvmir_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/llvmir"
)

// sharedBody is a function every module of TestBodyCacheAcrossModules
// holds, at other offsets and beside other globals, types, attribute
// groups and metadata: its constants, types, attribute lists and nodes
// have other numbers in each.
const sharedBody = `define internal spir_func i32 @helper(i32 noundef %x, ptr addrspace(1) %p) #0 {
entry:
  %slot = alloca i32, align 4
  %arr = alloca [4 x i32], align 4
  store i32 %x, ptr %slot, align 4, !tbaa !10
  %v = load i32, ptr %slot, align 4, !tbaa !10
  %g = getelementptr inbounds [4 x i32], ptr addrspace(1) @tbl, i64 0, i64 2
  %t = load i32, ptr addrspace(1) %g, align 4
  %big = add i64 123456789012, 5
  %tr = trunc i64 %big to i32
  %s = add nsw i32 %v, %t
  %f = sitofp i32 %s to float
  %f2 = fmul fast float %f, 1.500000e+00
  %c = call spir_func i32 @ext(i32 noundef %s, float %f2) #1, !dbg !12
  %cmp = icmp sgt i32 %c, 7
  br i1 %cmp, label %then, label %loop
then:
  %old = atomicrmw add ptr addrspace(1) %p, i32 1 seq_cst, align 4
  switch i32 %old, label %loop [
    i32 0, label %loop
    i32 9, label %exit
  ]
loop:
  %i = phi i32 [ 0, %entry ], [ %old, %then ], [ 0, %then ], [ %next, %loop ]
  %next = add i32 %i, 3
  %done = icmp eq i32 %next, 30
  br i1 %done, label %exit, label %loop
exit:
  %r = phi i32 [ %next, %loop ], [ %tr, %then ]
  %w = xor i32 %r, 255
  ret i32 %w
}

define internal i64 @forward(i64 %a) {
entry:
  br label %def
use:
  %u = add i64 %d, 1
  %v = mul i64 %u, %a
  ret i64 %v
def:
  %d = sub i64 %a, 7
  br label %use
}
`

// bodyModule is a module around sharedBody; k changes what precedes it.
func bodyModule(k int) string {
	var b strings.Builder
	b.WriteString("target triple = \"spir64-unknown-unknown\"\n\n")
	for i := 0; i < k; i++ {
		fmt.Fprintf(&b, "%%struct.S%d = type { i%d, double }\n@pad%d = global %%struct.S%d { i%d %d, double 2.0 }\n", i, 8+i, i, i, 8+i, i+1)
	}
	b.WriteString("@tbl = internal addrspace(1) global [4 x i32] [i32 1, i32 2, i32 3, i32 4]\n\n")
	b.WriteString("declare spir_func i32 @ext(i32 noundef, float)\n\n")
	for i := 0; i < k; i++ {
		fmt.Fprintf(&b, "define spir_func i16 @other%d(i16 %%a) #%d {\n  %%b = mul i16 %%a, %d\n  ret i16 %%b\n}\n\n", i, 2+i%2, 40+i)
	}
	b.WriteString(sharedBody)
	fmt.Fprintf(&b, `
define spir_kernel void @kernel%d(ptr addrspace(1) %%p) {
  %%r = call spir_func i32 @helper(i32 %d, ptr addrspace(1) %%p)
  ret void
}

attributes #0 = { noinline "k%d"="v" }
attributes #1 = { nounwind }
attributes #2 = { cold }
attributes #3 = { hot }

!llvm.dbg.cu = !{!1}
!llvm.module.flags = !{!5}
!1 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !2, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!2 = !DIFile(filename: "a.cpp", directory: "/d%d")
!5 = !{i32 2, !"Debug Info Version", i32 3}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !8, i64 0}
!12 = !DILocation(line: %d, column: 3, scope: !13)
!13 = distinct !DISubprogram(name: "helper", scope: !2, file: !2, line: 1, type: !14, scopeLine: 1, unit: !1)
!14 = !DISubroutineType(types: !15)
!15 = !{}
`, k, k, k, k, 10+k)
	return b.String()
}

// TestBodyCacheAcrossModules writes modules that share a body, each first
// alone and then with one BodyCache, in several orders: each module's
// bitcode must be the same bytes both ways, and the cache must have been
// used. llvm-dis-19 must read what the shared body made, and print the
// same module as from the bitcode written alone.
func TestBodyCacheAcrossModules(t *testing.T) {
	var mods [][]byte
	var alone [][]byte
	for k := 0; k < 4; k++ {
		src := []byte(bodyModule(k))
		bc, err := llvmir.AssembleBitcode(fmt.Sprintf("m%d.ll", k), src, llvmir.BitcodeOptions{LLVM: 19})
		if err != nil {
			t.Fatalf("module %d: %v", k, err)
		}
		mods, alone = append(mods, src), append(alone, bc)
	}
	for i, order := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 2, 0, 3, 1}, {1, 0, 0, 3, 2, 1}} {
		limit := 0
		if i == 3 {
			limit = 1 // every body kept drops the one before: none is taken
		}
		c := llvmir.NewBodyCache(limit)
		for _, k := range order {
			// A buffer the next module reuses, as sycl-post-link's writer
			// does: nothing kept may point into it.
			text := bytes.Clone(mods[k])
			bc, err := llvmir.AssembleBitcode(fmt.Sprintf("m%d.ll", k), text, llvmir.BitcodeOptions{LLVM: 19, Bodies: c})
			if err != nil {
				t.Fatalf("order %v, module %d: %v", order, k, err)
			}
			clear(text)
			if !bytes.Equal(bc, alone[k]) {
				t.Errorf("order %v, module %d: the bitcode differs with bodies shared", order, k)
				compareDis(t, alone[k], bc)
			}
		}
		if c.Shared() == 0 && limit == 0 {
			t.Errorf("order %v: no body was taken from the cache", order)
		}
	}
}

// compareDis shows where llvm-dis-19 sees the two bitcode files differ.
func compareDis(t *testing.T, want, got []byte) {
	dis := testenv.Tool(t, "llvm-dis-19")
	dir := t.TempDir()
	var texts [2]string
	for i, b := range [][]byte{want, got} {
		f := filepath.Join(dir, fmt.Sprintf("%d.bc", i))
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(dis, f, "-o", "-").CombinedOutput()
		if err != nil {
			t.Errorf("llvm-dis-19 of the %s: %v\n%s", []string{"bitcode written alone", "bitcode written with the cache"}[i], err, out)
			return
		}
		texts[i] = bcModuleID.ReplaceAllString(string(out), "")
	}
	if texts[0] != texts[1] {
		t.Errorf("llvm-dis-19 differs:\n%s", bcFirstDiff([]byte(texts[0]), []byte(texts[1])))
	}
}

// TestBodyCacheOtherTypes: the same body text in a module whose named
// struct is another type is parsed, not taken from the cache.
func TestBodyCacheOtherTypes(t *testing.T) {
	mod := func(fields string) []byte {
		return []byte("%struct.P = type { " + fields + " }\n\ndefine i32 @g() {\n  %a = alloca %struct.P, align 8\n  %f = getelementptr inbounds %struct.P, ptr %a, i32 0, i32 1\n  store i32 4, ptr %f, align 4\n  ret i32 1\n}\n")
	}
	same, other := mod("i64, i32"), mod("i32, i32")
	c := llvmir.NewBodyCache(0)
	for i, src := range [][]byte{same, same, other, same} {
		alone, err := llvmir.AssembleBitcode("p.ll", src, llvmir.BitcodeOptions{LLVM: 19})
		if err != nil {
			t.Fatal(err)
		}
		bc, err := llvmir.AssembleBitcode("p.ll", src, llvmir.BitcodeOptions{LLVM: 19, Bodies: c})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(bc, alone) {
			t.Errorf("module %d: the bitcode differs with bodies shared", i)
		}
	}
	if c.Shared() != 1 {
		t.Errorf("%d bodies taken from the cache, want 1 (the last module's)", c.Shared())
	}
}
