; The other translation unit: kernels Threshold (a composite spec constant)
; and Clamp, the SYCL_EXTERNAL function clamp_to, and a call to combine,
; defined in vector_ops.ll.
source_filename = "image_ops.cpp"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%"class.sycl::_V1::specialization_id.0" = type { %struct.Threshold }
%struct.Threshold = type { i32, float }

@__usid_str.1 = private unnamed_addr addrspace(1) constant [36 x i8] c"uid9b2d4c6f1a3e5d70____ZL9threshold\00", align 1
@_ZL9threshold = internal addrspace(1) constant %"class.sycl::_V1::specialization_id.0" { %struct.Threshold { i32 10, float 5.000000e-01 } }, align 4
@__spirv_BuiltInGlobalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32

define weak_odr dso_local spir_kernel void @_ZTSZ4mainE9Threshold(float addrspace(1)* noundef align 4 %_arg_out, i32 addrspace(1)* noundef align 4 %_arg_in, i8 addrspace(1)* noundef align 1 %_arg__specialization_constants_buffer) #0 {
entry:
  %t = alloca %struct.Threshold, align 4
  %t.ascast = addrspacecast %struct.Threshold* %t to %struct.Threshold addrspace(4)*
  %buf = addrspacecast i8 addrspace(1)* %_arg__specialization_constants_buffer to i8 addrspace(4)*
  call spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI9ThresholdET_PKcPKvS5_(%struct.Threshold addrspace(4)* sret(%struct.Threshold) align 4 %t.ascast, i8 addrspace(4)* noundef addrspacecast (i8 addrspace(1)* getelementptr inbounds ([36 x i8], [36 x i8] addrspace(1)* @__usid_str.1, i64 0, i64 0) to i8 addrspace(4)*), i8 addrspace(4)* noundef addrspacecast (i8 addrspace(1)* bitcast (%"class.sycl::_V1::specialization_id.0" addrspace(1)* @_ZL9threshold to i8 addrspace(1)*) to i8 addrspace(4)*), i8 addrspace(4)* noundef %buf)
  %lo.p = getelementptr inbounds %struct.Threshold, %struct.Threshold* %t, i64 0, i32 0
  %lo = load i32, i32* %lo.p, align 4
  %gain.p = getelementptr inbounds %struct.Threshold, %struct.Threshold* %t, i64 0, i32 1
  %gain = load float, float* %gain.p, align 4
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %in.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %i
  %v = load i32, i32 addrspace(1)* %in.p, align 4
  %c = call spir_func i32 @_Z8clamp_toiii(i32 noundef %v, i32 noundef %lo, i32 noundef 255)
  %k = call spir_func i32 @_Z7combineii(i32 noundef %c, i32 noundef 0)
  %f = sitofp i32 %k to float
  %r = fmul float %f, %gain
  %out.p = getelementptr inbounds float, float addrspace(1)* %_arg_out, i64 %i
  store float %r, float addrspace(1)* %out.p, align 4
  ret void
}

define weak_odr dso_local spir_kernel void @_ZTSZ4mainE5Clamp(i32 addrspace(1)* noundef align 4 %_arg_out, i32 addrspace(1)* noundef align 4 %_arg_in) #0 {
entry:
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %in.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %i
  %v = load i32, i32 addrspace(1)* %in.p, align 4
  %c = call spir_func i32 @_Z8clamp_toiii(i32 noundef %v, i32 noundef 0, i32 noundef 100)
  %out.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_out, i64 %i
  store i32 %c, i32 addrspace(1)* %out.p, align 4
  ret void
}

define dso_local spir_func i32 @_Z8clamp_toiii(i32 noundef %v, i32 noundef %lo, i32 noundef %hi) #1 {
entry:
  %below = icmp slt i32 %v, %lo
  %v1 = select i1 %below, i32 %lo, i32 %v
  %above = icmp sgt i32 %v1, %hi
  %v2 = select i1 %above, i32 %hi, i32 %v1
  ret i32 %v2
}

declare dso_local spir_func i32 @_Z7combineii(i32 noundef, i32 noundef)

declare dso_local spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI9ThresholdET_PKcPKvS5_(%struct.Threshold addrspace(4)* sret(%struct.Threshold) align 4, i8 addrspace(4)* noundef, i8 addrspace(4)* noundef, i8 addrspace(4)* noundef)

attributes #0 = { convergent norecurse nounwind "sycl-module-id"="image_ops.cpp" "uniform-work-group-size"="true" }
attributes #1 = { convergent norecurse nounwind "sycl-module-id"="image_ops.cpp" }

!opencl.spir.version = !{!0}
!spirv.Source = !{!1}
!0 = !{i32 1, i32 2}
!1 = !{i32 4, i32 100000}
