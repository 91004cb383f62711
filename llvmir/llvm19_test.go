package llvmir

import (
	"bytes"
	"testing"
)

// newSyntax holds LLVM 19 constructs that older parsers reject.
const newSyntax = `target triple = "spir64-unknown-unknown"

@g = global [4 x i32] zeroinitializer
@v = global <4 x i32> splat (i32 3)

declare void @llvm.dbg.value(metadata, metadata, metadata)
declare range(i32 0, 10) i32 @r(ptr nocapture readonly) memory(argmem: read)
declare void @img(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0))

define spir_func i32 @f(ptr addrspace(4) %p, i32 %x) #0 !dbg !3 {
entry:
  %q = getelementptr inbounds nuw i32, ptr addrspace(4) %p, i64 1
  %z = zext nneg i32 %x to i64
  %o = or disjoint i64 %z, 1
  %c = call i32 @r(ptr @g), !dbg !8
    #dbg_value(i32 %c, !7, !DIExpression(), !8)
  %s = add i32 %c, ptrtoint (ptr getelementptr inbounds nuw (i8, ptr @g, i64 4) to i32)
  ret i32 %s
}

attributes #0 = { memory(readwrite, argmem: read) "sycl-module-id"="n.cpp" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "p", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "n.c", directory: "/")
!2 = !DISubroutineType(types: !4)
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !2, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !4)
!4 = !{}
!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!7 = !DILocalVariable(name: "c", scope: !3, file: !1, line: 2, type: !5)
!8 = !DILocation(line: 2, column: 3, scope: !3)
!9 = !{i32 2, !"Debug Info Version", i32 3}
`

func TestLLVM19Syntax(t *testing.T) {
	assemble(t, "llvm-as-19", "new.ll", []byte(newSyntax))
	m, err := Parse("new.ll", []byte(newSyntax))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	m.Write(&out)
	if out.String() != newSyntax {
		t.Fatal("not byte-identical")
	}
	f := m.Global("f")
	if names(f.Globals) != "r g" || mdNames(f.Metadata) != "3 8 7" {
		t.Errorf("references %q metadata %q", names(f.Globals), mdNames(f.Metadata))
	}
	r := m.Global("r").Func
	if v, _ := r.RetAttrs.Get("range"); v != "i32 0, 10" || !r.FnAttrs.Has("memory") {
		t.Errorf("declaration attributes: %v %v", r.RetAttrs, r.FnAttrs)
	}
	if ty := m.Global("img").Func.Params[0].Type; ty.Kind != TargetType || ty.TargetName != "spirv.Image" || len(ty.TargetInts) != 7 {
		t.Errorf("target type %s", ty)
	}
	if mem, _ := m.Attrs(f).Get("memory"); mem != "readwrite, argmem: read" {
		t.Errorf("memory attribute %q", mem)
	}
	init, err := m.Initializer(m.Global("v"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.DataLayout.Bytes(init)
	if err != nil || len(b) != 16 || b[12] != 3 {
		t.Errorf("splat bytes % x %v", b, err)
	}
	// A declaration of @f keeps no debug attachment, and the prune drops
	// the subprogram's metadata.
	p := m.NewPlan()
	p.MakeDeclaration(f)
	var w bytes.Buffer
	if err := p.Write(&w); err != nil {
		t.Fatal(err)
	}
	assemble(t, "llvm-as-19", "newdecl.ll", w.Bytes())
	if bytes.Contains(w.Bytes(), []byte("DISubprogram")) || !bytes.Contains(w.Bytes(), []byte("declare spir_func i32 @f(ptr addrspace(4) %p, i32 %x) #0\n")) {
		t.Errorf("output:\n%s", w.Bytes())
	}
}
