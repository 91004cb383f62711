; The quickstart's device code: what a SYCL front end hands to the device
; link stage after llvm-link, written in LLVM 15 syntax (typed pointers), so
; that llvm-as-15 and llvm-spirv-15 accept every module split from it.
;
; Two translation units ("sycl-module-id"):
;   vector_ops.cpp  kernels VecScale (scalar spec constant scale_factor) and
;                   VecAdd; SYCL_EXTERNAL int combine(int, int)
;   image_ops.cpp   kernels Threshold (composite spec constant
;                   threshold = {int lo; float gain}) and Clamp;
;                   SYCL_EXTERNAL int clamp_to(int, int, int)
; VecAdd calls combine, Threshold and Clamp call clamp_to, and Threshold
; also calls combine, across translation units, as SYCL_EXTERNAL allows.
; Kernels that read spec constants take the runtime's spec-constant buffer
; as their last argument (used when constants are emulated).

source_filename = "llvm-link"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%"class.sycl::_V1::specialization_id" = type { i32 }
%"class.sycl::_V1::specialization_id.0" = type { %struct.Threshold }
%struct.Threshold = type { i32, float }

@__usid_str = private unnamed_addr addrspace(1) constant [32 x i8] c"uid1c3f5a7e2b4d6f80____ZL5scale\00", align 1
@__usid_str.1 = private unnamed_addr addrspace(1) constant [36 x i8] c"uid9b2d4c6f1a3e5d70____ZL9threshold\00", align 1
@_ZL5scale = internal addrspace(1) constant %"class.sycl::_V1::specialization_id" { i32 3 }, align 4
@_ZL9threshold = internal addrspace(1) constant %"class.sycl::_V1::specialization_id.0" { %struct.Threshold { i32 10, float 5.000000e-01 } }, align 4
@__spirv_BuiltInGlobalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32

; vector_ops.cpp: out[i] = in[i] * scale
define weak_odr dso_local spir_kernel void @_ZTSZ4mainE8VecScale(i32 addrspace(1)* noundef align 4 %_arg_out, i32 addrspace(1)* noundef align 4 %_arg_in, i8 addrspace(1)* noundef align 1 %_arg__specialization_constants_buffer) #0 !kernel_arg_buffer_location !4 {
entry:
  %buf = addrspacecast i8 addrspace(1)* %_arg__specialization_constants_buffer to i8 addrspace(4)*
  %scale = call spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(i8 addrspace(4)* noundef addrspacecast (i8 addrspace(1)* getelementptr inbounds ([32 x i8], [32 x i8] addrspace(1)* @__usid_str, i64 0, i64 0) to i8 addrspace(4)*), i8 addrspace(4)* noundef addrspacecast (i8 addrspace(1)* bitcast (%"class.sycl::_V1::specialization_id" addrspace(1)* @_ZL5scale to i8 addrspace(1)*) to i8 addrspace(4)*), i8 addrspace(4)* noundef %buf) #4
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %in.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %i
  %v = load i32, i32 addrspace(1)* %in.p, align 4
  %r = mul nsw i32 %v, %scale
  %out.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_out, i64 %i
  store i32 %r, i32 addrspace(1)* %out.p, align 4
  ret void
}

; vector_ops.cpp: c[i] = combine(a[i], b[i])
define weak_odr dso_local spir_kernel void @_ZTSZ4mainE6VecAdd(i32 addrspace(1)* noundef align 4 %_arg_c, i32 addrspace(1)* noundef align 4 %_arg_a, i32 addrspace(1)* noundef align 4 %_arg_b) #0 !kernel_arg_buffer_location !5 {
entry:
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %a.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_a, i64 %i
  %a = load i32, i32 addrspace(1)* %a.p, align 4
  %b.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_b, i64 %i
  %b = load i32, i32 addrspace(1)* %b.p, align 4
  %s = call spir_func i32 @_Z7combineii(i32 noundef %a, i32 noundef %b) #4
  %c.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_c, i64 %i
  store i32 %s, i32 addrspace(1)* %c.p, align 4
  ret void
}

; vector_ops.cpp: SYCL_EXTERNAL int combine(int a, int b) { return 2 * a + b; }
define dso_local spir_func i32 @_Z7combineii(i32 noundef %a, i32 noundef %b) #2 {
entry:
  %a2 = shl nsw i32 %a, 1
  %s = add nsw i32 %a2, %b
  ret i32 %s
}

; image_ops.cpp: out[i] = combine(clamp_to(in[i], threshold.lo, 255), 0) * threshold.gain
define weak_odr dso_local spir_kernel void @_ZTSZ4mainE9Threshold(float addrspace(1)* noundef align 4 %_arg_out, i32 addrspace(1)* noundef align 4 %_arg_in, i8 addrspace(1)* noundef align 1 %_arg__specialization_constants_buffer) #1 !kernel_arg_buffer_location !4 {
entry:
  %t = alloca %struct.Threshold, align 4
  %t.ascast = addrspacecast %struct.Threshold* %t to %struct.Threshold addrspace(4)*
  %buf = addrspacecast i8 addrspace(1)* %_arg__specialization_constants_buffer to i8 addrspace(4)*
  call spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI9ThresholdET_PKcPKvS5_(%struct.Threshold addrspace(4)* sret(%struct.Threshold) align 4 %t.ascast, i8 addrspace(4)* noundef addrspacecast (i8 addrspace(1)* getelementptr inbounds ([36 x i8], [36 x i8] addrspace(1)* @__usid_str.1, i64 0, i64 0) to i8 addrspace(4)*), i8 addrspace(4)* noundef addrspacecast (i8 addrspace(1)* bitcast (%"class.sycl::_V1::specialization_id.0" addrspace(1)* @_ZL9threshold to i8 addrspace(1)*) to i8 addrspace(4)*), i8 addrspace(4)* noundef %buf) #4
  %lo.p = getelementptr inbounds %struct.Threshold, %struct.Threshold* %t, i64 0, i32 0
  %lo = load i32, i32* %lo.p, align 4
  %gain.p = getelementptr inbounds %struct.Threshold, %struct.Threshold* %t, i64 0, i32 1
  %gain = load float, float* %gain.p, align 4
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %in.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %i
  %v = load i32, i32 addrspace(1)* %in.p, align 4
  %c = call spir_func i32 @_Z8clamp_toiii(i32 noundef %v, i32 noundef %lo, i32 noundef 255) #4
  %k = call spir_func i32 @_Z7combineii(i32 noundef %c, i32 noundef 0) #4
  %f = sitofp i32 %k to float
  %r = fmul float %f, %gain
  %out.p = getelementptr inbounds float, float addrspace(1)* %_arg_out, i64 %i
  store float %r, float addrspace(1)* %out.p, align 4
  ret void
}

; image_ops.cpp: out[i] = clamp_to(in[i], 0, 100)
define weak_odr dso_local spir_kernel void @_ZTSZ4mainE5Clamp(i32 addrspace(1)* noundef align 4 %_arg_out, i32 addrspace(1)* noundef align 4 %_arg_in) #1 !kernel_arg_buffer_location !6 {
entry:
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %in.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %i
  %v = load i32, i32 addrspace(1)* %in.p, align 4
  %c = call spir_func i32 @_Z8clamp_toiii(i32 noundef %v, i32 noundef 0, i32 noundef 100) #4
  %out.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_out, i64 %i
  store i32 %c, i32 addrspace(1)* %out.p, align 4
  ret void
}

; image_ops.cpp: SYCL_EXTERNAL int clamp_to(int v, int lo, int hi)
define dso_local spir_func i32 @_Z8clamp_toiii(i32 noundef %v, i32 noundef %lo, i32 noundef %hi) #3 {
entry:
  %below = icmp slt i32 %v, %lo
  %v1 = select i1 %below, i32 %lo, i32 %v
  %above = icmp sgt i32 %v1, %hi
  %v2 = select i1 %above, i32 %hi, i32 %v1
  ret i32 %v2
}

declare dso_local spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(i8 addrspace(4)* noundef, i8 addrspace(4)* noundef, i8 addrspace(4)* noundef) #5

declare dso_local spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI9ThresholdET_PKcPKvS5_(%struct.Threshold addrspace(4)* sret(%struct.Threshold) align 4, i8 addrspace(4)* noundef, i8 addrspace(4)* noundef, i8 addrspace(4)* noundef) #5

attributes #0 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-module-id"="vector_ops.cpp" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-module-id"="image_ops.cpp" "uniform-work-group-size"="true" }
attributes #2 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-module-id"="vector_ops.cpp" }
attributes #3 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-module-id"="image_ops.cpp" }
attributes #4 = { convergent nounwind }
attributes #5 = { convergent nounwind }

!opencl.spir.version = !{!0, !0}
!spirv.Source = !{!1, !1}
!llvm.ident = !{!2, !2}
!llvm.module.flags = !{!3}

!0 = !{i32 1, i32 2}
!1 = !{i32 4, i32 100000}
!2 = !{!"quickstart (hand-written in the shape of DPC++ output)"}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 -1, i32 -1, i32 -1}
!5 = !{i32 -1, i32 -1, i32 -1}
!6 = !{i32 -1, i32 -1}
