; A SYCL-shaped device module for NVIDIA GPUs, in the LLVM 19 syntax clang-19
; emits for the nvptx64 triple: kernels from two translation units
; ("sycl-module-id"), a helper they share, and a scalar specialization
; constant read through the kernel's spec-constant buffer (nvptx64 targets
; emulate them: the runtime passes the values in that buffer).
source_filename = "llvm-link"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%"class.sycl::_V1::specialization_id" = type { i32 }

@__usid_str = private unnamed_addr constant [32 x i8] c"uid1c3f5a7e2b4d6f80____ZL5scale\00", align 1
@_ZL5scale = internal constant %"class.sycl::_V1::specialization_id" { i32 3 }, align 4

; vector_ops.cpp: out[i] = in[i] * scale
define ptx_kernel void @_ZTSZ4mainE8VecScale(ptr addrspace(1) noundef %out, ptr addrspace(1) noundef %in, ptr addrspace(1) noundef %_arg__specialization_constants_buffer) #0 {
entry:
  %buf = addrspacecast ptr addrspace(1) %_arg__specialization_constants_buffer to ptr
  %scale = call i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr noundef @__usid_str, ptr noundef @_ZL5scale, ptr noundef %buf)
  %i = call i64 @_Z9global_idv()
  %in.p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %i
  %v = load i32, ptr addrspace(1) %in.p, align 4
  %r = mul nsw i32 %v, %scale
  %out.p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %r, ptr addrspace(1) %out.p, align 4
  ret void
}

; image_ops.cpp: out[i] = clamp(in[i], 0, 100)
define ptx_kernel void @_ZTSZ4mainE5Clamp(ptr addrspace(1) noundef %out, ptr addrspace(1) noundef %in) #1 {
entry:
  %i = call i64 @_Z9global_idv()
  %in.p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %i
  %v = load i32, ptr addrspace(1) %in.p, align 4
  %lo = call i32 @llvm.smax.i32(i32 %v, i32 0)
  %c = call i32 @llvm.smin.i32(i32 %lo, i32 100)
  %out.p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %c, ptr addrspace(1) %out.p, align 4
  ret void
}

; The global work-item id, as the SYCL headers compute it for CUDA.
define linkonce_odr i64 @_Z9global_idv() #2 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %id = add i32 %base, %tid
  %id64 = zext i32 %id to i64
  ret i64 %id64
}

declare i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr noundef, ptr noundef, ptr noundef)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)

attributes #0 = { convergent mustprogress norecurse nounwind "sycl-module-id"="vector_ops.cpp" }
attributes #1 = { convergent mustprogress norecurse nounwind "sycl-module-id"="image_ops.cpp" }
attributes #2 = { mustprogress nounwind }
