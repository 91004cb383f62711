package llvmir

import (
	"bytes"
	"testing"
)

// Metadata as a value, in the forms LLVM 15 (typed pointers, debug
// intrinsics) writes.
const mdValueTypedSrc = `%struct.S = type { i32 }

@g = global i32 0
@h = addrspace(1) global %struct.S zeroinitializer
@k = global i32 1

define void @f(i8 addrspace(4)* %x, %struct.S* %p, i32 %a, i32 %b) !dbg !3 {
  call void @llvm.dbg.declare(metadata i8 addrspace(4)* %x, metadata !7, metadata !DIExpression()), !dbg !8
  call void @llvm.dbg.declare(metadata %struct.S* %p, metadata !7, metadata !DIExpression()), !dbg !8
  call void @llvm.dbg.value(metadata i32 0, metadata !7, metadata !DIExpression()), !dbg !8
  call void @llvm.dbg.value(metadata i32* undef, metadata !7, metadata !DIExpression()), !dbg !8
  call void @llvm.dbg.value(metadata i32* @g, metadata !7, metadata !DIExpression()), !dbg !8
  call void @llvm.dbg.value(metadata %struct.S addrspace(1)* @h, metadata !7, metadata !DIExpression()), !dbg !8
  call void @llvm.dbg.value(metadata !DIArgList(i32 %a, i32* @k), metadata !7, metadata !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value)), !dbg !8
  call void @llvm.dbg.value(metadata !{}, metadata !7, metadata !DIExpression()), !dbg !8
  call void @llvm.dbg.value(metadata !{i32 1, !"s"}, metadata !9, metadata !DIExpression()), !dbg !8
  ret void
}

declare void @llvm.dbg.declare(metadata, metadata, metadata)
declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!4 = !DISubroutineType(types: !5)
!5 = !{null}
!6 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!7 = !DILocalVariable(name: "v", scope: !3, file: !1, line: 1, type: !6)
!8 = !DILocation(line: 1, scope: !3)
!9 = !DILocalVariable(name: "w", scope: !3, file: !1, line: 2, type: !6)
`

// The same with opaque pointers.
const mdValueOpaqueSrc = `@g = global i32 0
@h = addrspace(1) global i32 0
@k = global i32 1

define void @f(ptr addrspace(4) %x, i32 %a, ptr %p) !dbg !3 {
  call void @llvm.dbg.value(metadata ptr @k, metadata !7, metadata !DIExpression()), !dbg !8
  call void @llvm.dbg.value(metadata !DIArgList(ptr @k, i32 %a), metadata !7, metadata !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value)), !dbg !8
  call void @llvm.dbg.declare(metadata ptr %p, metadata !9, metadata !DIExpression()), !dbg !8
  call void @llvm.dbg.value(metadata ptr addrspace(1) @h, metadata !7, metadata !DIExpression()), !dbg !8
  call void @llvm.dbg.value(metadata ptr addrspace(4) %x, metadata !7, metadata !DIExpression()), !dbg !8
  call void @llvm.dbg.value(metadata i32 poison, metadata !7, metadata !DIExpression()), !dbg !8
  call void @llvm.dbg.value(metadata ptr @g, metadata !7, metadata !DIExpression()), !dbg !8
  ret void
}

declare void @llvm.dbg.declare(metadata, metadata, metadata)
declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!4 = !DISubroutineType(types: !5)
!5 = !{null}
!6 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!7 = !DILocalVariable(name: "v", scope: !3, file: !1, line: 1, type: !6)
!8 = !DILocation(line: 1, scope: !3)
!9 = !DILocalVariable(name: "w", scope: !3, file: !1, line: 2, type: !6)
`

// The same in the debug records of LLVM 19 and later.
const mdValueRecordsSrc = `@g = global i32 0
@h = addrspace(1) global i32 0
@k = global i32 1

define void @f(ptr addrspace(4) %x, i32 %a) !dbg !3 {
    #dbg_declare(ptr addrspace(4) %x, !7, !DIExpression(), !8)
    #dbg_value(i32 0, !7, !DIExpression(), !8)
    #dbg_value(ptr undef, !7, !DIExpression(), !8)
    #dbg_value(ptr @g, !7, !DIExpression(), !8)
    #dbg_value(!DIArgList(i32 %a, ptr addrspace(1) @h), !9, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !8)
    #dbg_value(ptr @k, !9, !DIExpression(), !8)
  ret void, !dbg !8
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!4 = !DISubroutineType(types: !5)
!5 = !{null}
!6 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!7 = !DILocalVariable(name: "v", scope: !3, file: !1, line: 1, type: !6)
!8 = !DILocation(line: 1, scope: !3)
!9 = !DILocalVariable(name: "w", scope: !3, file: !1, line: 2, type: !6)
`

// TestMetadataAsValue parses every form of metadata used as a value (call
// arguments "metadata <type> <value>", "metadata !DIArgList(…)", inline
// nodes, and the debug records of current IR), checks that the globals and
// nodes they name are references of the function, that a call argument's
// global is its Points, and that the module round-trips and, written as
// the closure of @f alone, is still accepted by LLVM.
func TestMetadataAsValue(t *testing.T) {
	for _, tc := range []struct {
		name, as, src string
		calls         int
		points        []string // Points of each call's first argument ("" for none)
	}{
		{"typed", "llvm-as-15", mdValueTypedSrc, 9, []string{"", "", "", "", "g", "h", "", "", ""}},
		{"opaque", "llvm-as-19", mdValueOpaqueSrc, 7, []string{"k", "", "", "h", "", "", "g"}},
		{"records", "llvm-as-19", mdValueRecordsSrc, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assemble(t, tc.as, tc.name+".ll", []byte(tc.src))
			m, err := Parse(tc.name+".ll", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			m.Write(&out)
			if out.String() != tc.src {
				t.Fatal("not byte-identical")
			}
			f := m.Global("f")
			if got := names(f.Globals); !containsAll(got, "g", "h", "k") {
				t.Errorf("globals of @f: %q", got)
			}
			if got := mdNames(f.Metadata); !containsAll(got, "3", "7", "8", "9") {
				t.Errorf("metadata of @f: %q", got)
			}
			if len(f.Func.Calls) != tc.calls {
				t.Fatalf("%d calls, want %d", len(f.Func.Calls), tc.calls)
			}
			for i, c := range f.Func.Calls {
				a := c.Args[0]
				if a.Type.Kind != MetadataType {
					t.Errorf("call %d: argument type %s", i, a.Type)
				}
				got := ""
				if a.Points != nil {
					got = a.Points.Name
				}
				if got != tc.points[i] {
					t.Errorf("call %d: argument %q points to %q, want %q", i, a.Value, got, tc.points[i])
				}
			}
			keep := closure([]*Entity{f}, nil)
			p := m.NewPlan()
			p.KeepOnly(func(e *Entity) bool { return keep[e] || e.Kind == KindNamedMD })
			assemble(t, tc.as, "closure.ll", writePlan(t, p))
		})
	}
}

// containsAll reports whether the space-separated list has every name.
func containsAll(list string, want ...string) bool {
	have := map[string]bool{}
	for _, n := range bytes.Fields([]byte(list)) {
		have[string(n)] = true
	}
	for _, w := range want {
		if !have[w] {
			return false
		}
	}
	return true
}
