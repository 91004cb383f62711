package props

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

// computed parses src, computes its properties (entry points: the named
// functions) and returns the .prop text.
func computed(t *testing.T, src string, entries []string, img Image, o Options) string {
	t.Helper()
	m, err := llvmir.Parse("in.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	img.M = m
	for _, n := range entries {
		e := m.Global(n)
		if e == nil {
			t.Fatalf("no @%s", n)
		}
		img.EntryPoints = append(img.EntryPoints, e)
	}
	r, err := Compute(&img, o)
	if err != nil {
		t.Fatalf("Compute: %v", err)
	}
	var b bytes.Buffer
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

const spir = "target triple = \"spir64-unknown-unknown\"\n"

// The byte-array values below (strings and integer arrays) were encoded
// independently of this package, from the format's definition
// (dpcpp-tools.md §3.9: an 8-byte little-endian bit count, then the bytes,
// in LLVM's LSB-first Base64): "intel_gpu_pvc" is oBAAAAAAAAQauRXZs91ZwV3XwZ3Y,
// the uint64 array {8, 4, 2} ADAAAAAAAAACAAAAAAAAAQAAAAAAAAAACAAAAAAAAAA.

// head is the two sets every image has, for an image without aspects.
const head = "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|0\n[SYCL/device requirements]\naspects=2|AAAAAAAAAAA\n"

func TestCompute(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		entries []string
		img     Image
		o       Options
		want    string
	}{
		{
			// emit_program_metadata.ll, dpcpp-tools.md §3.11 (a).
			name: "program metadata",
			src: spir + `!0 = !{i32 1, i32 2, i32 4}
!1 = !{i32 2, i32 4}
!2 = !{i32 4}
define weak_odr spir_kernel void @SpirKernel1(float %arg1) !reqd_work_group_size !0 { ret void }
define weak_odr spir_kernel void @SpirKernel2(float %arg1) !reqd_work_group_size !1 { ret void }
define weak_odr spir_kernel void @SpirKernel3(float %arg1) !reqd_work_group_size !2 { ret void }
`,
			entries: []string{"SpirKernel1", "SpirKernel2", "SpirKernel3"},
			o:       Options{EmitProgramMetadata: true, DeviceGlobals: true, DropReqdWorkGroupSize: true},
			want: head + `[SYCL/program metadata]
SpirKernel1@reqd_work_group_size=2|gBAAAAAAAAQAAAAACAAAAQAAAAA
SpirKernel2@reqd_work_group_size=2|ABAAAAAAAAgAAAAAEAAAAA
SpirKernel3@reqd_work_group_size=2|gAAAAAAAAAABAAAA
`,
		},
		{
			// omit_kernel_args.ll, with both metadata names.
			name: "kernel param opt",
			src: spir + `define weak_odr spir_kernel void @SpirKernel1(float %a) !sycl_kernel_omit_args !0 { ret void }
define weak_odr spir_kernel void @SpirKernel2(i8 %a, i8 %b, i8 %c) !spir_kernel_omit_args !1 { ret void }
define weak_odr spir_kernel void @NoInfo() { ret void }
!0 = !{i1 true, i1 false}
!1 = !{i1 false, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 false, i1 false, i1 true, i1 true}
`,
			o: Options{EmitParamInfo: true},
			want: head + `[SYCL/kernel param opt]
SpirKernel1=2|CAAAAAAAAAQA
SpirKernel2=2|LAAAAAAAAAgfGA
`,
		},
		{
			// device-requirements.ll, §3.11 (e): aspects {12,1,9} ∪ {6,1}, plus
			// a named pair, an internal (negative) aspect and a declaration.
			name: "aspects",
			src: spir + `define void @a() !sycl_used_aspects !0 { ret void }
define void @b() !sycl_used_aspects !1 { ret void }
!0 = !{i32 12, i32 1, i32 9}
!1 = !{!2, i32 1, i32 -1}
!2 = !{!"fp64", i32 6}
`,
			want: "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|0\n[SYCL/device requirements]\naspects=2|ACAAAAAAAAQAAAAAGAAAAkAAAAADAAAA\n",
		},
		{
			name: "device requirements",
			src: spir + `define spir_kernel void @k1() !sycl_fixed_targets !0 !reqd_work_group_size !1 !work_group_num_dim !2 !intel_reqd_sub_group_size !3 !sycl_joint_matrix !4 { ret void }
define spir_func void @f() !reqd_work_group_size !1 !intel_reqd_sub_group_size !5 !sycl_joint_matrix_mad !6 !sycl_fixed_targets !7 { ret void }
!0 = !{i32 3, i32 1}
!1 = !{i64 8, i64 4, i64 2}
!2 = !{i32 3}
!3 = !{i32 16}
!4 = !{!"matrix_type::bf16,use::a,16,16"}
!5 = !{i32 32}
!6 = !{!""}
!7 = !{}
`,
			entries: []string{"k1"},
			o:       Options{CompileTarget: "intel_gpu_pvc"},
			want: `[SYCL/devicelib req mask]
DeviceLibReqMask=1|0
[SYCL/device requirements]
aspects=2|AAAAAAAAAAA
fixed_target=2|ABAAAAAAAAQAAAAADAAAAA
joint_matrix=2|wDAAAAAAAAQbhRncph3X0lHclpjOiZWM2wSdzVmO6EGLxYDLxYD
reqd_sub_group_size=1|16
reqd_work_group_size_uint64_t=2|ADAAAAAAAAACAAAAAAAAAQAAAAAAAAAACAAAAAAAAAA
work_group_num_dim=1|3
compile_target=2|oBAAAAAAAAQauRXZs91ZwV3XwZ3Y
`,
		},
		{
			name: "work-group sizes that disagree, and a dimension after one",
			src: spir + `define spir_kernel void @k1() !reqd_work_group_size !0 { ret void }
define spir_kernel void @k2() !reqd_work_group_size !1 !work_group_num_dim !2 { ret void }
!0 = !{i32 8}
!1 = !{i32 4}
!2 = !{i32 1}
`,
			entries: []string{"k1", "k2"},
			want:    head,
		},
		{
			name: "devicelib mask",
			src: spir + `declare spir_func void @__devicelib_assert_fail(ptr, ptr, i32, ptr, i64, i64, i64, i64, i64, i64)
declare spir_func float @__devicelib_cosf(float)
declare spir_func ptr @__devicelib_memcpy(ptr, ptr, i64)
declare spir_func float @__devicelib_imf_fadd_rz(float, float)
declare spir_func float @__devicelib_imf_bfloat162float(i16)
declare spir_func void @__devicelib_ConvertFToBF16INTELVec8(ptr, ptr)
declare spir_func void @__devicelib_default_work_group_private_sort_close_ascending_p1i32_u32_p1i8(ptr, i32, ptr)
declare spir_func void @__devicelib_unknown()
define spir_func double @__devicelib_cos(double %x) { ret double %x }
`,
			want: "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|1891\n[SYCL/device requirements]\naspects=2|AAAAAAAAAAA\n",
		},
		{
			name: "devicelib mask outside SPIR",
			src: "target triple = \"nvptx64-nvidia-cuda\"\n" + `declare void @__devicelib_assert_fail()
`,
			want: head,
		},
		{
			name: "spec constants",
			src:  spir,
			img: Image{SpecConsts: []SpecConst{{SymID: "fb86570d411366d1____ZL9SpecConst",
				Descs: []SpecConstDesc{{0, 0, 4}, {1, 4, 1}, {PaddingID, 5, 3}}}},
				SpecConstDefaults: make([]byte, 8)},
			// composite-padding-desc.ll, §3.11 (c).
			want: head + `[SYCL/specialization constants]
fb86570d411366d1____ZL9SpecConst=2|gEAAAAAAAAAAAAAAAAAAAQAAAAQAAAAAEAAAAEAAAAw/////FAAAAMAAAAA
[SYCL/specialization constants default values]
all=2|ABAAAAAAAAAAAAAAAAAAAA
`,
		},
		{
			// test_global_variable.ll, §3.11 (d), in both attribute spellings.
			name: "device globals",
			src: spir + `@dg1 = weak_odr addrspace(1) global i32 0 #0
@dg2 = weak_odr addrspace(1) global i8 0 #1
@dg3 = weak_odr addrspace(1) global i8 0 #2
@dg4 = weak_odr addrspace(1) global i32 0 #3
@pipe = weak_odr addrspace(1) global i32 0 #4
attributes #0 = { "sycl-unique-id"="6da74a122db9f35d____ZL7dg_int1" "device_image_scope"="false" "sycl-device-global-size"="4" }
attributes #1 = { "sycl-unique-id"="9d329ad59055e972____ZL8dg_bool3" "device_image_scope" "sycl-device-global-size"="1" }
attributes #2 = { "sycl-unique-id"="dg3" "sycl-device-image-scope"="true" "sycl-device-global-size"="1" }
attributes #3 = { "sycl-unique-id"="not_a_device_global" "device_image_scope"="false" }
attributes #4 = { "sycl-unique-id"="pipe_id" "sycl-host-pipe" "sycl-host-pipe-size"="4" }
`,
			o: Options{DeviceGlobals: true, EmitProgramMetadata: true},
			want: head + `[SYCL/program metadata]
6da74a122db9f35d____ZL7dg_int1@global_id_mapping=2|YAAAAAAAAAAZnFD
9d329ad59055e972____ZL8dg_bool3@global_id_mapping=2|YAAAAAAAAAAZnJD
dg3@global_id_mapping=2|YAAAAAAAAAAZnND
[SYCL/device globals]
6da74a122db9f35d____ZL7dg_int1=2|ABAAAAAAAAABAAAAAAAAAA
9d329ad59055e972____ZL8dg_bool3=2|ABAAAAAAAAQAAAAABAAAAA
dg3=2|ABAAAAAAAAQAAAAABAAAAA
[SYCL/host pipes]
pipe_id=2|gAAAAAAAAAABAAAA
`,
		},
		{
			name: "misc properties of an ESIMD image",
			src: spir + `define spir_kernel void @k1() #0 { ret void }
define spir_kernel void @k2() #1 { ret void }
@__AsanKernelMetadata = global i32 0
attributes #0 = { "sycl-optlevel"="x" "sycl-grf-size"="256" }
attributes #1 = { "sycl-optlevel"="2" "sycl-grf-size"="128" }
`,
			entries: []string{"k1", "k2"},
			img:     Image{Esimd: ESIMDOnly, DefaultValueImage: true},
			want: head + `[SYCL/misc properties]
isEsimdImage=1|1
sycl-grf-size=1|256
optLevel=1|2
sanUsed=2|gAAAAAAAAAQYzFmb
specConstsReplacedWithDefault=1|1
`,
		},
		{
			name: "no optLevel for a merged SYCL and ESIMD image",
			src: spir + `define spir_kernel void @k() #0 { ret void }
attributes #0 = { "sycl-optlevel"="3" }
`,
			entries: []string{"k"},
			img:     Image{Esimd: SYCLAndESIMD},
			want:    head,
		},
		{
			// The callers of __devicelib_assert_fail, breadth first, each
			// function's callers in use-list order (the declaration comes
			// first, so last caller first).
			name: "assert used",
			src: spir + `declare spir_func void @__devicelib_assert_fail()
define spir_func void @f() { call spir_func void @__devicelib_assert_fail() ret void }
define spir_func void @g() { call spir_func void @f() ret void }
define spir_kernel void @k1() { call spir_func void @f() ret void }
define spir_kernel void @k2() { call spir_func void @__devicelib_assert_fail() ret void }
define spir_kernel void @k3() { call spir_func void @g() ret void }
define spir_kernel void @k4() { ret void }
`,
			want: "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|1\n[SYCL/device requirements]\naspects=2|AAAAAAAAAAA\n" +
				"[SYCL/assert used]\nk2=1|1\nk1=1|1\nk3=1|1\n",
		},
		{
			name: "assert used through a function referenced indirectly",
			src: spir + `declare spir_func void @__devicelib_assert_fail()
define spir_func void @f() #0 { call spir_func void @__devicelib_assert_fail() ret void }
define spir_kernel void @k1() { ret void }
define spir_kernel void @k2() { ret void }
attributes #0 = { "referenced-indirectly" }
`,
			want: "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|1\n[SYCL/device requirements]\naspects=2|AAAAAAAAAAA\n" +
				"[SYCL/assert used]\nk1=1|1\nk2=1|1\n",
		},
		{
			// Aspects a called function declares ([[sycl::device_has]])
			// are the image's too.
			name: "declared aspects",
			src: spir + `define spir_kernel void @k() { call spir_func void @f() ret void }
define spir_func void @f() !sycl_declared_aspects !0 { ret void }
!0 = !{i32 5, i32 6}
`,
			want: "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|0\n[SYCL/device requirements]\naspects=2|ABAAAAAAAAQBAAAAGAAAAA\n",
		},
		{
			name: "register allocation mode",
			src: spir + `define spir_kernel void @k() #0 { ret void }
attributes #0 = { "sycl-register-alloc-mode"="2" }
`,
			entries: []string{"k"},
			want:    head + "[SYCL/misc properties]\nsycl-register-alloc-mode=1|2\n",
		},
		{
			// The libraries are SPIR-V: a SPIR-V triple needs them too
			// (device-requirements/mask.ll).
			name: "device library mask of a SPIR-V triple",
			src: "target triple = \"spirv64-unknown-unknown\"\n" + `declare spir_func i32 @__devicelib_imf_umulhi(i32, i32)
define spir_kernel void @k() { %r = call i32 @__devicelib_imf_umulhi(i32 0, i32 0) ret void }
`,
			want: "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|64\n[SYCL/device requirements]\naspects=2|AAAAAAAAAAA\n",
		},
		{
			name: "implicit local arg",
			src: spir + `define spir_kernel void @k1(i32 %a, ptr addrspace(3) "sycl-implicit-local-arg" %l) #0 { ret void }
define spir_kernel void @k2(i32 %a) #0 { ret void }
define spir_kernel void @k3(i32 %a) { ret void }
attributes #0 = { "sycl-work-group-static" }
`,
			want: head + "[SYCL/implicit local arg]\nk1=1|1\nk2=1|4294967295\n",
		},
		{
			name: "exported and imported symbols",
			src: spir + `define spir_kernel void @k() #0 { call void @ext() call void @_Z5__intv() call void @llvm.donothing() call spir_func void @__devicelib_ConvertBF16ToFINTEL() ret void }
define spir_func void @sf() #0 { ret void }
define spir_func void @vf() #1 { ret void }
declare void @ext()
declare void @_Z5__intv()
declare void @llvm.donothing()
declare spir_func void @__devicelib_ConvertBF16ToFINTEL()
declare void @vdecl() #1
attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "indirectly-callable"="set" "sycl-module-id"="a.cpp" }
`,
			entries: []string{"k", "sf", "vf"},
			o:       Options{EmitExportedSymbols: true, EmitImportedSymbols: true, AllowDeps: true},
			want: "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|512\n[SYCL/device requirements]\naspects=2|AAAAAAAAAAA\n" +
				"[SYCL/exported symbols]\nsf=1|1\n[SYCL/imported symbols]\next=1|1\n__devicelib_ConvertBF16ToFINTEL=1|1\n" +
				"[SYCL/virtual functions]\nvirtual-functions-set=2|YAAAAAAAAAwclRH\n",
		},
		{
			name: "imported symbols need image dependencies, but bfloat16 device libraries",
			src: spir + `define spir_kernel void @k() { call void @ext() call spir_func void @__devicelib_ConvertBF16ToFINTEL() ret void }
declare void @ext()
declare spir_func void @__devicelib_ConvertBF16ToFINTEL()
`,
			o: Options{EmitImportedSymbols: true},
			want: "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|512\n[SYCL/device requirements]\naspects=2|AAAAAAAAAAA\n" +
				"[SYCL/imported symbols]\n__devicelib_ConvertBF16ToFINTEL=1|1\n",
		},
		{
			name: "virtual functions used, registered kernels, kernel names",
			src: spir + `define spir_kernel void @k1() #0 { ret void }
define spir_kernel void @k2() #1 { ret void }
define ptx_kernel void @k3() { ret void }
declare spir_kernel void @k4()
!sycl_registered_kernels = !{!0}
!0 = !{!1, !2, !3}
!1 = !{!"foo", !"k1"}
!2 = !{!"gone", !"k9"}
!3 = !{!"bar", !"k2"}
attributes #0 = { "calls-indirectly"="set-b,set-a" }
attributes #1 = { "calls-indirectly"="set-a" }
`,
			o: Options{EmitKernelNames: true},
			want: head + "[SYCL/virtual functions]\nuses-virtual-functions-set=2|YBAAAAAAAAwclRXLhxyclRXLiB\n" +
				"[SYCL/registered kernels]\nfoo=2|QAAAAAAAAAwaxA\nbar=2|QAAAAAAAAAwayA\n" +
				"[SYCL/kernel names]\nk1=1|1\nk2=1|1\nk3=1|1\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := computed(t, c.src, c.entries, c.img, c.o); got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// The images of a split see only what they keep, and functions they turn
// into declarations count as declarations.
func TestComputeKeptAndDeclared(t *testing.T) {
	src := spir + `define spir_kernel void @k() !sycl_used_aspects !0 { call spir_func void @__devicelib_cosf(float 0.0) ret void }
define spir_func float @__devicelib_cosf(float %x) { ret float %x }
define spir_kernel void @other() !sycl_used_aspects !1 { ret void }
!0 = !{i32 2}
!1 = !{i32 3}
`
	m, err := llvmir.Parse("in.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	other, cosf := m.Global("other"), m.Global("__devicelib_cosf")
	img := &Image{M: m,
		Kept:        func(e *llvmir.Entity) bool { return e != other },
		Declaration: func(e *llvmir.Entity) bool { return e == cosf || e.Func.Declaration }}
	r, err := Compute(img, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	r.Write(&b)
	want := "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|2\n[SYCL/device requirements]\naspects=2|" +
		Base64Encode(NewUint32Array("", []uint32{2}).Bytes) + "\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestComputeErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{spir + "define void @f() !sycl_used_aspects !0 { ret void }\n!0 = !{!\"x\"}\n", "in.ll:2:1: malformed !sycl_used_aspects of @f"},
		{spir + "define void @f() !reqd_work_group_size !0 { ret void }\n!0 = !{float 1.0}\n", "in.ll:2:1: malformed !reqd_work_group_size of @f"},
		{spir + "@g = global i32 0 #0\nattributes #0 = { \"sycl-device-global-size\"=\"4\" }\n", `in.ll:2:1: malformed attributes (no "sycl-unique-id") of @g`},
		{spir + "@g = global i32 0 #0\nattributes #0 = { \"sycl-unique-id\"=\"u\" \"sycl-device-global-size\"=\"big\" }\n", `in.ll:2:1: malformed "sycl-device-global-size" attribute of @g`},
	}
	for _, c := range cases {
		m, err := llvmir.Parse("in.ll", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Compute(&Image{M: m}, Options{DeviceGlobals: true})
		if err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func TestDeviceLibTable(t *testing.T) {
	cases := map[string]uint32{
		"__devicelib_assert_read":              libAssert,
		"__devicelib_abs":                      libMath,
		"__devicelib_tgammaf":                  libMath,
		"__devicelib_tgamma":                   libMathFP64,
		"__devicelib___mulsc3":                 libComplex,
		"__devicelib_ctanh":                    libComplexFP64,
		"__devicelib_memcmp":                   libCString,
		"__devicelib_imf_vsadu4":               libIMF,
		"__devicelib_imf_half2ushort_rn":       libIMF,
		"__devicelib_imf_copysignf16":          libIMF,
		"__devicelib_imf_double2ull_rd":        libIMFFP64,
		"__devicelib_imf_fma_ru":               libIMFFP64,
		"__devicelib_imf_ll2bfloat16_rz":       libIMFBF16,
		"__devicelib_imf_truncbf16":            libIMFBF16,
		"__devicelib_ConvertBF16ToFINTEL":      libBFloat16,
		"__devicelib_ConvertFToBF16INTELVec16": libBFloat16,
	}
	for name, bit := range cases {
		if got := deviceLibBit[name]; got != bit {
			t.Errorf("%s: bit %#x, want %#x", name, got, bit)
		}
	}
	// Per library, the number of functions of the reference's table
	// (SYCLDeviceLibReqMask.cpp, counted there).
	count := map[uint32]int{}
	for _, bit := range deviceLibBit {
		count[bit]++
	}
	want := map[uint32]int{libAssert: 2, libMath: 46, libMathFP64: 40, libComplex: 24, libComplexFP64: 24,
		libCString: 3, libIMF: 264, libIMFFP64: 75, libIMFBF16: 69, libBFloat16: 14}
	for bit, n := range want {
		if count[bit] != n {
			t.Errorf("library %#x: %d functions, want %d", bit, count[bit], n)
		}
	}
	if strings.Contains(strings.Join(expandNames("x_{a,b}{1,2}_r*"), " "), "{") {
		t.Error("expandNames left a brace")
	}
}

func TestCallSitesOrder(t *testing.T) {
	src := `define void @a() { call void @f() call void @f() ret void }
declare void @f()
define void @b() { call void @f() ret void }
define void @c() { call void @f() ret void }
`
	m, err := llvmir.Parse("in.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Global("f")
	name := func(s []CallSite) string {
		var out []string
		for _, c := range s {
			out = append(out, c.Caller.Name+strings.Repeat("'", c.Index))
		}
		return strings.Join(out, " ")
	}
	// Parsed: the calls after the declaration last-first, then those
	// before it in order. Cloned: all last-first.
	if got := name(CallSites(m.Entities, f, nil, false)); got != "c b a a'" {
		t.Errorf("parsed order %q", got)
	}
	if got := name(CallSites(m.Entities, f, nil, true)); got != "c b a' a" {
		t.Errorf("cloned order %q", got)
	}
	b := m.Global("b")
	if got := name(CallSites(m.Entities, f, func(e *llvmir.Entity) bool { return e != b }, true)); got != "c a' a" {
		t.Errorf("without @b %q", got)
	}
}

func TestCanBeImported(t *testing.T) {
	src := `define void @ext_def() #0 { ret void }
define void @plain_def() { ret void }
declare void @ext()
declare void @_Z5__intv()
declare void @_ZN3foo3barEv()
declare void @__x()
declare void @llvm.trap()
declare void @_Z20__spirv_SpecConstantii()
declare void @_Z14__esimd_thingv()
attributes #0 = { "sycl-module-id"="a.cpp" }
`
	m, err := llvmir.Parse("in.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"ext_def": true, "plain_def": false, "ext": true, "_Z5__intv": false, "_ZN3foo3barEv": true,
		"__x": false, "llvm.trap": false, "_Z20__spirv_SpecConstantii": false, "_Z14__esimd_thingv": false}
	for name, w := range want {
		e := m.Global(name)
		if got := CanBeImported(m, e, e.Func.Declaration, true); got != w {
			t.Errorf("CanBeImported(%s) = %v, want %v", name, got, w)
		}
		if CanBeImported(m, e, e.Func.Declaration, false) {
			t.Errorf("CanBeImported(%s) without image dependencies", name)
		}
	}
}

// TestComputeGRFConflict: an image whose entry points ask for both a
// register allocation mode and a GRF size is an error naming both.
func TestComputeGRFConflict(t *testing.T) {
	src := spir + `define spir_kernel void @k() #0 { ret void }
attributes #0 = { "sycl-grf-size"="256" "sycl-register-alloc-mode"="0" }
`
	m, err := llvmir.Parse("in.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compute(&Image{M: m, EntryPoints: []*llvmir.Entity{m.Global("k")}}, Options{})
	want := `in.ll:2:1: Unsupported use of both register_alloc_mode and grf_size in one device image (@k has "sycl-register-alloc-mode", @k "sycl-grf-size")`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
