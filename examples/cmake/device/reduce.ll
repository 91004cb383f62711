; Device code of reduce.cpp, as a SYCL front end (clang -fsycl-device-only,
; LLVM 15 typed pointers) writes it: three kernels that share a
; SYCL_EXTERNAL helper.

source_filename = "reduce.cpp"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

@__spirv_BuiltInGlobalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32

; out[i] = in[2i] + in[2i+1]
define weak_odr dso_local spir_kernel void @_ZTSZ4mainE7PairSum(i32 addrspace(1)* noundef align 4 %_arg_out, i32 addrspace(1)* noundef align 4 %_arg_in) #0 !kernel_arg_buffer_location !4 {
entry:
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %j = shl i64 %i, 1
  %a.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %j
  %a = load i32, i32 addrspace(1)* %a.p, align 4
  %k = add i64 %j, 1
  %b.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %k
  %b = load i32, i32 addrspace(1)* %b.p, align 4
  %s = call spir_func i32 @_Z7combineii(i32 noundef %a, i32 noundef %b) #2
  %out.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_out, i64 %i
  store i32 %s, i32 addrspace(1)* %out.p, align 4
  ret void
}

; out[i] = max(in[2i], in[2i+1])
define weak_odr dso_local spir_kernel void @_ZTSZ4mainE7PairMax(i32 addrspace(1)* noundef align 4 %_arg_out, i32 addrspace(1)* noundef align 4 %_arg_in) #0 !kernel_arg_buffer_location !4 {
entry:
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %j = shl i64 %i, 1
  %a.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %j
  %a = load i32, i32 addrspace(1)* %a.p, align 4
  %k = add i64 %j, 1
  %b.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %k
  %b = load i32, i32 addrspace(1)* %b.p, align 4
  %gt = icmp sgt i32 %a, %b
  %m = select i1 %gt, i32 %a, i32 %b
  %out.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_out, i64 %i
  store i32 %m, i32 addrspace(1)* %out.p, align 4
  ret void
}

; acc[i] = combine(acc[i], in[i])
define weak_odr dso_local spir_kernel void @_ZTSZ4mainE10Accumulate(i32 addrspace(1)* noundef align 4 %_arg_acc, i32 addrspace(1)* noundef align 4 %_arg_in) #0 !kernel_arg_buffer_location !4 {
entry:
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %in.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %i
  %v = load i32, i32 addrspace(1)* %in.p, align 4
  %acc.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_acc, i64 %i
  %acc = load i32, i32 addrspace(1)* %acc.p, align 4
  %s = call spir_func i32 @_Z7combineii(i32 noundef %acc, i32 noundef %v) #2
  store i32 %s, i32 addrspace(1)* %acc.p, align 4
  ret void
}

; SYCL_EXTERNAL int combine(int a, int b) { return a + b; }
define dso_local spir_func i32 @_Z7combineii(i32 noundef %a, i32 noundef %b) #1 {
entry:
  %s = add nsw i32 %a, %b
  ret i32 %s
}

attributes #0 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-module-id"="reduce.cpp" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-module-id"="reduce.cpp" }
attributes #2 = { convergent nounwind }

!opencl.spir.version = !{!0}
!spirv.Source = !{!1}
!llvm.ident = !{!2}
!llvm.module.flags = !{!3}

!0 = !{i32 1, i32 2}
!1 = !{i32 4, i32 100000}
!2 = !{!"examples/cmake (hand-written in the shape of DPC++ output)"}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 -1, i32 -1}
