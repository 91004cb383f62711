; An ESIMD kernel converting to and from bfloat16 with the device library's
; extern "C" conversions, LLVM 15 IR with typed pointers.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @intrin_devicelib(float addrspace(1)* %p) #0 !sycl_explicit_simd !0 !intel_reqd_sub_group_size !1 {
entry:
  %f = alloca float, align 4
  %h = alloca i16, align 2
  %fg = addrspacecast float* %f to float addrspace(4)*
  %hg = addrspacecast i16* %h to i16 addrspace(4)*
  %x = load float, float addrspace(1)* %p, align 4
  store float %x, float* %f, align 4
  %call = call spir_func zeroext i16 @__devicelib_ConvertFToBF16INTEL(float addrspace(4)* align 4 dereferenceable(4) %fg)
  store i16 %call, i16* %h, align 2
  %back = call spir_func float @__devicelib_ConvertBF16ToFINTEL(i16 addrspace(4)* align 2 dereferenceable(2) %hg)
  store float %back, float addrspace(1)* %p, align 4
  ret void
}

declare spir_func zeroext i16 @__devicelib_ConvertFToBF16INTEL(float addrspace(4)* align 4 dereferenceable(4))
declare spir_func float @__devicelib_ConvertBF16ToFINTEL(i16 addrspace(4)* align 2 dereferenceable(2))

attributes #0 = { convergent mustprogress norecurse nounwind "sycl-module-id"="intrin_devicelib.cpp" }

!0 = !{}
!1 = !{i32 1}
