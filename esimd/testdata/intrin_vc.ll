; An ESIMD kernel calling builtins whose lowering has constructs only the
; vector-compute rules allow (vectors of 1 or more than 16 elements, bitcasts of
; i1 vectors): 2D block access, matrix (DPAS), mask packing. Opaque pointers.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @intrin_xmx(ptr addrspace(1) %p, ptr addrspace(1) %pc, ptr addrspace(1) %pb, ptr addrspace(1) %pa) #0 !sycl_explicit_simd !0 !intel_reqd_sub_group_size !1 {
entry:
  %a16.b = ptrtoint ptr addrspace(1) %p to i64
  %a16.i = insertelement <16 x i64> undef, i64 %a16.b, i32 0
  %a16.s = shufflevector <16 x i64> %a16.i, <16 x i64> undef, <16 x i32> zeroinitializer
  %a16 = add <16 x i64> %a16.s, <i64 0, i64 4, i64 8, i64 12, i64 16, i64 20, i64 24, i64 28, i64 32, i64 36, i64 40, i64 44, i64 48, i64 52, i64 56, i64 60>
  %l2d = call spir_func <32 x i32> @_Z28__esimd_lsc_load2d_statelessIiLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi2ELi4ELi4ELb0ELi1EEDv32_iDv1_tmiiiii(<1 x i16> <i16 1>, i64 %a16.b, i32 63, i32 3, i32 63, i32 0, i32 0)
  call spir_func void @_Z32__esimd_lsc_prefetch2d_statelessIiLN4sycl3_V13ext5intel5esimd10cache_hintE2ELN4sycl3_V13ext5intel5esimd10cache_hintE2ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi2ELi4ELi4ELb0ELi1EEvDv1_tmiiiii(<1 x i16> <i16 1>, i64 %a16.b, i32 63, i32 3, i32 63, i32 0, i32 0)
  %l2d.lo = shufflevector <32 x i32> %l2d, <32 x i32> undef, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>
  call spir_func void @_Z29__esimd_lsc_store2d_statelessIiLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi1ELi4ELi4ELb0ELi1EEvDv1_tmiiiiiDv16_i(<1 x i16> <i16 1>, i64 %a16.b, i32 63, i32 3, i32 63, i32 0, i32 0, <16 x i32> %l2d.lo)
  %l2d.m = trunc <16 x i32> %l2d.lo to <16 x i16>
  %mask = call spir_func i32 @_Z17__esimd_pack_maskILi16EEjDv16_t(<16 x i16> %l2d.m)
  %um = call spir_func <16 x i16> @_Z19__esimd_unpack_maskILi16EEDv16_tj(i32 %mask)
  call spir_func void @_Z27__esimd_lsc_store_statelessIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEvDv16_tDv16_yDv16_j(<16 x i16> %um, <16 x i64> %a16, <16 x i32> %l2d.lo)
  %c = load <128 x float>, ptr addrspace(1) %pc, align 512
  %b = load <128 x i32>, ptr addrspace(1) %pb, align 512
  %a = load <64 x i32>, ptr addrspace(1) %pa, align 256
  %d = call spir_func <128 x float> @_Z13__esimd_dpas2ILN4sycl3_V13ext5intel5esimd18dpas_argument_typeE9ELN4sycl3_V13ext5intel5esimd18dpas_argument_typeE9ELi8ELi8EffiiLi128ELi128ELi64ELi1ELi1EEDv128_fDv128_fDv128_iDv64_i(<128 x float> %c, <128 x i32> %b, <64 x i32> %a)
  store <128 x float> %d, ptr addrspace(1) %pc, align 512
  ret void
}

declare spir_func <128 x float> @_Z13__esimd_dpas2ILN4sycl3_V13ext5intel5esimd18dpas_argument_typeE9ELN4sycl3_V13ext5intel5esimd18dpas_argument_typeE9ELi8ELi8EffiiLi128ELi128ELi64ELi1ELi1EEDv128_fDv128_fDv128_iDv64_i(<128 x float>, <128 x i32>, <64 x i32>)
declare spir_func <16 x i16> @_Z19__esimd_unpack_maskILi16EEDv16_tj(i32)
declare spir_func <32 x i32> @_Z28__esimd_lsc_load2d_statelessIiLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi2ELi4ELi4ELb0ELi1EEDv32_iDv1_tmiiiii(<1 x i16>, i64, i32, i32, i32, i32, i32)
declare spir_func i32 @_Z17__esimd_pack_maskILi16EEjDv16_t(<16 x i16>)
declare spir_func void @_Z27__esimd_lsc_store_statelessIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEvDv16_tDv16_yDv16_j(<16 x i16>, <16 x i64>, <16 x i32>)
declare spir_func void @_Z29__esimd_lsc_store2d_statelessIiLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi1ELi4ELi4ELb0ELi1EEvDv1_tmiiiiiDv16_i(<1 x i16>, i64, i32, i32, i32, i32, i32, <16 x i32>)
declare spir_func void @_Z32__esimd_lsc_prefetch2d_statelessIiLN4sycl3_V13ext5intel5esimd10cache_hintE2ELN4sycl3_V13ext5intel5esimd10cache_hintE2ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi2ELi4ELi4ELb0ELi1EEvDv1_tmiiiii(<1 x i16>, i64, i32, i32, i32, i32, i32)

attributes #0 = { convergent mustprogress norecurse nounwind "sycl-module-id"="intrin_vc.cpp" }

!0 = !{}
!1 = !{i32 1}
