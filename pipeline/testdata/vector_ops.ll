; One translation unit of a SYCL program, as the front end emits it (LLVM 15
; syntax): kernels VecScale (a scalar spec constant) and VecAdd, and the
; SYCL_EXTERNAL function combine, which image_ops.ll calls.
source_filename = "vector_ops.cpp"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%"class.sycl::_V1::specialization_id" = type { i32 }

@__usid_str = private unnamed_addr addrspace(1) constant [32 x i8] c"uid1c3f5a7e2b4d6f80____ZL5scale\00", align 1
@_ZL5scale = internal addrspace(1) constant %"class.sycl::_V1::specialization_id" { i32 3 }, align 4
@__spirv_BuiltInGlobalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32

define weak_odr dso_local spir_kernel void @_ZTSZ4mainE8VecScale(i32 addrspace(1)* noundef align 4 %_arg_out, i32 addrspace(1)* noundef align 4 %_arg_in, i8 addrspace(1)* noundef align 1 %_arg__specialization_constants_buffer) #0 {
entry:
  %buf = addrspacecast i8 addrspace(1)* %_arg__specialization_constants_buffer to i8 addrspace(4)*
  %scale = call spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(i8 addrspace(4)* noundef addrspacecast (i8 addrspace(1)* getelementptr inbounds ([32 x i8], [32 x i8] addrspace(1)* @__usid_str, i64 0, i64 0) to i8 addrspace(4)*), i8 addrspace(4)* noundef addrspacecast (i8 addrspace(1)* bitcast (%"class.sycl::_V1::specialization_id" addrspace(1)* @_ZL5scale to i8 addrspace(1)*) to i8 addrspace(4)*), i8 addrspace(4)* noundef %buf)
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %in.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_in, i64 %i
  %v = load i32, i32 addrspace(1)* %in.p, align 4
  %r = mul nsw i32 %v, %scale
  %out.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_out, i64 %i
  store i32 %r, i32 addrspace(1)* %out.p, align 4
  ret void
}

define weak_odr dso_local spir_kernel void @_ZTSZ4mainE6VecAdd(i32 addrspace(1)* noundef align 4 %_arg_c, i32 addrspace(1)* noundef align 4 %_arg_a, i32 addrspace(1)* noundef align 4 %_arg_b) #0 {
entry:
  %gid = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %gid, i64 0
  %a.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_a, i64 %i
  %a = load i32, i32 addrspace(1)* %a.p, align 4
  %b.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_b, i64 %i
  %b = load i32, i32 addrspace(1)* %b.p, align 4
  %s = call spir_func i32 @_Z7combineii(i32 noundef %a, i32 noundef %b)
  %c.p = getelementptr inbounds i32, i32 addrspace(1)* %_arg_c, i64 %i
  store i32 %s, i32 addrspace(1)* %c.p, align 4
  ret void
}

define dso_local spir_func i32 @_Z7combineii(i32 noundef %a, i32 noundef %b) #1 {
entry:
  %a2 = shl nsw i32 %a, 1
  %s = add nsw i32 %a2, %b
  ret i32 %s
}

declare dso_local spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(i8 addrspace(4)* noundef, i8 addrspace(4)* noundef, i8 addrspace(4)* noundef)

attributes #0 = { convergent norecurse nounwind "sycl-module-id"="vector_ops.cpp" "uniform-work-group-size"="true" }
attributes #1 = { convergent norecurse nounwind "sycl-module-id"="vector_ops.cpp" }

!opencl.spir.version = !{!0}
!spirv.Source = !{!1}
!0 = !{i32 1, i32 2}
!1 = !{i32 4, i32 100000}
