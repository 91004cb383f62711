package split

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/llvmir"
)

// TestStripDeadUnits: a per-kernel part lists in !llvm.dbg.cu only the
// compile unit of the function it writes and a unit that keeps a live
// global; the unit of the other kernel, a unit reached only through
// another's imported entities and a unit whose only global is a constant
// go. The parts are valid IR (llvm-as).
func TestStripDeadUnits(t *testing.T) {
	src := `@g = global i32 0, !dbg !20

define spir_kernel void @k1() !dbg !10 {
  ret void, !dbg !12
}

define spir_kernel void @k2() !dbg !11 {
  ret void, !dbg !13
}

!llvm.dbg.cu = !{!0, !2, !4, !5, !24}
!llvm.module.flags = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "k1.cpp", directory: "/src")
!2 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!3 = !DIFile(filename: "k2.cpp", directory: "/src")
!4 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, imports: !6)
!5 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !21)
!6 = !{!7}
!7 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !3, entity: !8, file: !3, line: 9)
!8 = distinct !DISubprogram(name: "other", scope: !3, file: !3, line: 3, type: !14, spFlags: DISPFlagDefinition, unit: !4)
!9 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "k1", scope: !1, file: !1, line: 1, type: !14, spFlags: DISPFlagDefinition, unit: !0)
!11 = distinct !DISubprogram(name: "k2", scope: !3, file: !3, line: 1, type: !14, spFlags: DISPFlagDefinition, unit: !2)
!12 = !DILocation(line: 2, column: 1, scope: !10)
!13 = !DILocation(line: 2, column: 1, scope: !11)
!14 = !DISubroutineType(types: !15)
!15 = !{null}
!20 = !DIGlobalVariableExpression(var: !22, expr: !DIExpression())
!21 = !{!20}
!22 = distinct !DIGlobalVariable(name: "g", scope: !5, file: !3, line: 5, type: !23, isLocal: false, isDefinition: true)
!23 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!24 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !25)
!25 = !{!26}
!26 = !DIGlobalVariableExpression(var: !27, expr: !DIExpression(DW_OP_constu, 0, DW_OP_stack_value))
!27 = distinct !DIGlobalVariable(name: "ZERO", scope: !3, file: !3, line: 7, type: !23, isLocal: true, isDefinition: true)
`
	m, err := llvmir.Parse("d.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := New(m, Config{Scope: ScopePerKernel})
	if len(s.Groups()) != 2 {
		t.Fatalf("%d parts, want 2", len(s.Groups()))
	}
	as := testenv.Tool(t, "llvm-as-19")
	for i := 0; i < len(s.Groups()); i++ {
		var b bytes.Buffer
		if err := s.Part(i).Plan().Write(&b); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		kernel := "k1"
		want := "!llvm.dbg.cu = !{!0, !5}"
		if strings.Contains(text, "@k2()") {
			kernel, want = "k2", "!llvm.dbg.cu = !{!2, !5}"
		}
		if !strings.Contains(text, want) {
			t.Errorf("part of @%s: want %q in\n%s", kernel, want, text)
		}
		if strings.Contains(text, "DW_OP_stack_value") {
			t.Errorf("part of @%s: the constant's unit is written:\n%s", kernel, text)
		}
		if n := strings.Count(text, "!DICompileUnit("); n != 2 {
			t.Errorf("part of @%s: %d compile units written, want 2:\n%s", kernel, n, text)
		}
		p := filepath.Join(t.TempDir(), "p.ll")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if msg, err := exec.Command(as, p, "-o", os.DevNull).CombinedOutput(); err != nil {
			t.Errorf("llvm-as: %v\n%s\n%s", err, msg, text)
		}
	}
}
