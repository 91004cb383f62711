; Device code of scale.cpp, as a SYCL front end (clang -fsycl-device-only,
; LLVM 15 typed pointers) writes it for one translation unit: two kernels and
; one SYCL_EXTERNAL helper that stats.cpp calls too.

source_filename = "scale.cpp"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

@__spirv_BuiltInGlobalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32

; out[i] = in[i] * k
define weak_odr dso_local spir_kernel void @_ZTSZ4mainE5Scale(i32 addrspace(1)* noundef align 4 %_arg_out, i32 addrspace(1)* noundef align 4 %_arg_in, i32 noundef %_arg_k) #0 !kernel_arg_buffer_location !4 {
entry:
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %in.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %i
  %v = load i32, i32 addrspace(1)* %in.p, align 4
  %r = mul nsw i32 %v, %_arg_k
  %out.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_out, i64 %i
  store i32 %r, i32 addrspace(1)* %out.p, align 4
  ret void
}

; y[i] = axpy(a, x[i], y[i])
define weak_odr dso_local spir_kernel void @_ZTSZ4mainE5Saxpy(i32 addrspace(1)* noundef align 4 %_arg_y, i32 addrspace(1)* noundef align 4 %_arg_x, i32 noundef %_arg_a) #0 !kernel_arg_buffer_location !4 {
entry:
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %x.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_x, i64 %i
  %x = load i32, i32 addrspace(1)* %x.p, align 4
  %y.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_y, i64 %i
  %y = load i32, i32 addrspace(1)* %y.p, align 4
  %r = call spir_func i32 @_Z4axpyiii(i32 noundef %_arg_a, i32 noundef %x, i32 noundef %y) #2
  store i32 %r, i32 addrspace(1)* %y.p, align 4
  ret void
}

; SYCL_EXTERNAL int axpy(int a, int x, int y) { return a * x + y; }
define dso_local spir_func i32 @_Z4axpyiii(i32 noundef %a, i32 noundef %x, i32 noundef %y) #1 {
entry:
  %m = mul nsw i32 %a, %x
  %s = add nsw i32 %m, %y
  ret i32 %s
}

attributes #0 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-module-id"="scale.cpp" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-module-id"="scale.cpp" }
attributes #2 = { convergent nounwind }

!opencl.spir.version = !{!0}
!spirv.Source = !{!1}
!llvm.ident = !{!2}
!llvm.module.flags = !{!3}

!0 = !{i32 1, i32 2}
!1 = !{i32 4, i32 100000}
!2 = !{!"examples/make (hand-written in the shape of DPC++ output)"}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 -1, i32 -1, i32 -1}
