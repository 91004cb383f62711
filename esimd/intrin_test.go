package esimd

import (
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

// lowerText lowers every function of module src as ESIMD code and returns
// the module written.
func lowerText(t *testing.T, src string) (string, error) {
	t.Helper()
	m, err := llvmir.Parse("in.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	plan := m.NewPlan()
	if _, err := Lower(&Module{M: m, Plan: plan, Funcs: m.Functions(),
		Defines: func(e *llvmir.Entity) bool { return !e.Func.Declaration },
		IsESIMD: func(*llvmir.Entity) bool { return true }}); err != nil {
		return "", err
	}
	var b strings.Builder
	if err := plan.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String(), nil
}

// intrinSrc calls table builtins with the argument rules of each kind:
// surface indices (media_ld, oword_ld, lsc_load_bti), atomic operation
// suffixes (dword_atomic1 fmin, svm_atomic1 smin → imin), a constant
// predicate folded to i1 (raw_send_nbarrier_signal), constants (i16 0 and
// i64 0 of svm_gather4_scaled), template arguments of every width
// (test_src_tmpl_arg), the numeric-kind suffix (abs → absi), results of
// no argument (timestamp, lane_id), a template argument after the
// arguments (dpas_nosrc0), and the special cases pack_mask of 32
// elements (no zext) and slm_block_ld without alignment (the ABI's).
const intrinSrc = `target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_func void @f(i32 %si, <8 x i16> %mask, <8 x i64> %addrs, <4 x i16> %off4, <128 x i32> %b, <64 x i32> %a, <16 x float> %f16, <32 x i16> %m32, <8 x i32> addrspace(1)* %p) {
entry:
  %m = call spir_func <8 x float> @_Z16__esimd_media_ldIfLi2ELi4ELi0EjLi0ELi4EEDv8_fjjj(i32 %si, i32 0, i32 0)
  %o = call spir_func <8 x float> @_Z16__esimd_oword_ldIfLi8EjLi1EEDv8_fjj(i32 %si, i32 16)
  %da = call spir_func <8 x float> @_Z21__esimd_dword_atomic1ILN4sycl3_V13ext5intel5esimd9atomic_opE17EfLi8EEDv8_fDv8_tjDv8_jDv8_f(<8 x i16> %mask, i32 %si, <8 x i32> zeroinitializer, <8 x float> %o)
  %sa = call spir_func <8 x i32> @_Z19__esimd_svm_atomic1ILN4sycl3_V13ext5intel5esimd9atomic_opE11EiLi8EEDv8_iDv8_yDv8_iDv8_t(<8 x i64> %addrs, <8 x i32> zeroinitializer, <8 x i16> %mask)
  call spir_func void @_Z32__esimd_raw_send_nbarrier_signalIjLi8EEvjjjDv8_jt(i32 0, i32 0, i32 33554436, <8 x i32> zeroinitializer, i16 1)
  %g4 = call spir_func <16 x i32> @_Z26__esimd_svm_gather4_scaledIjLi8ELN4sycl3_V13ext5intel5esimd17rgba_channel_maskE3EEDv16_jDv8_yDv8_t(<8 x i64> %addrs, <8 x i16> %mask)
  call spir_func void @_Z25__esimd_test_src_tmpl_argILi3ELi5ELi7ELi11ELi13EEvv()
  %ab = call spir_func <8 x i32> @_Z11__esimd_absIiLi8EEDv8_iDv8_i(<8 x i32> %sa)
  %ri = call spir_func <4 x i32> @_Z18__esimd_rdindirectIiLi8ELi4ELi0EEDv4_iDv8_iDv4_t(<8 x i32> %ab, <4 x i16> %off4)
  %ts = call spir_func <4 x i32> @_Z17__esimd_timestampv()
  %li = call spir_func i32 @_Z15__esimd_lane_idv()
  %nd = call spir_func <128 x float> @_Z19__esimd_dpas_nosrc0ILi17303817EfiiLi128ELi128ELi64EEDv128_fDv128_iDv64_i(<128 x i32> %b, <64 x i32> %a)
  %bf = call spir_func <16 x half> @_Z14__esimd_bf_cvtIDF16_fLi16EEDv16_DF16_Dv16_f(<16 x float> %f16)
  %lb = call spir_func <8 x i32> @_Z20__esimd_lsc_load_btiIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi8EEDv8_jDv8_tDv8_jj(<8 x i16> %mask, <8 x i32> zeroinitializer, i32 %si)
  %xs = call spir_func <8 x i32> @_Z25__esimd_lsc_xatomic_slm_0IjLN4sycl3_V13ext5intel5esimd13lsc_atomic_opE8ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi8EEDv8_jDv8_tDv8_j(<8 x i16> %mask, <8 x i32> zeroinitializer)
  %pm = call spir_func i32 @_Z17__esimd_pack_maskILi32EEjDv32_t(<32 x i16> %m32)
  %sl = call spir_func <8 x i32> @_Z20__esimd_slm_block_ldIjLi8ELm0EEDv8_jj(i32 %si)
  ret void
}

declare spir_func <128 x float> @_Z19__esimd_dpas_nosrc0ILi17303817EfiiLi128ELi128ELi64EEDv128_fDv128_iDv64_i(<128 x i32>, <64 x i32>)
declare spir_func <16 x half> @_Z14__esimd_bf_cvtIDF16_fLi16EEDv16_DF16_Dv16_f(<16 x float>)
declare spir_func <16 x i32> @_Z26__esimd_svm_gather4_scaledIjLi8ELN4sycl3_V13ext5intel5esimd17rgba_channel_maskE3EEDv16_jDv8_yDv8_t(<8 x i64>, <8 x i16>)
declare spir_func <4 x i32> @_Z17__esimd_timestampv()
declare spir_func <4 x i32> @_Z18__esimd_rdindirectIiLi8ELi4ELi0EEDv4_iDv8_iDv4_t(<8 x i32>, <4 x i16>)
declare spir_func <8 x float> @_Z16__esimd_media_ldIfLi2ELi4ELi0EjLi0ELi4EEDv8_fjjj(i32, i32, i32)
declare spir_func <8 x float> @_Z16__esimd_oword_ldIfLi8EjLi1EEDv8_fjj(i32, i32)
declare spir_func <8 x float> @_Z21__esimd_dword_atomic1ILN4sycl3_V13ext5intel5esimd9atomic_opE17EfLi8EEDv8_fDv8_tjDv8_jDv8_f(<8 x i16>, i32, <8 x i32>, <8 x float>)
declare spir_func <8 x i32> @_Z11__esimd_absIiLi8EEDv8_iDv8_i(<8 x i32>)
declare spir_func <8 x i32> @_Z19__esimd_svm_atomic1ILN4sycl3_V13ext5intel5esimd9atomic_opE11EiLi8EEDv8_iDv8_yDv8_iDv8_t(<8 x i64>, <8 x i32>, <8 x i16>)
declare spir_func <8 x i32> @_Z20__esimd_lsc_load_btiIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi8EEDv8_jDv8_tDv8_jj(<8 x i16>, <8 x i32>, i32)
declare spir_func <8 x i32> @_Z20__esimd_slm_block_ldIjLi8ELm0EEDv8_jj(i32)
declare spir_func <8 x i32> @_Z25__esimd_lsc_xatomic_slm_0IjLN4sycl3_V13ext5intel5esimd13lsc_atomic_opE8ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi8EEDv8_jDv8_tDv8_j(<8 x i16>, <8 x i32>)
declare spir_func i32 @_Z15__esimd_lane_idv()
declare spir_func i32 @_Z17__esimd_pack_maskILi32EEjDv32_t(<32 x i16>)
declare spir_func void @_Z25__esimd_test_src_tmpl_argILi3ELi5ELi7ELi11ELi13EEvv()
declare spir_func void @_Z32__esimd_raw_send_nbarrier_signalIjLi8EEvjjjDv8_jt(i32, i32, i32, <8 x i32>, i16)
`

const intrinWant = `  %m.esimd = call <8 x float> @llvm.genx.media.ld.v8f32(i32 0, i32 %si, i32 0, i32 4, i32 0, i32 0)
  %o.esimd = call <8 x float> @llvm.genx.oword.ld.v8f32(i32 1, i32 %si, i32 16)
  %0 = icmp ne <8 x i16> %mask, zeroinitializer
  %da.esimd = call <8 x float> @llvm.genx.dword.atomic.fmin.v8f32.v8i1.v8i32(<8 x i1> %0, i32 %si, <8 x i32> zeroinitializer, <8 x float> %o.esimd, <8 x float> undef)
  %1 = icmp ne <8 x i16> %mask, zeroinitializer
  %sa.esimd = call <8 x i32> @llvm.genx.svm.atomic.imin.v8i32.v8i1.v8i64(<8 x i1> %1, <8 x i64> %addrs, <8 x i32> zeroinitializer, <8 x i32> undef)
  call void @llvm.genx.raw.send.noresult.i1.v8i32(i32 0, i1 true, i32 0, i32 33554436, <8 x i32> zeroinitializer)
  %2 = icmp ne <8 x i16> %mask, zeroinitializer
  %g4.esimd = call <16 x i32> @llvm.genx.svm.gather4.scaled.v16i32.v8i1.v8i64(<8 x i1> %2, i32 3, i16 0, i64 0, <8 x i64> %addrs, <16 x i32> undef)
  call void @llvm.genx.test.src.tmpl.arg(i32 3, i1 true, i8 7, i16 11, i32 13, i8 17)
  %ab.esimd = call <8 x i32> @llvm.genx.absi.v8i32(<8 x i32> %sa.esimd)
  %ri.esimd = call <4 x i32> @llvm.genx.rdregioni.v4i32.v8i32.v4i16(<8 x i32> %ab.esimd, i32 0, i32 1, i32 0, <4 x i16> %off4, i32 0)
  %ts.esimd = call <4 x i32> @llvm.genx.timestamp.v4i32()
  %li.esimd = call i32 @llvm.genx.lane.id()
  %nd.esimd = call <128 x float> @llvm.genx.dpas.nosrc0.v128f32.v128i32.v64i32(<128 x i32> %b, <64 x i32> %a, i32 17303817)
  %bf.esimd = call <16 x half> @llvm.genx.bf.cvt.v16f16.v16f32(<16 x float> %f16)
  %3 = icmp ne <8 x i16> %mask, zeroinitializer
  %lb.esimd = call <8 x i32> @llvm.genx.lsc.load.bti.v8i32.v8i1.v8i32(<8 x i1> %3, i8 0, i8 0, i8 0, i16 1, i32 0, i8 3, i8 1, i8 1, i8 0, <8 x i32> zeroinitializer, i32 %si)
  %4 = icmp ne <8 x i16> %mask, zeroinitializer
  %xs.esimd = call <8 x i32> @llvm.genx.lsc.xatomic.slm.v8i32.v8i1.v8i32(<8 x i1> %4, i8 8, i8 0, i8 0, i16 1, i32 0, i8 3, i8 1, i8 1, i8 0, <8 x i32> zeroinitializer, <8 x i32> undef, <8 x i32> undef, i32 0, <8 x i32> undef)
  %5 = icmp ne <32 x i16> %m32, zeroinitializer
  %pm1 = bitcast <32 x i1> %5 to i32
  %6 = inttoptr i32 %si to <8 x i32> addrspace(3)*
  %sl2 = load <8 x i32>, <8 x i32> addrspace(3)* %6, align 32
`

// TestLowerTableRules: each argument rule, suffix rule and special case
// makes the call the reference makes.
func TestLowerTableRules(t *testing.T) {
	out, err := lowerText(t, intrinSrc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "entry:\n"+intrinWant+"  ret void") {
		t.Errorf("lowered body, want\n%s\nin\n%s", intrinWant, out)
	}
	for _, d := range []string{
		`declare void @llvm.genx.raw.send.noresult.i1.v8i32(i32, i1, i32, i32, <8 x i32>) "VCFunction"`,
		`declare <8 x float> @llvm.genx.dword.atomic.fmin.v8f32.v8i1.v8i32(<8 x i1>, i32, <8 x i32>, <8 x float>, <8 x float>) "VCFunction"`,
	} {
		if !strings.Contains(out, d) {
			t.Errorf("missing %s in\n%s", d, out)
		}
	}
	if strings.Contains(out, "__esimd_") {
		t.Errorf("a builtin is left:\n%s", out)
	}
}
