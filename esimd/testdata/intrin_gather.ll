; ESIMD gathers, lowered to llvm.masked.gather; LLVM 15 IR with typed pointers.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @intrin_gather(i32 addrspace(1)* %p, <16 x i16> addrspace(1)* %q, <16 x i32> addrspace(1)* %r) #0 !sycl_explicit_simd !0 !intel_reqd_sub_group_size !1 {
entry:
  %a16.b = ptrtoint i32 addrspace(1)* %p to i64
  %a16.i = insertelement <16 x i64> undef, i64 %a16.b, i32 0
  %a16.s = shufflevector <16 x i64> %a16.i, <16 x i64> undef, <16 x i32> zeroinitializer
  %a16 = add <16 x i64> %a16.s, <i64 0, i64 4, i64 8, i64 12, i64 16, i64 20, i64 24, i64 28, i64 32, i64 36, i64 40, i64 44, i64 48, i64 52, i64 56, i64 60>
  %m = load <16 x i16>, <16 x i16> addrspace(1)* %q, align 32
  %g = call spir_func <16 x i32> @_Z17__esimd_gather_ldIjLi16ELm4EEDv16_jDv16_yDv16_tDv16_j(<16 x i64> %a16, <16 x i16> %m, <16 x i32> zeroinitializer)
  %s = call spir_func <16 x i32> @_Z21__esimd_slm_gather_ldIjLi16ELm4EEDv16_jDv16_jDv16_tDv16_j(<16 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28, i32 32, i32 36, i32 40, i32 44, i32 48, i32 52, i32 56, i32 60>, <16 x i16> <i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1, i16 1>, <16 x i32> %g)
  store <16 x i32> %s, <16 x i32> addrspace(1)* %r, align 64
  ret void
}

declare spir_func <16 x i32> @_Z17__esimd_gather_ldIjLi16ELm4EEDv16_jDv16_yDv16_tDv16_j(<16 x i64>, <16 x i16>, <16 x i32>)
declare spir_func <16 x i32> @_Z21__esimd_slm_gather_ldIjLi16ELm4EEDv16_jDv16_jDv16_tDv16_j(<16 x i32>, <16 x i16>, <16 x i32>)

attributes #0 = { convergent mustprogress norecurse nounwind "sycl-module-id"="intrin_gather.cpp" }

!0 = !{}
!1 = !{i32 1}
