; A CUDA-shaped device module for the nvptx64 target (LLVM 19 syntax, as
; clang-19 -x cuda --cuda-device-only emits it): two kernels from two
; translation units and a helper, kernels marked by the calling convention.
source_filename = "llvm-link"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @_ZTS5Scale(ptr addrspace(1) %out, ptr addrspace(1) %in) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %i
  %v = load i32, ptr addrspace(1) %p, align 4
  %r = call i32 @_Z6twiceii(i32 %v, i32 2)
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %r, ptr addrspace(1) %q, align 4
  ret void
}

define ptx_kernel void @_ZTS4Fill(ptr addrspace(1) %out) #1 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %tid, ptr addrspace(1) %q, align 4
  ret void
}

define i32 @_Z6twiceii(i32 %a, i32 %b) #0 {
entry:
  %r = mul i32 %a, %b
  ret i32 %r
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "sycl-module-id"="scale.cu" }
attributes #1 = { "sycl-module-id"="fill.cu" }
