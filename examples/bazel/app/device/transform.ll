; Device code of transform.cpp, as a SYCL front end (clang -fsycl-device-only,
; LLVM 15 typed pointers) writes it: two kernels.

source_filename = "transform.cpp"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

@__spirv_BuiltInGlobalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32

; out[i] = in[i] + 1
define weak_odr dso_local spir_kernel void @_ZTSZ4mainE9Increment(i32 addrspace(1)* noundef align 4 %_arg_out, i32 addrspace(1)* noundef align 4 %_arg_in) #0 !kernel_arg_buffer_location !4 {
entry:
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %in.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %i
  %v = load i32, i32 addrspace(1)* %in.p, align 4
  %r = add nsw i32 %v, 1
  %out.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_out, i64 %i
  store i32 %r, i32 addrspace(1)* %out.p, align 4
  ret void
}

; out[i] = in[i] < 0 ? 0 : in[i]
define weak_odr dso_local spir_kernel void @_ZTSZ4mainE4Relu(i32 addrspace(1)* noundef align 4 %_arg_out, i32 addrspace(1)* noundef align 4 %_arg_in) #0 !kernel_arg_buffer_location !4 {
entry:
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %in.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %i
  %v = load i32, i32 addrspace(1)* %in.p, align 4
  %neg = icmp slt i32 %v, 0
  %r = select i1 %neg, i32 0, i32 %v
  %out.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_out, i64 %i
  store i32 %r, i32 addrspace(1)* %out.p, align 4
  ret void
}

attributes #0 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-module-id"="transform.cpp" "uniform-work-group-size"="true" }

!opencl.spir.version = !{!0}
!spirv.Source = !{!1}
!llvm.ident = !{!2}
!llvm.module.flags = !{!3}

!0 = !{i32 1, i32 2}
!1 = !{i32 4, i32 100000}
!2 = !{!"examples/bazel (hand-written in the shape of DPC++ output)"}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 -1, i32 -1}
