; A SYCL-shaped kernel reading specialization constants: what the DPC++
; front end emits for h.get_specialization_constant<...>() in a kernel, with
; native (SPIR-V) constants in mind.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%"class.sycl::_V1::specialization_id" = type { i32 }
%"class.sycl::_V1::specialization_id.0" = type { float }
%"class.sycl::_V1::specialization_id.1" = type { %struct.Coeffs }
%"class.sycl::_V1::specialization_id.2" = type { i8 }
%"class.sycl::_V1::specialization_id.3" = type { %struct.Arr }
%struct.Coeffs = type { i32, double, %struct.Pair }
%struct.Pair = type { i16, <2 x float> }
%struct.Arr = type { [3 x i32] }

@__usid_str = private unnamed_addr addrspace(1) constant [11 x i8] c"uid_sc_int\00", align 1
@__usid_str.1 = private unnamed_addr addrspace(1) constant [13 x i8] c"uid_sc_float\00", align 1
@__usid_str.2 = private unnamed_addr addrspace(1) constant [14 x i8] c"uid_sc_coeffs\00", align 1
@__usid_str.3 = private unnamed_addr addrspace(1) constant [12 x i8] c"uid_sc_bool\00", align 1
@__usid_str.4 = private unnamed_addr addrspace(1) constant [11 x i8] c"uid_sc_arr\00", align 1
@_ZL6sc_int = internal addrspace(1) constant %"class.sycl::_V1::specialization_id" { i32 42 }, align 4
@_ZL8sc_float = internal addrspace(1) constant %"class.sycl::_V1::specialization_id.0" { float 1.500000e+00 }, align 4
@_ZL9sc_coeffs = internal addrspace(1) constant %"class.sycl::_V1::specialization_id.1" { %struct.Coeffs { i32 7, double 2.500000e-01, %struct.Pair { i16 -3, <2 x float> <float 5.000000e-01, float 8.000000e+00> } } }, align 8
@_ZL7sc_bool = internal addrspace(1) constant %"class.sycl::_V1::specialization_id.2" { i8 1 }, align 1
@_ZL6sc_arr = internal addrspace(1) constant %"class.sycl::_V1::specialization_id.3" { %struct.Arr { [3 x i32] [i32 10, i32 20, i32 30] } }, align 4

define weak_odr dso_local spir_kernel void @sc_kernel(ptr addrspace(1) noundef align 8 %out) #0 !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %coeffs = alloca %struct.Coeffs, align 8
  %i = call spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @__usid_str to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL6sc_int to ptr addrspace(4)), ptr addrspace(4) null)
  store i32 %i, ptr addrspace(1) %out, align 4
  %f = call spir_func float @_Z37__sycl_getScalar2020SpecConstantValueIfET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @__usid_str.1 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL8sc_float to ptr addrspace(4)), ptr addrspace(4) null)
  %p1 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 4
  store float %f, ptr addrspace(1) %p1, align 4
  call spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI6CoeffsET_PKcPKvS5_(ptr sret(%struct.Coeffs) align 8 %coeffs, ptr addrspace(4) addrspacecast (ptr addrspace(1) @__usid_str.2 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL9sc_coeffs to ptr addrspace(4)), ptr addrspace(4) null)
  %c = load %struct.Coeffs, ptr %coeffs, align 8
  %p2 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 8
  store %struct.Coeffs %c, ptr addrspace(1) %p2, align 8
  %b = call spir_func zeroext i1 @_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @__usid_str.3 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL7sc_bool to ptr addrspace(4)), ptr addrspace(4) null)
  %bz = zext i1 %b to i8
  %p3 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 40
  store i8 %bz, ptr addrspace(1) %p3, align 1
  %a = call spir_func %struct.Arr @_Z40__sycl_getComposite2020SpecConstantValueI3ArrET_PKcPKvS5_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @__usid_str.4 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL6sc_arr to ptr addrspace(4)), ptr addrspace(4) null)
  %p4 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 44
  store %struct.Arr %a, ptr addrspace(1) %p4, align 4
  ret void
}

declare spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func float @_Z37__sycl_getScalar2020SpecConstantValueIfET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func zeroext i1 @_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI6CoeffsET_PKcPKvS5_(ptr sret(%struct.Coeffs) align 8, ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func %struct.Arr @_Z40__sycl_getComposite2020SpecConstantValueI3ArrET_PKcPKvS5_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))

attributes #0 = { convergent norecurse nounwind "sycl-module-id"="pocl.cpp" "uniform-work-group-size"="true" }

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1}
!2 = !{!"none"}
!3 = !{!"char*"}
!4 = !{!""}
