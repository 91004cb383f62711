package specconst

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/props"
)

// lower parses src, lowers it in mode and returns the written module.
func lower(t *testing.T, src string, o Options) (string, *Result) {
	t.Helper()
	m, err := llvmir.Parse("in.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := m.NewPlan()
	res, err := Lower(m, p, o)
	if err != nil {
		t.Fatalf("Lower: %v", err)
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatalf("Write: %v", err)
	}
	// The analysis without a plan gives the same result.
	again, err := Lower(m, nil, o)
	if err != nil || !equalResults(res, again) {
		t.Errorf("Lower without plan = %+v, %v; with plan %+v", again, err, res)
	}
	return b.String(), res
}

func equalResults(a, b *Result) bool {
	if a.Modified != b.Modified || !bytes.Equal(a.Defaults, b.Defaults) || len(a.SpecConsts) != len(b.SpecConsts) {
		return false
	}
	for i := range a.SpecConsts {
		x, y := a.SpecConsts[i], b.SpecConsts[i]
		if x.SymID != y.SymID || len(x.Descs) != len(y.Descs) {
			return false
		}
		for j := range x.Descs {
			if x.Descs[j] != y.Descs[j] {
				return false
			}
		}
	}
	return true
}

// function returns the text of define … @name … { … } in out.
func function(t *testing.T, out, name string) string {
	t.Helper()
	i := strings.Index(out, "@"+name+"(")
	if i < 0 {
		t.Fatalf("no function @%s in:\n%s", name, out)
	}
	start := strings.LastIndex(out[:i], "\ndefine") + 1
	end := strings.Index(out[i:], "\n}\n")
	return out[start : i+end+3]
}

// A module with one of each kind of call, in typed-pointer (LLVM 15) and
// opaque-pointer syntax.
const header = `target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%spec_id.i32 = type { i32 }
%spec_id.bool = type { i8 }
%spec_id.S = type { %struct.S }
%spec_id.P = type { %struct.P }
%struct.S = type { i32, float }
%struct.P = type { i32, i8 }

@name_a = private unnamed_addr addrspace(1) constant [7 x i8] c"name_a\00", align 1
@name_b = private unnamed_addr addrspace(1) constant [7 x i8] c"name_b\00", align 1
@name_c = private unnamed_addr addrspace(1) constant [7 x i8] c"name_c\00", align 1
@name_d = private unnamed_addr addrspace(1) constant [7 x i8] c"name_d\00", align 1
@sc_a = internal addrspace(1) constant %spec_id.i32 { i32 42 }, align 4
@sc_b = linkonce_odr addrspace(1) constant %spec_id.bool { i8 1 }, align 1
@sc_c = dso_local addrspace(1) constant %spec_id.S { %struct.S { i32 3, float 2.5 } }, align 4
@sc_d = internal addrspace(1) constant %spec_id.P zeroinitializer, align 4
`

const opaqueBody = `
define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(4) %buf) {
entry:
  %s = alloca %struct.S, align 4
  %0 = call spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @name_a to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @sc_a to ptr addrspace(4)), ptr addrspace(4) %buf)
  %1 = add i32 %0, 1
  store i32 %1, ptr addrspace(1) %out, align 4
  %b = call spir_func zeroext i1 @_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @name_b to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @sc_b to ptr addrspace(4)), ptr addrspace(4) %buf)
  %2 = zext i1 %b to i32
  call spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI1SET_PKcPKvS5_(ptr sret(%struct.S) align 4 %s, ptr addrspace(4) addrspacecast (ptr addrspace(1) @name_c to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @sc_c to ptr addrspace(4)), ptr addrspace(4) %buf)
  %p = call spir_func %struct.P @_Z40__sycl_getComposite2020SpecConstantValueI1PET_PKcPKvS5_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @name_d to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @sc_d to ptr addrspace(4)), ptr addrspace(4) %buf)
  %3 = extractvalue %struct.P %p, 1
  br label %4

4:
  %5 = phi i32 [ %2, %entry ]
  ret void
}

declare spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func zeroext i1 @_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI1SET_PKcPKvS5_(ptr sret(%struct.S) align 4, ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func %struct.P @_Z40__sycl_getComposite2020SpecConstantValueI1PET_PKcPKvS5_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
`

func TestLowerNative(t *testing.T) {
	out, res := lower(t, header+opaqueBody, Options{Mode: Native})
	want := `define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(4) %buf) {
entry:
  %s = alloca %struct.S, align 4
  %0 = call i32 @_Z20__spirv_SpecConstantii(i32 0, i32 42)
  %1 = add i32 %0, 1
  store i32 %1, ptr addrspace(1) %out, align 4
  %2 = call i8 @_Z20__spirv_SpecConstantia(i32 1, i8 1)
  %tobool = trunc i8 %2 to i1
  %3 = zext i1 %tobool to i32
  %4 = call i32 @_Z20__spirv_SpecConstantii(i32 2, i32 3)
  %5 = call float @_Z20__spirv_SpecConstantif(i32 3, float 2.500000e+00)
  %6 = call %struct.S @_Z29__spirv_SpecConstantCompositeif_Rstruct.S(i32 %4, float %5)
  store %struct.S %6, ptr %s, align 4
  %7 = call i32 @_Z20__spirv_SpecConstantii(i32 4, i32 0)
  %8 = call i8 @_Z20__spirv_SpecConstantia(i32 5, i8 0)
  %9 = call %struct.P @_Z29__spirv_SpecConstantCompositeia_Rstruct.P(i32 %7, i8 %8)
  %10 = extractvalue %struct.P %9, 1
  br label %11

11:
  %12 = phi i32 [ %3, %entry ]
  ret void
}
`
	if got := function(t, out, "k"); got != want {
		t.Errorf("native lowering:\n%s\nwant:\n%s", got, want)
	}
	for _, s := range []string{
		"declare i32 @_Z20__spirv_SpecConstantii(i32, i32)\n",
		"declare i8 @_Z20__spirv_SpecConstantia(i32, i8)\n",
		"declare %struct.S @_Z29__spirv_SpecConstantCompositeif_Rstruct.S(i32, float)\n",
		"!sycl.specialization-constants = !{!0, !1, !2, !3}\n",
		"!sycl.specialization-constants-default-values = !{!4, !5, !6, !7}\n",
		`!0 = !{!"name_a", i32 0, i32 0, i32 4}`,
		`!1 = !{!"name_b", i32 1, i32 0, i32 1}`,
		`!2 = !{!"name_c", i32 2, i32 0, i32 4, i32 3, i32 4, i32 4}`,
		`!3 = !{!"name_d", i32 4, i32 0, i32 4, i32 5, i32 4, i32 1, i32 -1, i32 5, i32 3}`,
		"!4 = !{i32 42}", "!5 = !{i8 1}", "!6 = !{%struct.S { i32 3, float 2.500000e+00 }}", "!7 = !{%struct.P zeroinitializer}",
		"@sc_c = dso_local", // external: kept
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q", s)
		}
	}
	// What the lowering left unused goes; the external spec id stays.
	for _, s := range []string{"@name_a", "@sc_a =", "@sc_b =", "@sc_d =", "__sycl_get"} {
		if strings.Contains(out, s) {
			t.Errorf("output still has %q", s)
		}
	}
	if len(res.SpecConsts) != 4 || res.SpecConsts[3].SymID != "name_d" {
		t.Fatalf("spec consts: %+v", res.SpecConsts)
	}
	if got := hex.EncodeToString(res.Defaults); got != "2a000000"+"01"+"03000000"+"00002040"+"0000000000000000" {
		t.Errorf("default bytes %s", got)
	}
}

func TestLowerEmulation(t *testing.T) {
	out, res := lower(t, header+opaqueBody, Options{Mode: Emulation})
	want := `define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(4) %buf) {
entry:
  %s = alloca %struct.S, align 4
  %gep = getelementptr i8, ptr addrspace(4) %buf, i32 0
  %bc = bitcast ptr addrspace(4) %gep to ptr addrspace(4)
  %load = load i32, ptr addrspace(4) %bc, align 4
  %0 = add i32 %load, 1
  store i32 %0, ptr addrspace(1) %out, align 4
  %gep1 = getelementptr i8, ptr addrspace(4) %buf, i32 4
  %load2 = load i8, ptr addrspace(4) %gep1, align 1
  %tobool = trunc i8 %load2 to i1
  %1 = zext i1 %tobool to i32
  %gep3 = getelementptr i8, ptr addrspace(4) %buf, i32 8
  %bc4 = bitcast ptr addrspace(4) %gep3 to ptr addrspace(4)
  %load5 = load %struct.S, ptr addrspace(4) %bc4, align 4
  store %struct.S %load5, ptr %s, align 4
  %gep6 = getelementptr i8, ptr addrspace(4) %buf, i32 16
  %bc7 = bitcast ptr addrspace(4) %gep6 to ptr addrspace(4)
  %load8 = load %struct.P, ptr addrspace(4) %bc7, align 4
  %2 = extractvalue %struct.P %load8, 1
  br label %3

3:
  %4 = phi i32 [ %1, %entry ]
  ret void
}
`
	if got := function(t, out, "k"); got != want {
		t.Errorf("emulation lowering:\n%s\nwant:\n%s", got, want)
	}
	for _, s := range []string{
		`!0 = !{!"name_a", i32 0, i32 0, i32 4}`,
		`!1 = !{!"name_b", i32 1, i32 0, i32 1, i32 -1, i32 1, i32 3}`,
		`!2 = !{!"name_c", i32 2, i32 0, i32 8}`,
		`!3 = !{!"name_d", i32 3, i32 0, i32 8}`,
		"!sycl.specialization-constants-default-values = !{!4, !5, !6, !7, !8}",
		"!6 = !{[3 x i8] zeroinitializer}",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q", s)
		}
	}
	// The blob is the buffer: constants at 0, 4 (after 3 bytes of
	// padding), 8 and 16.
	if got := hex.EncodeToString(res.Defaults); got != "2a000000"+"01000000"+"0300000000002040"+"0000000000000000" {
		t.Errorf("default bytes %s", got)
	}
	wantDescs := []props.SpecConst{
		{SymID: "name_a", Descs: []props.SpecConstDesc{{ID: 0, Offset: 0, Size: 4}}},
		{SymID: "name_b", Descs: []props.SpecConstDesc{{ID: 1, Offset: 0, Size: 1}, {ID: props.PaddingID, Offset: 1, Size: 3}}},
		{SymID: "name_c", Descs: []props.SpecConstDesc{{ID: 2, Offset: 0, Size: 8}}},
		{SymID: "name_d", Descs: []props.SpecConstDesc{{ID: 3, Offset: 0, Size: 8}}},
	}
	if !equalResults(res, &Result{Modified: true, SpecConsts: wantDescs, Defaults: res.Defaults}) {
		t.Errorf("descriptors %+v", res.SpecConsts)
	}
}

func TestLowerDefaultValues(t *testing.T) {
	out, res := lower(t, header+opaqueBody, Options{Mode: DefaultValues})
	want := `define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(4) %buf) {
entry:
  %s = alloca %struct.S, align 4
  %0 = add i32 42, 1
  store i32 %0, ptr addrspace(1) %out, align 4
  %bool = trunc i8 1 to i1
  %1 = zext i1 %bool to i32
  store %struct.S { i32 3, float 2.500000e+00 }, ptr %s, align 4
  %2 = extractvalue %struct.P zeroinitializer, 1
  br label %3

3:
  %4 = phi i32 [ %1, %entry ]
  ret void
}
`
	if got := function(t, out, "k"); got != want {
		t.Errorf("default-value lowering:\n%s\nwant:\n%s", got, want)
	}
	if !res.Modified || len(res.SpecConsts) != 0 || len(res.Defaults) != 0 {
		t.Errorf("result %+v", res)
	}
	for _, s := range []string{"!sycl.specialization-constants = !{}", "!sycl.specialization-constants-default-values = !{}"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q", s)
		}
	}
}

// Typed pointers: the sret store goes through a bitcast when the returned
// type is not the pointer's element type, and the emulated load uses
// typed pointers.
func TestLowerTypedPointers(t *testing.T) {
	src := header + `
define spir_kernel void @k(%struct.P addrspace(4)* %ret, i8 addrspace(4)* %buf) {
entry:
  call spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI1PET_PKcPKvS5_(%struct.P addrspace(4)* sret(%struct.P) align 4 %ret, i8 addrspace(4)* getelementptr inbounds ([7 x i8], [7 x i8] addrspace(4)* addrspacecast ([7 x i8] addrspace(1)* @name_d to [7 x i8] addrspace(4)*), i64 0, i64 0), i8 addrspace(4)* addrspacecast (i8 addrspace(1)* bitcast (%spec_id.P addrspace(1)* @sc_d to i8 addrspace(1)*) to i8 addrspace(4)*), i8 addrspace(4)* %buf)
  ret void
}

declare spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI1PET_PKcPKvS5_(%struct.P addrspace(4)* sret(%struct.P) align 4, i8 addrspace(4)*, i8 addrspace(4)*, i8 addrspace(4)*)
`
	cases := []struct {
		mode Mode
		want string
	}{
		{Native, `  %0 = call i32 @_Z20__spirv_SpecConstantii(i32 0, i32 0)
  %1 = call i8 @_Z20__spirv_SpecConstantia(i32 1, i8 0)
  %2 = call %struct.P @_Z29__spirv_SpecConstantCompositeia_Rstruct.P(i32 %0, i8 %1)
  store %struct.P %2, %struct.P addrspace(4)* %ret, align 4
`},
		{Emulation, `  %gep = getelementptr i8, i8 addrspace(4)* %buf, i32 0
  %bc = bitcast i8 addrspace(4)* %gep to %struct.P addrspace(4)*
  %load = load %struct.P, %struct.P addrspace(4)* %bc, align 4
  store %struct.P %load, %struct.P addrspace(4)* %ret, align 4
`},
		{DefaultValues, `  store %struct.P zeroinitializer, %struct.P addrspace(4)* %ret, align 4
`},
	}
	for _, c := range cases {
		out, _ := lower(t, src, Options{Mode: c.mode})
		if got := function(t, out, "k"); !strings.Contains(got, "entry:\n"+c.want+"  ret void") {
			t.Errorf("%v:\n%s\nwant the body:\n%s", c.mode, got, c.want)
		}
	}
}

// A returned struct with an explicit padding field: the field gets undef
// and uses up an ID that no descriptor reports; the tail padding gets a
// padding descriptor.
func TestLowerPaddingField(t *testing.T) {
	src := `target datalayout = "e-i64:64-n8:16:32:64"
%spec_id = type { %struct.D }
%struct.D = type { i32, i8 }
%struct.R = type <{ i32, i8, [3 x i8] }>
@id = private unnamed_addr constant [3 x i8] c"id\00"
@sc = internal constant %spec_id { %struct.D { i32 1, i8 2 } }
define spir_kernel void @k(ptr %r) {
  call void @_Z40__sycl_getComposite2020SpecConstantValueI1RET_PKcPKvS5_(ptr sret(%struct.R) %r, ptr @id, ptr @sc, ptr null)
  ret void
}
declare void @_Z40__sycl_getComposite2020SpecConstantValueI1RET_PKcPKvS5_(ptr sret(%struct.R), ptr, ptr, ptr)
`
	out, res := lower(t, src, Options{Mode: Native})
	for _, s := range []string{
		"%1 = call i32 @_Z20__spirv_SpecConstantii(i32 0, i32 1)",
		"%2 = call i8 @_Z20__spirv_SpecConstantia(i32 1, i8 2)",
		"%3 = call %struct.R @_Z29__spirv_SpecConstantCompositeiaA3_a_Rstruct.R(i32 %1, i8 %2, [3 x i8] undef)",
		`!{!"id", i32 0, i32 0, i32 4, i32 1, i32 4, i32 1, i32 -1, i32 5, i32 3}`,
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if got := hex.EncodeToString(res.Defaults); got != "0100000002000000" {
		t.Errorf("defaults %s", got)
	}
}

// llvm.sycl.alloca: an alloca sized by the spec constant (native) or its
// default (emulation, outside SPIR); emulation on SPIR leaves it alone.
func TestLowerSYCLAlloca(t *testing.T) {
	body := func(triple string) string {
		return `target triple = "` + triple + `"
%spec_id = type { i64 }
@size_id = private unnamed_addr addrspace(1) constant [5 x i8] c"size\00"
@size = internal addrspace(1) constant %spec_id { i64 8 }
define spir_kernel void @k() {
entry:
  %a = call ptr @llvm.sycl.alloca.p0.p4.p4.p4.f32(ptr addrspace(4) addrspacecast (ptr addrspace(1) @size_id to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @size to ptr addrspace(4)), ptr addrspace(4) null, float 0.000000e+00, i64 4)
  store float 1.0, ptr %a
  ret void
}
declare ptr @llvm.sycl.alloca.p0.p4.p4.p4.f32(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4), float, i64)
`
	}
	out, _ := lower(t, body("spir64-unknown-unknown"), Options{Mode: Native})
	if want := "  %0 = call i64 @_Z20__spirv_SpecConstantix(i32 0, i64 8)\n  %alloca = alloca float, i64 %0, align 4\n  store float 1.0, ptr %alloca\n"; !strings.Contains(out, want) {
		t.Errorf("native:\n%s", out)
	}
	out, _ = lower(t, body("nvptx64-nvidia-cuda"), Options{Mode: Emulation})
	if want := "%alloca = alloca float, i64 8, align 4\n  store float 1.0, ptr %alloca\n"; !strings.Contains(out, want) {
		t.Errorf("emulation:\n%s", out)
	}
	out, res := lower(t, body("spir64-unknown-unknown"), Options{Mode: Emulation})
	if res.Modified || !strings.Contains(out, "@llvm.sycl.alloca.p0.p4.p4.p4.f32(ptr addrspace(4)") {
		t.Errorf("SPIR emulation changed the intrinsic:\n%s", out)
	}
}

// Calls are visited declaration by declaration, each declaration's calls
// in LLVM's use-list order, which decides the IDs.
func TestLowerVisitOrder(t *testing.T) {
	decl := "declare i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr, ptr, ptr)\n"
	mod := func(declFirst bool) string {
		s := `%spec_id = type { i32 }
@n1 = private constant [3 x i8] c"n1\00"
@n2 = private constant [3 x i8] c"n2\00"
@v1 = internal constant %spec_id { i32 1 }
@v2 = internal constant %spec_id { i32 2 }
`
		if declFirst {
			s += decl
		}
		s += `define spir_kernel void @k() {
  %a = call i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr @n1, ptr @v1, ptr null)
  %b = call i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr @n2, ptr @v2, ptr null)
  ret void
}
`
		if !declFirst {
			s += decl
		}
		return s
	}
	cases := []struct {
		declFirst, cloned bool
		first             string // the symbolic ID that gets ID 0
	}{
		{false, false, "n1"}, // forward references: source order
		{true, false, "n2"},  // uses after the declaration: last first
		{false, true, "n2"},  // a cloned module: last first
	}
	for _, c := range cases {
		_, res := lower(t, mod(c.declFirst), Options{Mode: Native, Cloned: c.cloned})
		if len(res.SpecConsts) != 2 || res.SpecConsts[0].SymID != c.first || res.SpecConsts[0].Descs[0].ID != 0 {
			t.Errorf("declaration first %v, cloned %v: %+v, want %s first", c.declFirst, c.cloned, res.SpecConsts, c.first)
		}
	}
}

// Only the functions the output module defines are lowered.
func TestLowerKeptOnly(t *testing.T) {
	m, err := llvmir.Parse("in.ll", []byte(header+opaqueBody+`
define spir_kernel void @other() {
  %x = call spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4) null, ptr addrspace(4) null, ptr addrspace(4) null)
  ret void
}
`))
	if err != nil {
		t.Fatal(err)
	}
	other := m.Global("other")
	res, err := Lower(m, nil, Options{Mode: Native, Kept: func(e *llvmir.Entity) bool { return e != other }})
	if err != nil || len(res.SpecConsts) != 4 {
		t.Errorf("lowering without @other: %+v, %v", res, err)
	}
	// With @other, its call's bad symbolic ID is an error at its position.
	_, err = Lower(m, nil, Options{Mode: Native})
	if err == nil || !strings.HasPrefix(err.Error(), "in.ll:") || !strings.Contains(err.Error(), "symbolic ID of this spec constant is not a string constant") {
		t.Errorf("error %v", err)
	}
}

func TestLowerErrors(t *testing.T) {
	base := `%spec_id = type { i32 }
@n = private constant [2 x i8] c"n\00"
@v = internal constant %spec_id { i32 1 }
@g = external global %spec_id
define void @k(ptr %p) {
  %a = call i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ARGS)
  ret void
}
declare i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr, ptr, ptr)
`
	cases := []struct{ args, want string }{
		{"ptr %p, ptr @v, ptr null", "in.ll:6:3: the symbolic ID of this spec constant is not a string constant"},
		{"ptr @n, ptr %p, ptr null", "in.ll:6:3: the default value of this spec constant is not an initialized global"},
		{"ptr @n, ptr @g, ptr null", "in.ll:6:3: the default value of this spec constant is not an initialized global"},
		{"ptr @n, ptr @v", "in.ll:6:3: call of _Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_ has 2 arguments, expected 3"},
		{"ptr @v, ptr @v, ptr null", "in.ll:6:3: symbolic ID @v is not a string"},
	}
	for _, c := range cases {
		m, err := llvmir.Parse("in.ll", []byte(strings.Replace(base, "ARGS", c.args, 1)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Lower(m, m.NewPlan(), Options{Mode: Native})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("args %q: error %v, want %q", c.args, err, c.want)
		}
	}
}

// Input whose unnamed values are out of sequence cannot be renumbered.
func TestLowerBadNumbering(t *testing.T) {
	src := `%spec_id = type { i32 }
@n = private constant [2 x i8] c"n\00"
@v = internal constant %spec_id { i32 1 }
define void @k() {
entry:
  %0 = call i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr @n, ptr @v, ptr null)
  %2 = add i32 %0, 1
  ret void
}
declare i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr, ptr, ptr)
`
	m, err := llvmir.Parse("in.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Lower(m, m.NewPlan(), Options{Mode: Native})
	if err == nil || !strings.Contains(err.Error(), "unnamed value %2 of @k is out of sequence (expected %1)") {
		t.Errorf("error %v", err)
	}
}

// Output modules of one input are lowered concurrently (sycl-post-link
// makes several at once); lowering only reads the module.
func TestLowerConcurrently(t *testing.T) {
	m, err := llvmir.Parse("in.ll", []byte(header+opaqueBody))
	if err != nil {
		t.Fatal(err)
	}
	outs := make([]string, 8)
	done := make(chan int)
	for i := range outs {
		go func() {
			defer func() { done <- i }()
			p := m.NewPlan()
			mode := []Mode{Native, Emulation, DefaultValues}[i%3]
			if _, err := Lower(m, p, Options{Mode: mode}); err != nil {
				t.Error(err)
				return
			}
			var b bytes.Buffer
			if err := p.Write(&b); err != nil {
				t.Error(err)
			}
			outs[i] = b.String()
		}()
	}
	for range outs {
		<-done
	}
	for i := 3; i < len(outs); i++ {
		if outs[i] != outs[i-3] {
			t.Errorf("run %d differs from run %d", i, i-3)
		}
	}
}

// A default written flat for a type of nested structs (the front end's
// form for a class with bases, hierarchy.ll) is matched by offset; its
// padding goes to the composite as zeroinitializer.
func TestLowerFlattenedDefault(t *testing.T) {
	src := `target datalayout = "e-i64:64-n8:16:32:64"
%struct.Outer = type { %struct.Inner, i32, [4 x i8] }
%struct.Inner = type { float, i32 }
@id = private unnamed_addr constant [3 x i8] c"id\00"
@sc = internal constant { { float, i32, i32, [4 x i8] } } { { float, i32, i32, [4 x i8] } { float 1.0, i32 2, i32 3, [4 x i8] undef } }
define spir_kernel void @k(ptr %r) {
  call void @_Z40__sycl_getComposite2020SpecConstantValueI5OuterET_PKcPKvS5_(ptr sret(%struct.Outer) %r, ptr @id, ptr @sc, ptr null)
  ret void
}
declare void @_Z40__sycl_getComposite2020SpecConstantValueI5OuterET_PKcPKvS5_(ptr sret(%struct.Outer), ptr, ptr, ptr)
`
	out, _ := lower(t, src, Options{Mode: Native})
	for _, s := range []string{
		"%1 = call float @_Z20__spirv_SpecConstantif(i32 0, float 1.000000e+00)",
		"%2 = call i32 @_Z20__spirv_SpecConstantii(i32 1, i32 2)",
		"(float %1, i32 %2)",
		"%4 = call i32 @_Z20__spirv_SpecConstantii(i32 2, i32 3)",
		"(%struct.Inner %3, i32 %4, [4 x i8] zeroinitializer)",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}
