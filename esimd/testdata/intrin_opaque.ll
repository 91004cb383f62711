; ESIMD kernels calling __esimd_* builtins, IR with opaque pointers.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @intrin_math(ptr addrspace(1) %pf, ptr addrspace(1) %pi) #0 !sycl_explicit_simd !0 !intel_reqd_sub_group_size !1 {
entry:
  %f = call spir_func <16 x float> @_Z20__esimd_svm_block_ldIfLi16ELm64EEDv16_fPKDv16_f(ptr addrspace(1) %pf)
  %r = call spir_func <8 x float> @_Z16__esimd_rdregionIfLi16ELi8ELi0ELi8ELi1ELi0EEDv8_fDv16_ft(<16 x float> %f, i16 zeroext 0)
  %inv = call spir_func <8 x float> @_Z11__esimd_invIfLi8EEDv8_fDv8_f(<8 x float> %r)
  %sqrt = call spir_func <8 x float> @_Z12__esimd_sqrtIfLi8EEDv8_fDv8_f(<8 x float> %inv)
  %sin = call spir_func <8 x float> @_Z11__esimd_sinIfLi8EEDv8_fDv8_f(<8 x float> %sqrt)
  %cos = call spir_func <8 x float> @_Z11__esimd_cosIfLi8EEDv8_fDv8_f(<8 x float> %sin)
  %exp = call spir_func <8 x float> @_Z11__esimd_expIfLi8EEDv8_fDv8_f(<8 x float> %cos)
  %log = call spir_func <8 x float> @_Z11__esimd_logIfLi8EEDv8_fDv8_f(<8 x float> %exp)
  %rsqrt = call spir_func <8 x float> @_Z13__esimd_rsqrtIfLi8EEDv8_fDv8_f(<8 x float> %log)
  %ieee_sqrt = call spir_func <8 x float> @_Z17__esimd_ieee_sqrtIfLi8EEDv8_fDv8_f(<8 x float> %rsqrt)
  %rndd = call spir_func <8 x float> @_Z12__esimd_rnddIfLi8EEDv8_fDv8_f(<8 x float> %ieee_sqrt)
  %rnde = call spir_func <8 x float> @_Z12__esimd_rndeIfLi8EEDv8_fDv8_f(<8 x float> %rndd)
  %rndu = call spir_func <8 x float> @_Z12__esimd_rnduIfLi8EEDv8_fDv8_f(<8 x float> %rnde)
  %rndz = call spir_func <8 x float> @_Z12__esimd_rndzIfLi8EEDv8_fDv8_f(<8 x float> %rndu)
  %frc = call spir_func <8 x float> @_Z11__esimd_frcIfLi8EEDv8_fDv8_f(<8 x float> %rndz)
  %sat = call spir_func <8 x float> @_Z11__esimd_satIfLi8EEDv8_fDv8_f(<8 x float> %frc)
  %abs = call spir_func <8 x float> @_Z11__esimd_absIfLi8EEDv8_fDv8_f(<8 x float> %sat)
  %pow = call spir_func <8 x float> @_Z11__esimd_powIfLi8EEDv8_fDv8_fDv8_f(<8 x float> %abs, <8 x float> %r)
  %ieee_div = call spir_func <8 x float> @_Z16__esimd_ieee_divIfLi8EEDv8_fDv8_fDv8_f(<8 x float> %pow, <8 x float> %r)
  %fmax = call spir_func <8 x float> @_Z12__esimd_fmaxIfLi8EEDv8_fDv8_fDv8_f(<8 x float> %ieee_div, <8 x float> %r)
  %fmin = call spir_func <8 x float> @_Z12__esimd_fminIfLi8EEDv8_fDv8_fDv8_f(<8 x float> %fmax, <8 x float> %r)
  %w = call spir_func <16 x float> @_Z16__esimd_wrregionIfLi16ELi8ELi0ELi8ELi1ELi0EEDv16_fDv16_fDv8_ftDv8_t(<16 x float> %f, <8 x float> %fmin, i16 zeroext 0, <8 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>)
  call spir_func void @_Z20__esimd_svm_block_stIfLi16ELm64EEvPDv16_fDv16_f(ptr addrspace(1) %pf, <16 x float> %w)
  %i = call spir_func <16 x i32> @_Z20__esimd_svm_block_ldIiLi16ELm64EEDv16_iPKDv16_i(ptr addrspace(1) %pi)
  %smax = call spir_func <16 x i32> @_Z12__esimd_smaxIiLi16EEDv16_iDv16_iDv16_i(<16 x i32> %i, <16 x i32> %i)
  %umin = call spir_func <16 x i32> @_Z12__esimd_uminIiLi16EEDv16_iDv16_iDv16_i(<16 x i32> %smax, <16 x i32> %i)
  %smin = call spir_func <16 x i32> @_Z12__esimd_sminIiLi16EEDv16_iDv16_iDv16_i(<16 x i32> %umin, <16 x i32> %i)
  %umax = call spir_func <16 x i32> @_Z12__esimd_umaxIiLi16EEDv16_iDv16_iDv16_i(<16 x i32> %smin, <16 x i32> %i)
  %rol = call spir_func <16 x i32> @_Z11__esimd_rolIiLi16EEDv16_iDv16_iDv16_i(<16 x i32> %umax, <16 x i32> %i)
  %ror = call spir_func <16 x i32> @_Z11__esimd_rorIiLi16EEDv16_iDv16_iDv16_i(<16 x i32> %rol, <16 x i32> %i)
  %umulh = call spir_func <16 x i32> @_Z13__esimd_umulhIiLi16EEDv16_iDv16_iDv16_i(<16 x i32> %ror, <16 x i32> %i)
  %smulh = call spir_func <16 x i32> @_Z13__esimd_smulhIiLi16EEDv16_iDv16_iDv16_i(<16 x i32> %umulh, <16 x i32> %i)
  %ssshl = call spir_func <16 x i32> @_Z13__esimd_ssshlIiLi16EEDv16_iDv16_iDv16_i(<16 x i32> %smulh, <16 x i32> %i)
  %uushl_sat = call spir_func <16 x i32> @_Z17__esimd_uushl_satIiLi16EEDv16_iDv16_iDv16_i(<16 x i32> %ssshl, <16 x i32> %i)
  %lzdi = call spir_func <16 x i32> @_Z11__esimd_lzdIiLi16EEDv16_iDv16_i(<16 x i32> %uushl_sat)
  %bfrevi = call spir_func <16 x i32> @_Z13__esimd_bfrevIiLi16EEDv16_iDv16_i(<16 x i32> %lzdi)
  %fbli = call spir_func <16 x i32> @_Z11__esimd_fblIiLi16EEDv16_iDv16_i(<16 x i32> %bfrevi)
  %sfbhi = call spir_func <16 x i32> @_Z12__esimd_sfbhIiLi16EEDv16_iDv16_i(<16 x i32> %fbli)
  %ufbhi = call spir_func <16 x i32> @_Z12__esimd_ufbhIiLi16EEDv16_iDv16_i(<16 x i32> %sfbhi)
  %absi = call spir_func <16 x i32> @_Z11__esimd_absIiLi16EEDv16_iDv16_i(<16 x i32> %ufbhi)
  %cbit = call spir_func <16 x i32> @_Z12__esimd_cbitIjjLi16EEDv16_jDv16_j(<16 x i32> %absi)
  %bfi = call spir_func <16 x i32> @_Z11__esimd_bfiIiLi16EEDv16_iDv16_iDv16_iDv16_iDv16_i(<16 x i32> %cbit, <16 x i32> %i, <16 x i32> %i, <16 x i32> %i)
  %sbfe = call spir_func <16 x i32> @_Z12__esimd_sbfeIiLi16EEDv16_iDv16_iDv16_iDv16_i(<16 x i32> %bfi, <16 x i32> %i, <16 x i32> %i)
  %dp4a = call spir_func <16 x i32> @_Z14__esimd_uudp4aIjjjjLi16EEDv16_jDv16_jDv16_jDv16_j(<16 x i32> %sbfe, <16 x i32> %i, <16 x i32> %i)
  %dp4as = call spir_func <16 x i32> @_Z18__esimd_ssdp4a_satIiiiiLi16EEDv16_iDv16_iDv16_iDv16_i(<16 x i32> %dp4a, <16 x i32> %i, <16 x i32> %i)
  %bfn = call spir_func <16 x i32> @_Z11__esimd_bfnILh255EiLi16EEDv16_iDv16_iDv16_iDv16_i(<16 x i32> %dp4as, <16 x i32> %i, <16 x i32> %i)
  %fu = call spir_func <16 x i32> @_Z18__esimd_fptoui_satIjfLi16EEDv16_jDv16_f(<16 x float> %w)
  %tr = call spir_func <16 x i16> @_Z19__esimd_uutrunc_satItjLi16EEDv16_tDv16_j(<16 x i32> %bfn)
  %any = call spir_func i16 @_Z11__esimd_anyItLi16EEtDv16_t(<16 x i16> %tr)
  %all = call spir_func i16 @_Z11__esimd_allItLi16EEtDv16_t(<16 x i16> %tr)
  %anyall = add i16 %any, %all
  %ext = zext i16 %anyall to i32
  %ins = insertelement <16 x i32> %fu, i32 %ext, i32 0
  %sum = add <16 x i32> %ins, %bfn
  call spir_func void @_Z13__esimd_fenceh(i8 zeroext 1)
  call spir_func void @_Z20__esimd_svm_block_stIiLi16ELm64EEvPDv16_iDv16_i(ptr addrspace(1) %pi, <16 x i32> %sum)
  ret void
}

define spir_kernel void @intrin_memory(ptr addrspace(1) %p) #0 !sycl_explicit_simd !0 !intel_reqd_sub_group_size !1 {
entry:
  %a16.b = ptrtoint ptr addrspace(1) %p to i64
  %a16.i = insertelement <16 x i64> undef, i64 %a16.b, i32 0
  %a16.s = shufflevector <16 x i64> %a16.i, <16 x i64> undef, <16 x i32> zeroinitializer
  %a16 = add <16 x i64> %a16.s, <i64 0, i64 4, i64 8, i64 12, i64 16, i64 20, i64 24, i64 28, i64 32, i64 36, i64 40, i64 44, i64 48, i64 52, i64 56, i64 60>
  %a8.b = ptrtoint ptr addrspace(1) %p to i64
  %a8.i = insertelement <8 x i64> undef, i64 %a8.b, i32 0
  %a8.s = shufflevector <8 x i64> %a8.i, <8 x i64> undef, <8 x i32> zeroinitializer
  %a8 = add <8 x i64> %a8.s, <i64 0, i64 4, i64 8, i64 12, i64 16, i64 20, i64 24, i64 28>
  %g = call spir_func <16 x i32> @_Z18__esimd_svm_gatherIjLi16ELi0ELi0EEDv16_jDv16_yDv16_t(<16 x i64> %a16, <16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>)
  call spir_func void @_Z19__esimd_svm_scatterIjLi16ELi0ELi0EEvDv16_yDv16_jDv16_t(<16 x i64> %a16, <16 x i32> %g, <16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>)
  %g8 = shufflevector <16 x i32> %g, <16 x i32> undef, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %at0 = call spir_func <8 x i32> @_Z19__esimd_svm_atomic0ILN4sycl3_V13ext5intel5esimd9atomic_opE2EjLi8EEDv8_jDv8_yDv8_t(<8 x i64> %a8, <8 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>)
  %at1 = call spir_func <8 x i32> @_Z19__esimd_svm_atomic1ILN4sycl3_V13ext5intel5esimd9atomic_opE0EjLi8EEDv8_jDv8_yDv8_jDv8_t(<8 x i64> %a8, <8 x i32> %g8, <8 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>)
  %at2 = call spir_func <8 x i32> @_Z19__esimd_svm_atomic2ILN4sycl3_V13ext5intel5esimd9atomic_opE7EjLi8EEDv8_jDv8_yDv8_jDv8_jDv8_t(<8 x i64> %a8, <8 x i32> %at0, <8 x i32> %at1, <8 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>)
  %ld = call spir_func <16 x i32> @_Z26__esimd_lsc_load_statelessIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEDv16_jDv16_tDv16_y(<16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>, <16 x i64> %a16)
  call spir_func void @_Z30__esimd_lsc_prefetch_statelessIjLN4sycl3_V13ext5intel5esimd10cache_hintE2ELN4sycl3_V13ext5intel5esimd10cache_hintE2ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEvDv16_tDv16_y(<16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>, <16 x i64> %a16)
  call spir_func void @_Z27__esimd_lsc_store_statelessIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEvDv16_tDv16_yDv16_j(<16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>, <16 x i64> %a16, <16 x i32> %ld)
  %xa0 = call spir_func <16 x i32> @_Z31__esimd_lsc_xatomic_stateless_0IjLN4sycl3_V13ext5intel5esimd13lsc_atomic_opE8ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEDv16_jDv16_tDv16_y(<16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>, <16 x i64> %a16)
  %xa1 = call spir_func <16 x i32> @_Z31__esimd_lsc_xatomic_stateless_1IjLN4sycl3_V13ext5intel5esimd13lsc_atomic_opE12ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEDv16_jDv16_tDv16_yDv16_j(<16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>, <16 x i64> %a16, <16 x i32> %xa0)
  %xa2 = call spir_func <16 x i32> @_Z31__esimd_lsc_xatomic_stateless_2IjLN4sycl3_V13ext5intel5esimd13lsc_atomic_opE18ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEDv16_jDv16_tDv16_yDv16_jDv16_j(<16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>, <16 x i64> %a16, <16 x i32> %xa0, <16 x i32> %xa1)
  call spir_func void @_Z17__esimd_lsc_fenceILN4sycl3_V13ext5intel5esimd15lsc_memory_kindE0ELN4sycl3_V13ext5intel5esimd12lsc_fence_opE0ELN4sycl3_V13ext5intel5esimd9lsc_scopeE0ELi16EEvDv16_t(<16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>)
  %sum0 = add <16 x i32> %xa2, %ld
  %sum1 = add <8 x i32> %at2, %g8
  %sum1w = shufflevector <8 x i32> %sum1, <8 x i32> undef, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 0, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>
  %sum = add <16 x i32> %sum0, %sum1w
  call spir_func void @_Z27__esimd_lsc_store_statelessIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEvDv16_tDv16_yDv16_j(<16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>, <16 x i64> %a16, <16 x i32> %sum)
  ret void
}

define spir_kernel void @intrin_local(ptr addrspace(1) %pi, i32 %off) #0 !sycl_explicit_simd !0 !intel_reqd_sub_group_size !1 {
entry:
  %tmp = alloca <16 x i32>, align 64
  %pair = alloca { <16 x i32>, <16 x i32> }, align 64
  call spir_func void @_Z16__esimd_slm_initj(i32 1024)
  call spir_func void @_Z21__esimd_nbarrier_inith(i8 zeroext 2)
  call spir_func void @_Z16__esimd_nbarrierhhh(i8 zeroext 0, i8 zeroext 1, i8 zeroext 0)
  %v = load <16 x i32>, ptr addrspace(1) %pi, align 64
  call spir_func void @_Z20__esimd_slm_block_stIjLi16ELm64EEvjDv16_j(i32 0, <16 x i32> %v)
  %s = call spir_func <16 x i32> @_Z20__esimd_slm_block_ldIjLi16ELm64EEDv16_jj(i32 %off)
  call spir_func void @_Z21__esimd_lsc_store_slmIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEvDv16_tDv16_jDv16_j(<16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>, <16 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28, i32 32, i32 36, i32 40, i32 44, i32 48, i32 52, i32 56, i32 60>, <16 x i32> %s)
  %ls = call spir_func <16 x i32> @_Z20__esimd_lsc_load_slmIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEDv16_jDv16_tDv16_j(<16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>, <16 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28, i32 32, i32 36, i32 40, i32 44, i32 48, i32 52, i32 56, i32 60>)
  %tmp.g = addrspacecast ptr %tmp to ptr addrspace(4)
  call spir_func void @_Z14__esimd_vstoreIjLi16EEvPDv16_jDv16_j(ptr addrspace(4) %tmp.g, <16 x i32> %ls)
  %vl = call spir_func <16 x i32> @_Z13__esimd_vloadIjLi16EEDv16_jPKDv16_j(ptr addrspace(4) %tmp.g)
  %pair.g = addrspacecast ptr %pair to ptr addrspace(4)
  call spir_func void @_Z12__esimd_addcIjLi16EEvDv16_jDv16_j(ptr addrspace(4) sret({ <16 x i32>, <16 x i32> }) %pair.g, <16 x i32> %vl, <16 x i32> %v)
  %sum.p = getelementptr inbounds { <16 x i32>, <16 x i32> }, ptr %pair, i32 0, i32 1
  %sum = load <16 x i32>, ptr %sum.p, align 64
  store <16 x i32> %sum, ptr addrspace(1) %pi, align 64
  ret void
}

declare spir_func <16 x float> @_Z16__esimd_wrregionIfLi16ELi8ELi0ELi8ELi1ELi0EEDv16_fDv16_fDv8_ftDv8_t(<16 x float>, <8 x float>, i16 zeroext, <8 x i16>)
declare spir_func <16 x float> @_Z20__esimd_svm_block_ldIfLi16ELm64EEDv16_fPKDv16_f(ptr addrspace(1))
declare spir_func <16 x i16> @_Z19__esimd_uutrunc_satItjLi16EEDv16_tDv16_j(<16 x i32>)
declare spir_func <16 x i32> @_Z11__esimd_absIiLi16EEDv16_iDv16_i(<16 x i32>)
declare spir_func <16 x i32> @_Z11__esimd_bfiIiLi16EEDv16_iDv16_iDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>, <16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z11__esimd_bfnILh255EiLi16EEDv16_iDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z11__esimd_fblIiLi16EEDv16_iDv16_i(<16 x i32>)
declare spir_func <16 x i32> @_Z11__esimd_lzdIiLi16EEDv16_iDv16_i(<16 x i32>)
declare spir_func <16 x i32> @_Z11__esimd_rolIiLi16EEDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z11__esimd_rorIiLi16EEDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z12__esimd_cbitIjjLi16EEDv16_jDv16_j(<16 x i32>)
declare spir_func <16 x i32> @_Z12__esimd_sbfeIiLi16EEDv16_iDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z12__esimd_sfbhIiLi16EEDv16_iDv16_i(<16 x i32>)
declare spir_func <16 x i32> @_Z12__esimd_smaxIiLi16EEDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z12__esimd_sminIiLi16EEDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z12__esimd_ufbhIiLi16EEDv16_iDv16_i(<16 x i32>)
declare spir_func <16 x i32> @_Z12__esimd_umaxIiLi16EEDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z12__esimd_uminIiLi16EEDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z13__esimd_bfrevIiLi16EEDv16_iDv16_i(<16 x i32>)
declare spir_func <16 x i32> @_Z13__esimd_smulhIiLi16EEDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z13__esimd_ssshlIiLi16EEDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z13__esimd_umulhIiLi16EEDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z13__esimd_vloadIjLi16EEDv16_jPKDv16_j(ptr addrspace(4))
declare spir_func <16 x i32> @_Z14__esimd_uudp4aIjjjjLi16EEDv16_jDv16_jDv16_jDv16_j(<16 x i32>, <16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z17__esimd_uushl_satIiLi16EEDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z18__esimd_fptoui_satIjfLi16EEDv16_jDv16_f(<16 x float>)
declare spir_func <16 x i32> @_Z18__esimd_ssdp4a_satIiiiiLi16EEDv16_iDv16_iDv16_iDv16_i(<16 x i32>, <16 x i32>, <16 x i32>)
declare spir_func <16 x i32> @_Z18__esimd_svm_gatherIjLi16ELi0ELi0EEDv16_jDv16_yDv16_t(<16 x i64>, <16 x i16>)
declare spir_func <16 x i32> @_Z20__esimd_lsc_load_slmIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEDv16_jDv16_tDv16_j(<16 x i16>, <16 x i32>)
declare spir_func <16 x i32> @_Z20__esimd_slm_block_ldIjLi16ELm64EEDv16_jj(i32)
declare spir_func <16 x i32> @_Z20__esimd_svm_block_ldIiLi16ELm64EEDv16_iPKDv16_i(ptr addrspace(1))
declare spir_func <16 x i32> @_Z26__esimd_lsc_load_statelessIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEDv16_jDv16_tDv16_y(<16 x i16>, <16 x i64>)
declare spir_func <16 x i32> @_Z31__esimd_lsc_xatomic_stateless_0IjLN4sycl3_V13ext5intel5esimd13lsc_atomic_opE8ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEDv16_jDv16_tDv16_y(<16 x i16>, <16 x i64>)
declare spir_func <16 x i32> @_Z31__esimd_lsc_xatomic_stateless_1IjLN4sycl3_V13ext5intel5esimd13lsc_atomic_opE12ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEDv16_jDv16_tDv16_yDv16_j(<16 x i16>, <16 x i64>, <16 x i32>)
declare spir_func <16 x i32> @_Z31__esimd_lsc_xatomic_stateless_2IjLN4sycl3_V13ext5intel5esimd13lsc_atomic_opE18ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEDv16_jDv16_tDv16_yDv16_jDv16_j(<16 x i16>, <16 x i64>, <16 x i32>, <16 x i32>)
declare spir_func <8 x float> @_Z11__esimd_absIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z11__esimd_cosIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z11__esimd_expIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z11__esimd_frcIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z11__esimd_invIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z11__esimd_logIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z11__esimd_powIfLi8EEDv8_fDv8_fDv8_f(<8 x float>, <8 x float>)
declare spir_func <8 x float> @_Z11__esimd_satIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z11__esimd_sinIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z12__esimd_fmaxIfLi8EEDv8_fDv8_fDv8_f(<8 x float>, <8 x float>)
declare spir_func <8 x float> @_Z12__esimd_fminIfLi8EEDv8_fDv8_fDv8_f(<8 x float>, <8 x float>)
declare spir_func <8 x float> @_Z12__esimd_rnddIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z12__esimd_rndeIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z12__esimd_rnduIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z12__esimd_rndzIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z12__esimd_sqrtIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z13__esimd_rsqrtIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x float> @_Z16__esimd_ieee_divIfLi8EEDv8_fDv8_fDv8_f(<8 x float>, <8 x float>)
declare spir_func <8 x float> @_Z16__esimd_rdregionIfLi16ELi8ELi0ELi8ELi1ELi0EEDv8_fDv16_ft(<16 x float>, i16 zeroext)
declare spir_func <8 x float> @_Z17__esimd_ieee_sqrtIfLi8EEDv8_fDv8_f(<8 x float>)
declare spir_func <8 x i32> @_Z19__esimd_svm_atomic0ILN4sycl3_V13ext5intel5esimd9atomic_opE2EjLi8EEDv8_jDv8_yDv8_t(<8 x i64>, <8 x i16>)
declare spir_func <8 x i32> @_Z19__esimd_svm_atomic1ILN4sycl3_V13ext5intel5esimd9atomic_opE0EjLi8EEDv8_jDv8_yDv8_jDv8_t(<8 x i64>, <8 x i32>, <8 x i16>)
declare spir_func <8 x i32> @_Z19__esimd_svm_atomic2ILN4sycl3_V13ext5intel5esimd9atomic_opE7EjLi8EEDv8_jDv8_yDv8_jDv8_jDv8_t(<8 x i64>, <8 x i32>, <8 x i32>, <8 x i16>)
declare spir_func i16 @_Z11__esimd_allItLi16EEtDv16_t(<16 x i16>)
declare spir_func i16 @_Z11__esimd_anyItLi16EEtDv16_t(<16 x i16>)
declare spir_func void @_Z12__esimd_addcIjLi16EEvDv16_jDv16_j(ptr addrspace(4) sret({ <16 x i32>, <16 x i32> }), <16 x i32>, <16 x i32>)
declare spir_func void @_Z13__esimd_fenceh(i8 zeroext)
declare spir_func void @_Z14__esimd_vstoreIjLi16EEvPDv16_jDv16_j(ptr addrspace(4), <16 x i32>)
declare spir_func void @_Z16__esimd_nbarrierhhh(i8 zeroext, i8 zeroext, i8 zeroext)
declare spir_func void @_Z16__esimd_slm_initj(i32)
declare spir_func void @_Z17__esimd_lsc_fenceILN4sycl3_V13ext5intel5esimd15lsc_memory_kindE0ELN4sycl3_V13ext5intel5esimd12lsc_fence_opE0ELN4sycl3_V13ext5intel5esimd9lsc_scopeE0ELi16EEvDv16_t(<16 x i16>)
declare spir_func void @_Z19__esimd_svm_scatterIjLi16ELi0ELi0EEvDv16_yDv16_jDv16_t(<16 x i64>, <16 x i32>, <16 x i16>)
declare spir_func void @_Z20__esimd_slm_block_stIjLi16ELm64EEvjDv16_j(i32, <16 x i32>)
declare spir_func void @_Z20__esimd_svm_block_stIfLi16ELm64EEvPDv16_fDv16_f(ptr addrspace(1), <16 x float>)
declare spir_func void @_Z20__esimd_svm_block_stIiLi16ELm64EEvPDv16_iDv16_i(ptr addrspace(1), <16 x i32>)
declare spir_func void @_Z21__esimd_lsc_store_slmIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEvDv16_tDv16_jDv16_j(<16 x i16>, <16 x i32>, <16 x i32>)
declare spir_func void @_Z21__esimd_nbarrier_inith(i8 zeroext)
declare spir_func void @_Z27__esimd_lsc_store_statelessIjLN4sycl3_V13ext5intel5esimd10cache_hintE0ELN4sycl3_V13ext5intel5esimd10cache_hintE0ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEvDv16_tDv16_yDv16_j(<16 x i16>, <16 x i64>, <16 x i32>)
declare spir_func void @_Z30__esimd_lsc_prefetch_statelessIjLN4sycl3_V13ext5intel5esimd10cache_hintE2ELN4sycl3_V13ext5intel5esimd10cache_hintE2ELt1ELi0ELN4sycl3_V13ext5intel5esimd13lsc_data_sizeE3ELN4sycl3_V13ext5intel5esimd15lsc_vector_sizeE1ELN4sycl3_V13ext5intel5esimd14lsc_data_orderE1ELi16EEvDv16_tDv16_y(<16 x i16>, <16 x i64>)

attributes #0 = { convergent mustprogress norecurse nounwind "sycl-module-id"="intrin_opaque.cpp" }

!0 = !{}
!1 = !{i32 1}
