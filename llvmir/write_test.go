package llvmir

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
)

const planSrc = `; ModuleID = 't.cpp'
source_filename = "t.cpp"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

$_Z1hi = comdat any

@0 = private unnamed_addr constant [2 x i8] c"a\00"
@1 = private unnamed_addr constant [2 x i8] c"b\00"
@2 = private unnamed_addr constant [2 x i8] c"c\00"
@g = internal addrspace(1) global i32 5, align 4
@str = private unnamed_addr constant [8 x i8] c"@0 ; !9\00", align 1
@tab = hidden addrspace(1) constant [2 x ptr] [ptr @0, ptr @_Z1hi], align 8 #2

declare spir_func i32 @spec(ptr, ptr) #0

; Function Attrs: the helper
define linkonce_odr hidden spir_func i32 @_Z1hi(i32 %x) #0 comdat {
entry:
  %v = load i32, ptr addrspace(1) @g, align 4
  %r = add i32 %x, %v
  ret i32 %r
}

define spir_kernel void @k1() #1 !sycl_used_aspects !3 !srcloc !4 {
  %1 = call spir_func i32 @_Z1hi(i32 1)
  %2 = load i8, ptr @0, align 1
  %3 = call spir_func i32 @spec(ptr @str, ptr @0), !srcloc !5
  ret void
}

define spir_kernel void @k2() #1 {
entry:
  %0 = load i8, ptr @2, align 1
  %1 = zext i8 %0 to i32
  %2 = call spir_func i32 @_Z1hi(i32 %1) #0
  ret void
}

attributes #0 = { convergent nounwind }
attributes #1 = { convergent "sycl-module-id"="t.cpp" }
attributes #2 = { "sycl-unique-id"="tab" }

!llvm.module.flags = !{!0}
!sycl.kernels = !{!1, !2}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{ptr @k1, !"k1"}
!2 = !{ptr @k2, !"k2"}
!3 = !{i32 1, !6}
!4 = !{i32 100}
!5 = !{i32 200}
!6 = !{!"aspect"}
`

func parsePlanSrc(t *testing.T) *Module {
	t.Helper()
	m, err := Parse("t.ll", []byte(planSrc))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func writePlan(t *testing.T, p *Plan) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestPlanSourceAccepted(t *testing.T) {
	assemble(t, "llvm-as-19", "plan.ll", []byte(planSrc))
}

// TestPlanSplitK2 keeps k2 and what it needs: @0 and @1 go, @2 becomes @0;
// the helper becomes an internal definition; the named metadata loses k1's
// node; the metadata only k1 used is pruned.
func TestPlanSplitK2(t *testing.T) {
	m := parsePlanSrc(t)
	keep := closure([]*Entity{m.Global("k2")}, nil)
	p := m.NewPlan()
	p.KeepOnly(func(e *Entity) bool { return keep[e] })
	p.SetLinkage(m.Global("_Z1hi"), Internal)
	p.AddFnAttr(m.Global("k2"), Attr{Key: "sycl-entry-point", String: true})
	filterNamedMD(m, p, keep)
	out := writePlan(t, p)
	s := string(out)
	for _, want := range []string{
		`@0 = private unnamed_addr constant [2 x i8] c"c\00"`,
		`%0 = load i8, ptr @0, align 1`,
		`define internal spir_func i32 @_Z1hi(i32 %x) #0 comdat {`,
		// The added attribute joins k2's group #1, which only k2 names.
		`define spir_kernel void @k2() #1 {`,
		`attributes #1 = { convergent "sycl-entry-point" "sycl-module-id"="t.cpp" }`,
		`!sycl.kernels = !{!2}`,
		"; ModuleID = 't.cpp'",
		"; Function Attrs: the helper\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	for _, gone := range []string{"@1 =", "@2", "@k1", "@spec", "@str", "!3 =", "!4 =", "!5 =", "!6 =", "!1 =", "hidden spir_func"} {
		if strings.Contains(s, gone) {
			t.Errorf("output still has %q", gone)
		}
	}
	assemble(t, "llvm-as-19", "k2.ll", out)
}

// TestPlanDeclarations turns definitions into declarations and a variable
// into an external declaration.
func TestPlanDeclarations(t *testing.T) {
	m := parsePlanSrc(t)
	p := m.NewPlan()
	p.Drop(m.Global("k1"))
	p.Drop(m.Global("tab"))
	p.MakeDeclaration(m.Global("_Z1hi"))
	p.MakeDeclaration(m.Global("g"))
	p.MakeDeclaration(m.Global("k2")) // a definition with attachments-free header
	filterNamedMD(m, p, map[*Entity]bool{m.Global("k2"): true})
	out := writePlan(t, p)
	s := string(out)
	for _, want := range []string{
		"declare hidden spir_func i32 @_Z1hi(i32 %x) #0\n",
		"@g = external addrspace(1) global i32, align 4\n",
		"declare spir_kernel void @k2() #1\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "$_Z1hi = comdat") {
		t.Error("the unused comdat was kept")
	}
	if strings.Contains(s, "ret ") {
		t.Error("a body was kept")
	}
	assemble(t, "llvm-as-19", "decl.ll", out)
}

// TestPlanReplaceAndAdd replaces the spec-constant call of k1 with new
// instructions calling an added declaration, adds metadata, an attribute
// group and named metadata.
func TestPlanReplaceAndAdd(t *testing.T) {
	m := parsePlanSrc(t)
	k1 := m.Global("k1")
	var call *Call
	for i := range k1.Func.Calls {
		if c := &k1.Func.Calls[i]; c.Callee != nil && c.Callee.Name == "spec" {
			call = c
		}
	}
	if call == nil || call.Result != "3" || !call.ResultNumbered {
		t.Fatalf("spec call not found or wrong result: %+v", call)
	}
	if got := string(m.Src[call.Start:call.End]); got != "%3 = call spir_func i32 @spec(ptr @str, ptr @0), !srcloc !5" {
		t.Fatalf("call span = %q", got)
	}
	if call.Args[1].Points != m.UnnamedGlobal(0) || call.Args[0].Points != m.Global("str") {
		t.Fatalf("argument globals: %v %v", call.Args[0].Points, call.Args[1].Points)
	}
	p := m.NewPlan()
	md := p.NewMD("!{i32 7, !\"sc\"}")
	if md != 7 {
		t.Fatalf("NewMD = %d, want 7", md)
	}
	grp := p.NewAttrGroup(Attrs{{Key: "nounwind"}, {Key: "sycl-x", Value: "1", HasValue: true, String: true}})
	if grp != 3 {
		t.Fatalf("NewAttrGroup = %d, want 3", grp)
	}
	p.Add(KindFunction, "declare i32 @_Z20__spirv_SpecConstantii(i32, i32) #3")
	p.Add(KindNamedMD, "!sycl.specconst = !{!7}")
	p.ReplaceInstr(k1, call.Start, call.End,
		"%sc.id = add i32 0, 1",
		"%3 = call i32 @_Z20__spirv_SpecConstantii(i32 %sc.id, i32 42), !srcloc !5")
	out := writePlan(t, p)
	s := string(out)
	for _, want := range []string{
		"  %sc.id = add i32 0, 1\n  %3 = call i32 @_Z20__spirv_SpecConstantii(i32 %sc.id, i32 42), !srcloc !5\n  ret void",
		"  ret void\n}\ndeclare i32 @_Z20__spirv_SpecConstantii(i32, i32) #3\n\nattributes #0",
		"attributes #3 = { nounwind \"sycl-x\"=\"1\" }",
		"!7 = !{i32 7, !\"sc\"}",
		"!sycl.specconst = !{!7}",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	assemble(t, "llvm-as-19", "replace.ll", out)
}

func TestPlanErrors(t *testing.T) {
	m := parsePlanSrc(t)
	for name, tc := range map[string]struct {
		edit func(p *Plan)
		want string
	}{
		"dangling":      {func(p *Plan) { p.Drop(m.Global("_Z1hi")) }, "references @_Z1hi, which is not in the output"},
		"dangling md":   {func(p *Plan) { p.Drop(m.Global("k1")) }, "!1 references @k1, which is not in the output"},
		"alias decl":    {func(p *Plan) { p.MakeDeclaration(m.MD(0)) }, "edits apply to functions and global variables only"},
		"unnamed added": {func(p *Plan) { p.Add(KindGlobalVar, "@5 = global i32 0") }, "defines an unnamed global"},
		"bad added":     {func(p *Plan) { p.Add(KindFunction, "declare i32 @f(") }, "<edited>:1:16: expected a type, found end of input"},
		"undefined ref": {func(p *Plan) { p.Add(KindGlobalVar, "@p = global ptr @nothere") }, "references @nothere"},
	} {
		t.Run(name, func(t *testing.T) {
			p := m.NewPlan()
			tc.edit(p)
			err := p.Write(&bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one containing %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "t.ll: ") {
				t.Errorf("error does not name the file: %v", err)
			}
		})
	}
}

// TestPlanGenerated splits generated modules (typed and opaque pointers):
// each output keeps one kernel and its closure, some helpers become
// declarations, linkages change, an entry-point attribute is added; the real
// assembler of the matching LLVM accepts every output.
func TestPlanGenerated(t *testing.T) {
	for _, typed := range []bool{false, true} {
		c := irgen.Small()
		c.Typed = typed
		m := parseGenerated(t, c)
		tool := "llvm-as-19"
		if typed {
			tool = "llvm-as-15"
		}
		for k := 0; k < c.Kernels; k++ {
			kern := m.Global(irgen.KernelName(k))
			declare := map[*Entity]bool{}
			// Helpers called directly by the kernel stay definitions; the
			// ones they call become declarations.
			for _, h := range kern.Func.Callees {
				for _, hh := range h.Func.Callees {
					if hh.Func != nil && !hh.Func.Declaration && !inList(kern.Func.Callees, hh) {
						declare[hh] = true
					}
				}
			}
			keep := closure([]*Entity{kern}, declare)
			p := m.NewPlan()
			p.KeepOnly(func(e *Entity) bool { return keep[e] })
			for d := range declare {
				p.MakeDeclaration(d)
			}
			for _, h := range kern.Func.Callees {
				if !declare[h] && h.Func.Linkage == LinkOnceODR {
					p.SetLinkage(h, Internal)
				}
			}
			p.AddFnAttr(kern, Attr{Key: "sycl-entry-point", String: true})
			out := writePlan(t, p)
			name := filepath.Base(irgen.KernelName(k)) + ".ll"
			assemble(t, tool, name, out)
			// The output parses again and round-trips.
			m2, err := Parse(name, out)
			if err != nil {
				t.Fatalf("typed=%v kernel %d: output does not parse: %v", typed, k, err)
			}
			var rt bytes.Buffer
			m2.Write(&rt)
			if !bytes.Equal(rt.Bytes(), out) {
				t.Fatalf("output does not round-trip")
			}
			if got := m2.Attrs(m2.Global(irgen.KernelName(k))); !got.Has("sycl-entry-point") || !got.Has("sycl-module-id") {
				t.Errorf("kernel attributes after the edit: %v", got)
			}
			for d := range declare {
				if f := m2.Global(d.Name); f == nil || !f.Func.Declaration {
					t.Errorf("@%s is not a declaration in the output", d.Name)
				}
			}
			// Unnamed globals are dense.
			for i, e := 0, 0; e < len(m2.Entities); e++ {
				if g := m2.Entities[e]; g.Numbered && g.Kind.IsGlobalValue() {
					if g.ID != i {
						t.Errorf("unnamed globals not dense: @%d at position %d", g.ID, i)
					}
					i++
				}
			}
		}
	}
}

func inList(l []*Entity, e *Entity) bool {
	for _, x := range l {
		if x == e {
			return true
		}
	}
	return false
}

// TestPlanConformanceSubsets writes, for each conformance module, the
// closure of each defined function with the named metadata filtered, and
// checks that llvm-as-19 accepts it (without verification where the input
// itself does not verify).
func TestPlanConformanceSubsets(t *testing.T) {
	eachConformanceModule(t, func(t *testing.T, path string, src []byte, m *Module) {
		var extra []string
		if !assembles(t, "llvm-as-19", src) {
			extra = []string{"-disable-verify"}
			if !assembles(t, "llvm-as-19", src, extra...) {
				t.Skip("llvm-as-19 rejects the input itself")
			}
		}
		n := 0
		for _, f := range m.Functions() {
			if f.Func.Declaration {
				continue
			}
			n++
			keep := closure([]*Entity{f}, nil)
			p := m.NewPlan()
			p.KeepOnly(func(e *Entity) bool { return keep[e] })
			filterNamedMD(m, p, keep)
			if f.Func.Linkage != Internal && f.Func.Linkage != Private {
				p.AddFnAttr(f, Attr{Key: "sycl-entry-point", String: true})
			}
			assemble(t, "llvm-as-19", "subset.ll", writePlan(t, p), extra...)
		}
		if n == 0 {
			t.Log("no function definitions")
		}
	})
}

// TestLocalLinkageDropsDSOLocal: local linkage implies dso_local, which
// LLVM then does not print; an internalized function must read the same.
func TestLocalLinkageDropsDSOLocal(t *testing.T) {
	src := "define dso_local spir_func i32 @h(i32 %x) {\n  ret i32 %x\n}\n" +
		"define dso_local spir_func i32 @e(i32 %x) {\n  %r = call i32 @h(i32 %x)\n  ret i32 %r\n}\n"
	m, err := Parse("d.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := m.NewPlan()
	p.SetLinkage(m.Global("h"), Internal)
	out := string(writePlan(t, p))
	if !strings.Contains(out, "define internal spir_func i32 @h(") || !strings.Contains(out, "define dso_local spir_func i32 @e(") {
		t.Errorf("got:\n%s", out)
	}
	assemble(t, "llvm-as-19", "d.ll", []byte(out))
}

// TestPlanReplaceBody empties definitions: each keeps its header but for
// its attachments, and gets the new body; the module still assembles.
func TestPlanReplaceBody(t *testing.T) {
	src := `target triple = "spir64-unknown-unknown"

$f = comdat any

declare void @callee()

define spir_func void @f() #0 comdat !sycl_used_aspects !0 {
entry:
  call void @callee()
  ret void
}

define spir_func i32 @g(i32 %x) {
  ret i32 %x
}

attributes #0 = { "indirectly-callable"="set" }

!0 = !{i32 6}
`
	m, err := Parse("in.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := m.NewPlan()
	p.ReplaceBody(m.Global("f"), "{\nentry:\n  ret void\n}")
	p.ReplaceBody(m.Global("g"), "{\nentry:\n  ret i32 undef\n}")
	out := writePlan(t, p)
	s := string(out)
	for _, want := range []string{
		"define spir_func void @f() #0 {\nentry:\n  ret void\n}\n",
		"define spir_func i32 @g(i32 %x) {\nentry:\n  ret i32 undef\n}\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "call void @callee") || strings.Contains(s, "!sycl_used_aspects") {
		t.Errorf("the old body or its attachment was kept:\n%s", s)
	}
	assemble(t, "llvm-as-19", "body.ll", out)
}

// TestGlobalsFirst: with WriteOptions.GlobalsFirst a global defined after a
// function is written before the functions, as LLVM prints it; without it,
// where the text has it.
func TestGlobalsFirst(t *testing.T) {
	src := "define void @f() {\n  ret void\n}\n\n@g = global i32 0\n@a = alias i32, ptr @g\n\ndefine void @h() {\n  ret void\n}\n"
	m, err := Parse("g.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		first bool
		want  string
	}{{false, "@f @g @a @h"}, {true, "@g @a @f @h"}} {
		out, err := m.NewPlan().Append(nil, WriteOptions{GlobalsFirst: c.first})
		if err != nil {
			t.Fatal(err)
		}
		names := []string{"@f(", "@g =", "@a =", "@h("}
		slices.SortFunc(names, func(x, y string) int {
			return bytes.Index(out, []byte(x)) - bytes.Index(out, []byte(y))
		})
		for i, n := range names {
			names[i] = strings.TrimRight(n, " =(")
		}
		if got := strings.Join(names, " "); got != c.want {
			t.Errorf("GlobalsFirst %v: written in the order %s, want %s:\n%s", c.first, got, c.want, out)
		}
	}
}

// TestGroupsLast: with WriteOptions.GroupsLast an attribute group defined
// between functions is written after the last function, the groups in
// their order, as LLVM prints them; without it, where the text has it.
func TestGroupsLast(t *testing.T) {
	src := "declare void @d() #1\n\nattributes #1 = { nounwind }\n\ndefine void @f() #0 {\n  ret void\n}\n\nattributes #0 = { noinline }\n\ndefine void @h() {\n  ret void\n}\n\n!n = !{!0}\n!0 = !{}\n"
	m, err := Parse("g.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		last bool
		want string
	}{{false, "@d #1 @f #0 @h !n"}, {true, "@d @f @h #1 #0 !n"}} {
		out, err := m.NewPlan().Append(nil, WriteOptions{GroupsLast: c.last})
		if err != nil {
			t.Fatal(err)
		}
		names := []string{"@d(", "#1 =", "@f(", "#0 =", "@h(", "!n ="}
		slices.SortFunc(names, func(x, y string) int {
			return bytes.Index(out, []byte(x)) - bytes.Index(out, []byte(y))
		})
		for i, n := range names {
			names[i] = strings.TrimRight(n, " =(")
		}
		if got := strings.Join(names, " "); got != c.want {
			t.Errorf("GroupsLast %v: written in the order %s, want %s:\n%s", c.last, got, c.want, out)
		}
	}
}
