package postlink

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// intrinCase is one ESIMD module of esimd/testdata and what its lowering
// is checked against.
type intrinCase struct {
	file string
	// opaque: the module's pointers are opaque, so LLVM 19 must read the
	// lowered module too.
	opaque bool
	// spirvVal is "" when spirv-val must accept the SPIR-V; otherwise the
	// one complaint it may have: of what only the vector-compute extension
	// allows (vectors of 1 or more than 16 elements, bitcasts of i1
	// vectors), which spirv-val has no rules for (the DPC++ driver does not
	// validate ESIMD SPIR-V), or of a capability newer than spirv-val
	// (6115, Bfloat16ConversionINTEL).
	spirvVal string
	// noSPIRV says llvm-spirv-15 cannot translate the module (why); then
	// only LLVM checks it.
	noSPIRV string
	// want are the calls the lowering must write, in the reference's
	// lit-test spelling ("…" stands for anything on the line).
	want []string
}

var intrinCases = []intrinCase{
	{file: "intrin_typed.ll", want: append([]string{
		"%f1 = load <16 x float>, <16 x float> addrspace(1)* %pf, align 64",
		"store <16 x i32> %v, <16 x i32> addrspace(3)* inttoptr (i32 0 to <16 x i32> addrspace(3)*), align 64",
		"= inttoptr i32 %off to <16 x i32> addrspace(3)*",
		"store <16 x i32> %ls.esimd, <16 x i32> addrspace(4)* %tmp.g, align 64",
		"%vl2 = load <16 x i32>, <16 x i32> addrspace(4)* %tmp.g, align 64",
		"store { <16 x i32>, <16 x i32> } %.esimd, { <16 x i32>, <16 x i32> }* %pair, align 64",
	}, intrinCommon...)},
	{file: "intrin_opaque.ll", opaque: true, want: append([]string{
		"%f1 = load <16 x float>, ptr addrspace(1) %pf, align 64",
		"store <16 x i32> %v, ptr addrspace(3) inttoptr (i32 0 to ptr addrspace(3)), align 64",
		"= inttoptr i32 %off to ptr addrspace(3)",
		"store { <16 x i32>, <16 x i32> } %.esimd, ptr %pair, align 64",
	}, intrinCommon...)},
	{file: "intrin_vc.ll", opaque: true, spirvVal: "Illegal number of components (32) for TypeVector", want: []string{
		"call <32 x i32> @llvm.genx.lsc.load2d.stateless.v32i32.v1i1.i64(<1 x i1> <i1 true>, i8 0, i8 0, i8 3, i8 1, i8 2, i16 4, i16 4, i8 0, i64 %a16.b, i32 63, i32 3, i32 63, i32 0, i32 0)",
		"call void @llvm.genx.lsc.prefetch2d.stateless.v1i1.i64(<1 x i1> <i1 true>, i8 2, i8 2, i8 3, i8 1, i8 2, i16 4, i16 4, i8 0, i64 %a16.b, …)",
		"call void @llvm.genx.lsc.store2d.stateless.v1i1.i64.v16i32(<1 x i1> <i1 true>, i8 0, i8 0, i8 3, i8 1, i8 1, i16 4, i16 4, i8 0, i64 %a16.b, i32 63, i32 3, i32 63, i32 0, i32 0, <16 x i32> %l2d.lo)",
		"= icmp ne <16 x i16> %l2d.m, zeroinitializer",
		"= bitcast <16 x i1> %0 to i16",
		"%mask1 = zext i16 %1 to i32", // named while the call it replaces still is, as LLVM does
		"= trunc i32 %mask1 to i16",
		"%um = zext <16 x i1> %3 to <16 x i16>",
		"call <128 x float> @llvm.genx.dpas2.v128f32.v128f32.v128i32.v64i32(<128 x float> %c, <128 x i32> %b, <64 x i32> %a, i32 9, i32 9, i32 8, i32 8, i32 1, i32 1)",
	}},
	{file: "intrin_devicelib.ll", spirvVal: "Invalid capability operand: 6115", want: []string{
		"%0 = load float, float addrspace(4)* %fg, align 4",
		"%call.esimd = call i16 @__spirv_ConvertFToBF16INTEL(float %0)",
		"store i16 %call.esimd, i16* %h, align 2",
		"%1 = load i16, i16 addrspace(4)* %hg, align 2",
		"%back.esimd = call float @__spirv_ConvertBF16ToFINTEL(i16 %1)",
		"declare dso_local spir_func i16 @__spirv_ConvertFToBF16INTEL(float) convergent nounwind",
	}},
	{file: "intrin_gather.ll", noSPIRV: "llvm-spirv-15 does not translate llvm.masked.gather", want: []string{
		"%0 = icmp ne <16 x i16> %m, zeroinitializer",
		"%1 = inttoptr <16 x i64> %a16 to <16 x i32 addrspace(4)*>",
		"%2 = call <16 x i32> @llvm.masked.gather.v16i32.v16p4i32(<16 x i32 addrspace(4)*> %1, i32 4, <16 x i1> %0, <16 x i32> zeroinitializer)",
		"call <16 x i32> @llvm.masked.gather.v16i32.v16p3i32(<16 x i32 addrspace(3)*> inttoptr (<16 x i32> <i32 0, … to <16 x i32 addrspace(3)*>), i32 4, <16 x i1> <i1 true, …>, <16 x i32> %2)",
	}},
}

// intrinCommon are the GenX calls both the typed and the opaque module
// lower to (their pointers do not show in these).
var intrinCommon = []string{
	"%r.esimd = call <8 x float> @llvm.genx.rdregionf.v8f32.v16f32.i16(<16 x float> %f1, i32 0, i32 8, i32 1, i16 0, i32 0)",
	"call <8 x float> @llvm.genx.inv.v8f32(<8 x float> %r.esimd)",
	"call <8 x float> @llvm.genx.ieee.sqrt.v8f32(",
	"call <8 x float> @llvm.genx.absf.v8f32(",
	"call <8 x float> @llvm.genx.ieee.div.v8f32(",
	"call <8 x float> @llvm.genx.fmax.v8f32.v8f32(",
	"call <16 x float> @llvm.genx.wrregionf.v16f32.v8f32.i16.v8i1(<16 x float> %f1, <8 x float> %fmin.esimd, i32 0, i32 8, i32 1, i16 0, i32 0, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)",
	"call <16 x i32> @llvm.genx.smax.v16i32.v16i32(",
	"call <16 x i32> @llvm.genx.uushl.sat.v16i32.v16i32(",
	"call <16 x i32> @llvm.genx.absi.v16i32(",
	"call <16 x i32> @llvm.genx.cbit.v16i32.v16i32(",
	"call <16 x i32> @llvm.genx.uudp4a.v16i32.v16i32.v16i32.v16i32(",
	"call <16 x i32> @llvm.genx.ssdp4a.sat.v16i32.v16i32.v16i32.v16i32(",
	"call <16 x i32> @llvm.genx.bfn.v16i32.v16i32(<16 x i32> %dp4as.esimd, <16 x i32> %i2, <16 x i32> %i2, i8 -1)",
	"call <16 x i32> @llvm.genx.fptoui.sat.v16i32.v16f32(<16 x float> %w.esimd)",
	"call <16 x i16> @llvm.genx.uutrunc.sat.v16i16.v16i32(",
	"%any.esimd = call i1 @llvm.genx.any.v16i1(<16 x i1> %",
	"%any.esimd.cast.ty = zext i1 %any.esimd to i16",
	"call void @llvm.genx.fence(i8 1)",
	"%g.esimd = call <16 x i32> @llvm.genx.svm.gather.v16i32.v16i1.v16i64(<16 x i1> <i1 true, …>, i32 0, <16 x i64> %a16, <16 x i32> undef)",
	"call void @llvm.genx.svm.scatter.v16i1.v16i64.v16i32(<16 x i1> <i1 true, …>, i32 0, <16 x i64> %a16, <16 x i32> %g.esimd)",
	"call <8 x i32> @llvm.genx.svm.atomic.inc.v8i32.v8i1.v8i64(<8 x i1> <i1 true, …>, <8 x i64> %a8, <8 x i32> undef)",
	"call <8 x i32> @llvm.genx.svm.atomic.add.v8i32.v8i1.v8i64(<8 x i1> <i1 true, …>, <8 x i64> %a8, <8 x i32> %g8, <8 x i32> undef)",
	"call <8 x i32> @llvm.genx.svm.atomic.cmpxchg.v8i32.v8i1.v8i64(<8 x i1> <i1 true, …>, <8 x i64> %a8, <8 x i32> %at0.esimd, <8 x i32> %at1.esimd, <8 x i32> undef)",
	"call <16 x i32> @llvm.genx.lsc.load.stateless.v16i32.v16i1.v16i64(<16 x i1> <i1 true, …>, i8 0, i8 0, i8 0, i16 1, i32 0, i8 3, i8 1, i8 1, i8 0, <16 x i64> %a16, i32 0)",
	"call void @llvm.genx.lsc.prefetch.stateless.v16i1.v16i64(<16 x i1> <i1 true, …>, i8 0, i8 2, i8 2, i16 1, i32 0, i8 3, i8 1, i8 1, i8 0, <16 x i64> %a16, i32 0)",
	"call void @llvm.genx.lsc.store.stateless.v16i1.v16i64.v16i32(<16 x i1> <i1 true, …>, i8 4, i8 0, i8 0, i16 1, i32 0, i8 3, i8 1, i8 1, i8 0, <16 x i64> %a16, <16 x i32> %ld.esimd, i32 0)",
	"call <16 x i32> @llvm.genx.lsc.xatomic.stateless.v16i32.v16i1.v16i64(<16 x i1> <i1 true, …>, i8 8, i8 0, i8 0, i16 1, i32 0, i8 3, i8 1, i8 1, i8 0, <16 x i64> %a16, <16 x i32> undef, <16 x i32> undef, i32 0, <16 x i32> undef)",
	"call <16 x i32> @llvm.genx.lsc.xatomic.stateless.v16i32.v16i1.v16i64(<16 x i1> <i1 true, …>, i8 18, i8 0, i8 0, i16 1, i32 0, i8 3, i8 1, i8 1, i8 0, <16 x i64> %a16, <16 x i32> %xa0.esimd, <16 x i32> %xa1.esimd, i32 0, <16 x i32> undef)",
	"call void @llvm.genx.lsc.fence.v16i1(<16 x i1> <i1 true, …>, i8 0, i8 0, i8 0)",
	"call void @llvm.genx.nbarrier(i8 0, i8 1, i8 0)",
	"call void @llvm.genx.lsc.store.slm.v16i1.v16i32.v16i32(<16 x i1> <i1 true, …>, i8 4, i8 0, i8 0, i16 1, i32 0, i8 3, i8 1, i8 1, i8 0, <16 x i32> <i32 0, …>, <16 x i32> %s1, i32 0)",
	"%ls.esimd = call <16 x i32> @llvm.genx.lsc.load.slm.v16i32.v16i1.v16i32(",
	"%.esimd = call { <16 x i32>, <16 x i32> } @llvm.genx.addc.v16i32.v16i32(<16 x i32> %vl2, <16 x i32> %v)",
	`"VCNamedBarrierCount"="2" "VCSLMSize"="1024"`,
}

// TestLowerESIMDIntrinsicsOracle lowers the ESIMD modules of esimd/testdata
// as sycl-post-link -split-esimd -lower-esimd does and checks each lowered
// module with the tools that consume it: LLVM 15 (and 19 for opaque
// pointers) reads and verifies it, it has the GenX calls the reference's
// lit tests show for such builtins and no builtin left, llvm-spirv-15
// translates it with the vector-compute extension as the DPC++ driver
// runs it, spirv-val accepts that, and ocloc's vector backend compiles it
// for pvc.
func TestLowerESIMDIntrinsicsOracle(t *testing.T) {
	for _, tool := range []string{"llvm-as-15", "opt-15", "llvm-as-19", "opt-19", "llvm-spirv-15", "spirv-val"} {
		testenv.Tool(t, tool)
	}
	ocloc := testenv.Want(t, "the ESIMD modules compiled by ocloc's vector backend for pvc", "ocloc")
	for _, tc := range intrinCases {
		t.Run(strings.TrimSuffix(tc.file, ".ll"), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "esimd", "testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if out, err := runTool(t, dir, string(src), "-split=auto", "-split-esimd", "-lower-esimd", "-S", "-o", "o.table"); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			ir := readFile(t, "o_0.esimd.ll")
			checkIntrinCalls(t, ir, tc.want)
			checkIntrinTools(t, dir, tc, ocloc)
		})
	}
}

// checkIntrinCalls checks that ir names no builtin and has the wanted
// lines ("…" matching anything on the line).
func checkIntrinCalls(t *testing.T, ir string, want []string) {
	t.Helper()
	if strings.Contains(ir, "__esimd_") {
		t.Errorf("the lowered module still names a builtin:\n%s", ir)
	}
	for _, w := range want {
		parts := strings.Split(w, "…")
		for i, p := range parts {
			parts[i] = regexp.QuoteMeta(p)
		}
		if !regexp.MustCompile(strings.Join(parts, "[^\n]*")).MatchString(ir) {
			t.Errorf("the lowered module lacks %q:\n%s", w, ir)
		}
	}
}

// checkIntrinTools runs the lowered module o_0.esimd.ll of dir through
// LLVM, the SPIR-V translator, spirv-val and ocloc.
func checkIntrinTools(t *testing.T, dir string, tc intrinCase, ocloc bool) {
	t.Helper()
	run := func(name string, args ...string) (string, error) {
		out, err := exec.Command(name, args...).CombinedOutput()
		return string(out), err
	}
	must := func(name string, args ...string) {
		t.Helper()
		if out, err := run(name, args...); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	bc, spv := filepath.Join(dir, "e.bc"), filepath.Join(dir, "e.spv")
	must("llvm-as-15", "o_0.esimd.ll", "-o", bc)
	must("opt-15", "-passes=verify", bc, "-o", os.DevNull)
	if tc.opaque {
		must("llvm-as-19", "o_0.esimd.ll", "-o", filepath.Join(dir, "e19.bc"))
		must("opt-19", "-passes=verify", "-disable-output", "o_0.esimd.ll")
	}
	if tc.noSPIRV != "" {
		t.Logf("not translated to SPIR-V: %s", tc.noSPIRV)
		return
	}
	must("llvm-spirv-15", "--spirv-ext=+all", "-spirv-allow-unknown-intrinsics=llvm.genx.", bc, "-o", spv)
	out, err := run("spirv-val", spv)
	switch {
	case tc.spirvVal == "" && err != nil:
		t.Errorf("spirv-val: %v\n%s", err, out)
	case err != nil && !strings.Contains(out, tc.spirvVal):
		t.Errorf("spirv-val: %v, and not only with %q\n%s", err, tc.spirvVal, out)
	}
	if !ocloc {
		return
	}
	must("ocloc", "compile", "-q", "-spirv_input", "-file", spv, "-device", "pvc", "-options", "-vc-codegen", "-out_dir", dir, "-output", "e")
	bins, _ := filepath.Glob(filepath.Join(dir, "e*.bin"))
	if len(bins) != 1 {
		t.Fatalf("ocloc wrote %v", bins)
	}
	if fi, err := os.Stat(bins[0]); err != nil || fi.Size() == 0 {
		t.Fatalf("ocloc's binary: %v", err)
	}
}
