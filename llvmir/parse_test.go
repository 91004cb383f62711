package llvmir

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

const richSrc = `source_filename = "rich"
target datalayout = "e-p:64:64:64-i64:64-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
module asm "@notaref ; !7"

%T = type { i32, ptr }
%U = type opaque
%P = type <{ i8, i32 }>
%"quoted name" = type { [2 x <4 x float>], %T }

$cd = comdat largest

@"g \22q\22" = dso_local local_unnamed_addr addrspace(3) externally_initialized global i32 7, section ".data", comdat($cd), align 8, !custom !0 #0
@tl = thread_local(initialexec) global i32 0
@alias = weak hidden alias i32, ptr addrspace(3) @"g \22q\22"
@ifn = ifunc void (), ptr @resolver
@arr = constant [2 x ptr] [ptr @f, ptr getelementptr (i8, ptr @tl, i64 4)]
@s = constant [5 x i8] c"@x!1\00"
@q = global %"quoted name" zeroinitializer

define ptr @resolver() {
  ret ptr @f
}

declare i32 @g2()
declare i32 @printf(ptr, ...)
declare i32 @pers(...)

; Function Attrs: nounwind
define dllexport ccc void @f(ptr noalias sret(%P) align 4 %out, i32 "sycl-implicit-local-arg" %n, ...) unnamed_addr #1 section "s" align 16 gc "shadow-stack" personality ptr @pers !kern !1 {
entry:
  %fp = load ptr, ptr @arr
  call void %fp(i32 1, float 2.0)
  %r = invoke i32 @g2() to label %ok unwind label %bad
ok:
  call void asm sideeffect "nop ; @nope", ""()
  %v = call i32 (ptr, ...) @printf(ptr @s, i32 %r) #2
  ret void
bad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

attributes #0 = { "sycl-unique-id"="gq" "sycl-device-global-size"="4" }
attributes #1 = { nounwind "sycl-module-id"="a.cpp" "indirectly-callable"="set" "referenced-indirectly" alignstack=16 }
attributes #2 = { nobuiltin }

!nvvm.annotations = !{!2, !3}

!0 = !{!"zero"}
!1 = !{i32 16, !"str", !{i64 -1, null}, !0}
!2 = !{ptr @f, !"kernel", i32 1}
!3 = distinct !DISubroutineType(cc: DW_CC_normal, types: !4)
!4 = !{null}
`

func TestParseRich(t *testing.T) {
	assemble(t, "llvm-as-19", "rich.ll", []byte(richSrc))
	m, err := Parse("rich.ll", []byte(richSrc))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	m.Write(&out)
	if out.String() != richSrc {
		t.Fatal("not byte-identical")
	}
	if m.Triple != "nvptx64-nvidia-cuda" || m.SourceFilename != "rich" || m.DataLayout.Text == "" {
		t.Errorf("header: %q %q %q", m.Triple, m.SourceFilename, m.DataLayout.Text)
	}
	var kinds []Kind
	for _, e := range m.Entities {
		kinds = append(kinds, e.Kind)
	}
	wantKinds := []Kind{KindSourceFilename, KindDataLayout, KindTriple, KindModuleAsm,
		KindTypeDef, KindTypeDef, KindTypeDef, KindTypeDef, KindComdat,
		KindGlobalVar, KindGlobalVar, KindAlias, KindIFunc, KindGlobalVar, KindGlobalVar, KindGlobalVar,
		KindFunction, KindFunction, KindFunction, KindFunction, KindFunction,
		KindAttrGroup, KindAttrGroup, KindAttrGroup, KindNamedMD, KindMDNode, KindMDNode, KindMDNode, KindMDNode, KindMDNode}
	if !reflect.DeepEqual(kinds, wantKinds) {
		t.Fatalf("kinds:\n got %v\nwant %v", kinds, wantKinds)
	}
	if e := m.Entities[3]; e.Str != "@notaref ; !7" || len(e.Globals) != 0 || len(e.Metadata) != 0 {
		t.Errorf("module asm: %q refs %v %v", e.Str, e.Globals, e.Metadata)
	}

	// Types.
	q := m.NamedType("quoted name")
	if q == nil || q.Body() != "{ [2 x <4 x float>], %T }" || q.String() != `%"quoted name"` {
		t.Errorf("quoted type: %v", q)
	}
	if u := m.NamedType("U"); !u.Opaque {
		t.Errorf("%%U not opaque")
	}
	if p := m.NamedType("P"); !p.Packed || len(p.Fields) != 2 {
		t.Errorf("%%P = %s", p.Body())
	}

	// Global variable.
	g := m.Global(`g "q"`)
	if g == nil || g.Var == nil {
		t.Fatal(`@"g \22q\22" missing`)
	}
	v := g.Var
	if v.Preemption != "dso_local" || v.UnnamedAddr != "local_unnamed_addr" || v.AddrSpace != 3 ||
		!v.ExternallyInitialized || v.Constant || v.Type.String() != "i32" || v.Init != "7" ||
		v.Section != ".data" || v.Comdat != "cd" || v.Align != 8 || !reflect.DeepEqual(v.AttrGroups, []int{0}) ||
		len(v.Attachments) != 1 || v.Attachments[0].Kind != "custom" || v.Attachments[0].Ref != m.MD(0) {
		t.Errorf("global header: %+v", v)
	}
	if a := m.Attrs(g); a.Has("sycl-unique-id") == false {
		t.Errorf("global attrs: %v", a)
	} else if sz, _ := a.Get("sycl-device-global-size"); sz != "4" {
		t.Errorf("sycl-device-global-size = %q", sz)
	}
	if tl := m.Global("tl").Var; tl.ThreadLocal != "thread_local(initialexec)" {
		t.Errorf("thread_local = %q", tl.ThreadLocal)
	}
	if a := m.Global("alias"); a.Alias.Points != g || a.Alias.Linkage != Weak || a.Alias.Visibility != "hidden" || names(a.Globals) != `g "q"` {
		t.Errorf("alias: %+v globals %v", a.Alias, names(a.Globals))
	}
	if i := m.Global("ifn"); i.Kind != KindIFunc || i.Alias.Points != m.Global("resolver") {
		t.Errorf("ifunc: %+v", i.Alias)
	}
	if a := m.Global("arr"); names(a.Globals) != "f tl" {
		t.Errorf("@arr references %s", names(a.Globals))
	}
	if s := m.Global("s"); len(s.Globals) != 0 || len(s.Metadata) != 0 {
		t.Errorf("@s: string contents read as references")
	}

	// Function header.
	fe := m.Global("f")
	f := fe.Func
	if f.Declaration || f.DLLStorage != "dllexport" || f.CallingConv != "ccc" || f.RetType.String() != "void" ||
		!f.VarArg || f.UnnamedAddr != "unnamed_addr" || f.Section != "s" || f.Align != 16 || f.GC != "shadow-stack" ||
		f.Personality != "ptr @pers" || !reflect.DeepEqual(f.AttrGroups, []int{1}) {
		t.Errorf("function header: %+v", f)
	}
	if len(f.Params) != 2 || f.Params[0].Name != "out" || f.Params[0].SRet() != m.NamedType("P") ||
		!f.Params[0].Attrs.Has("noalias") || f.Params[1].Name != "n" || !f.Params[1].Attrs.Has("sycl-implicit-local-arg") {
		t.Errorf("params: %+v", f.Params)
	}
	if al, _ := f.Params[0].Attrs.Get("align"); al != "4" {
		t.Errorf("align = %q", al)
	}
	if ft := f.Type().String(); ft != "void (ptr, i32, ...)" {
		t.Errorf("function type %s", ft)
	}
	attrs := m.Attrs(fe)
	for _, k := range []string{"nounwind", "sycl-module-id", "indirectly-callable", "referenced-indirectly", "alignstack"} {
		if !attrs.Has(k) {
			t.Errorf("function attribute %s missing from %v", k, attrs)
		}
	}
	if v, _ := attrs.Get("sycl-module-id"); v != "a.cpp" {
		t.Errorf("sycl-module-id = %q", v)
	}
	if v, _ := attrs.Get("alignstack"); v != "16" {
		t.Errorf("alignstack = %q", v)
	}
	if len(f.Attachments) != 1 || f.Attachments[0].Kind != "kern" || f.Attachments[0].Ref != m.MD(1) {
		t.Fatalf("attachments: %+v", f.Attachments)
	}
	ops := f.Attachments[0].Node.Ops
	if n, ok := ops[0].Int(); !ok || n != 16 {
		t.Errorf("op 0 = %+v", ops[0])
	}
	if ops[1].Kind != MDString || ops[1].Str != "str" {
		t.Errorf("op 1 = %+v", ops[1])
	}
	if in := ops[2].Target(); in == nil || len(in.Ops) != 2 || in.Ops[1].Kind != MDNull {
		t.Errorf("op 2 = %+v", ops[2])
	} else if n, _ := in.Ops[0].Int(); n != -1 {
		t.Errorf("nested int = %d", n)
	}
	if ops[3].Kind != MDRef || ops[3].Ref != m.MD(0) {
		t.Errorf("op 3 = %+v", ops[3])
	}

	// References, callees, calls.
	if got := names(fe.Globals); got != "pers arr g2 printf s" {
		t.Errorf("@f references %q", got)
	}
	if got := names(f.Callees); got != "g2 printf" {
		t.Errorf("callees %q", got)
	}
	if got := names(f.AddressTaken); got != "pers" {
		t.Errorf("address taken %q", got)
	}
	if got := mdNames(fe.Metadata); got != "1" {
		t.Errorf("@f metadata %q", got)
	}
	if len(f.Calls) != 4 {
		t.Fatalf("%d calls", len(f.Calls))
	}
	ind := f.Calls[0]
	if !ind.Indirect() || ind.FnType.String() != "void (i32, float)" || ind.CalleeText != "%fp" {
		t.Errorf("indirect call: %+v", ind)
	}
	inv := f.Calls[1]
	if inv.Op != "invoke" || inv.Callee != m.Global("g2") || inv.Result != "r" ||
		string(m.Src[inv.Start:inv.End]) != "%r = invoke i32 @g2() to label %ok unwind label %bad" {
		t.Errorf("invoke: %+v %q", inv, m.Src[inv.Start:inv.End])
	}
	if asm := f.Calls[2]; !asm.InlineAsm || !asm.Indirect() {
		t.Errorf("asm call: %+v", asm)
	}
	pf := f.Calls[3]
	if pf.FnType.String() != "i32 (ptr, ...)" || pf.Args[0].Points != m.Global("s") || !reflect.DeepEqual(pf.AttrGroups, []int{2}) {
		t.Errorf("printf call: %+v", pf)
	}
	if r := m.Global("resolver"); names(r.Func.AddressTaken) != "f" || len(r.Func.Callees) != 0 {
		t.Errorf("resolver: %v", names(r.Func.AddressTaken))
	}

	// Named and numbered metadata.
	nv := m.NamedMD("nvvm.annotations")
	if len(nv.Named.Ops) != 2 || nv.Named.Ops[0].Ref != m.MD(2) {
		t.Fatalf("named metadata: %+v", nv.Named)
	}
	if op := m.MD(2).Node.Ops[0]; op.Kind != MDValue || op.Global != fe || op.Type.String() != "ptr" {
		t.Errorf("!2 op 0 = %+v", op)
	}
	if gs := m.MDGlobals(nv); names(gs) != "f" {
		t.Errorf("MDGlobals = %s", names(gs))
	}
	if d := m.MD(3).Node; !d.Distinct || d.Special != "DISubroutineType" || d.Fields != "cc: DW_CC_normal, types: !4" || len(d.Ops) != 1 || d.Ops[0].Ref != m.MD(4) {
		t.Errorf("!3 = %+v", d)
	}
	if m.MaxMDID() != 4 || m.MaxAttrGroupID() != 2 {
		t.Errorf("max ids %d %d", m.MaxMDID(), m.MaxAttrGroupID())
	}
}

func names(es []*Entity) string {
	var s []string
	for _, e := range es {
		s = append(s, e.Name)
	}
	return strings.Join(s, " ")
}

func mdNames(es []*Entity) string { return names(es) }

// Typed-pointer (LLVM 15) syntax: casts as callees, typed pointers in
// headers and arguments.
const typedSrc = `target triple = "spir64-unknown-unknown"

%struct.A = type { i32, float }

@x = internal addrspace(1) global %struct.A zeroinitializer, align 4
@0 = private unnamed_addr constant [3 x i8] c"ab\00"

declare spir_func void @cb(i32)
declare spir_func i8 addrspace(4)* @id(i8 addrspace(4)*)
declare void @take(%struct.A addrspace(4)* sret(%struct.A) align 4, i8*)

define spir_kernel void @t(i8 addrspace(4)* %p) {
entry:
  %a = alloca %struct.A, align 4
  %ac = addrspacecast %struct.A* %a to %struct.A addrspace(4)*
  call spir_func void bitcast (void (i32)* @cb to void (i64)*)(i64 1)
  %0 = call spir_func i8 addrspace(4)* @id(i8 addrspace(4)* addrspacecast (i8 addrspace(1)* bitcast (%struct.A addrspace(1)* @x to i8 addrspace(1)*) to i8 addrspace(4)*))
  call void @take(%struct.A addrspace(4)* sret(%struct.A) align 4 %ac, i8* getelementptr inbounds ([3 x i8], [3 x i8]* @0, i64 0, i64 0))
  ret void
}
`

func TestParseTyped(t *testing.T) {
	assemble(t, "llvm-as-15", "typed.ll", []byte(typedSrc))
	m, err := Parse("typed.ll", []byte(typedSrc))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Global("t").Func
	if f.Params[0].Type.String() != "i8 addrspace(4)*" || f.Params[0].Type.Elem != typeI8 || f.Params[0].Type.AddrSpace != 4 {
		t.Errorf("param type %s", f.Params[0].Type)
	}
	if len(f.Calls) != 3 {
		t.Fatalf("%d calls", len(f.Calls))
	}
	c0 := f.Calls[0]
	if c0.Callee != nil || c0.CastCallee != m.Global("cb") || c0.FnType.String() != "void (i64)" {
		t.Errorf("cast callee: %+v", c0)
	}
	c1 := f.Calls[1]
	if c1.Result != "0" || !c1.ResultNumbered || c1.Args[0].Points != m.Global("x") {
		t.Errorf("call 1: %+v", c1)
	}
	c2 := f.Calls[2]
	if c2.Args[0].SRet() != m.NamedType("struct.A") || c2.Args[1].Points != m.UnnamedGlobal(0) {
		t.Errorf("call 2: %+v", c2)
	}
	if got := names(f.Callees); got != "id take" {
		t.Errorf("callees %q", got)
	}
	if got := names(f.AddressTaken); got != "cb" {
		t.Errorf("address taken %q", got)
	}
	if sr := m.Global("take").Func.Params[0].SRet(); sr == nil || sr.Name != "struct.A" {
		t.Errorf("declaration sret %v", sr)
	}
}

// TestScanSkips checks that strings, metadata strings, quoted names,
// comments and labels never produce references or calls.
func TestScanSkips(t *testing.T) {
	src := `@real = global i32 0
declare void @callee()
define void @f() {
call:
  %"call me" = alloca [8 x i8]
  store [8 x i8] c"@real!0\00", ptr %"call me" ; call void @nothing() !5
  call void @callee(), !note !{!"@real !1 call"}
  br label %call
}
`
	m, err := Parse("s.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Global("f")
	if got := names(f.Globals); got != "callee" {
		t.Errorf("references %q", got)
	}
	if len(f.Func.Calls) != 1 || len(f.Metadata) != 0 {
		t.Errorf("calls %d metadata %d", len(f.Func.Calls), len(f.Metadata))
	}
}

func TestEntityTextAndLead(t *testing.T) {
	src := "; header\n\n@a = global i32 1 ; trailing\n@b = global i32 2 @c = global i32 3\n\n; tail\n"
	m, err := Parse("l.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ lead, text string }{
		{"; header\n\n", "@a = global i32 1 ; trailing\n"},
		{"", "@b = global i32 2"},
		{" ", "@c = global i32 3\n"},
	}
	if len(m.Entities) != len(want) {
		t.Fatalf("%d entities", len(m.Entities))
	}
	for i, w := range want {
		if e := m.Entities[i]; string(e.Lead) != w.lead || string(e.Text) != w.text {
			t.Errorf("entity %d: lead %q text %q", i, e.Lead, e.Text)
		}
	}
	if string(m.Tail) != "\n; tail\n" {
		t.Errorf("tail %q", m.Tail)
	}
	// Dropping @b keeps @a and @c apart.
	p := m.NewPlan()
	p.Drop(m.Global("b"))
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != "; header\n\n@a = global i32 1 ; trailing\n @c = global i32 3\n\n; tail\n" {
		t.Errorf("output %q", b.String())
	}
}
