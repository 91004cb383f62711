; A SYCL-shaped kernel reading specialization constants through the
; run-time buffer, as the DPC++ front end emits it for targets without
; native specialization constants: the kernel gets the buffer as its last
; argument (kernel_handler's specialization-constants buffer) and passes it
; to every __sycl_get*2020SpecConstantValue call.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%"class.sycl::_V1::specialization_id" = type { i32 }
%"class.sycl::_V1::specialization_id.0" = type { double }
%"class.sycl::_V1::specialization_id.1" = type { half }
%"class.sycl::_V1::specialization_id.2" = type { i8 }
%"class.sycl::_V1::specialization_id.3" = type { %struct.Outer }
%"class.sycl::_V1::specialization_id.4" = type { %struct.Arr3 }
%"class.sycl::_V1::specialization_id.5" = type { %struct.V4 }
%struct.Outer = type { i8, %struct.Inner, i16 }
%struct.Inner = type { i32, double }
%struct.Arr3 = type { [3 x i64] }
%struct.V4 = type { <4 x float> }

@__usid_str = private unnamed_addr addrspace(1) constant [8 x i8] c"uid_i32\00", align 1
@__usid_str.1 = private unnamed_addr addrspace(1) constant [8 x i8] c"uid_f64\00", align 1
@__usid_str.2 = private unnamed_addr addrspace(1) constant [9 x i8] c"uid_half\00", align 1
@__usid_str.3 = private unnamed_addr addrspace(1) constant [9 x i8] c"uid_bool\00", align 1
@__usid_str.4 = private unnamed_addr addrspace(1) constant [11 x i8] c"uid_nested\00", align 1
@__usid_str.5 = private unnamed_addr addrspace(1) constant [8 x i8] c"uid_arr\00", align 1
@__usid_str.6 = private unnamed_addr addrspace(1) constant [8 x i8] c"uid_vec\00", align 1
@_ZL6sc_i32 = internal addrspace(1) constant %"class.sycl::_V1::specialization_id" { i32 -7 }, align 4
@_ZL6sc_f64 = internal addrspace(1) constant %"class.sycl::_V1::specialization_id.0" { double 3.250000e+00 }, align 8
@_ZL7sc_half = internal addrspace(1) constant %"class.sycl::_V1::specialization_id.1" { half 0xH3C00 }, align 2
@_ZL7sc_bool = internal addrspace(1) constant %"class.sycl::_V1::specialization_id.2" { i8 1 }, align 1
@_ZL9sc_nested = internal addrspace(1) constant %"class.sycl::_V1::specialization_id.3" { %struct.Outer { i8 5, %struct.Inner { i32 600, double -2.500000e+00 }, i16 700 } }, align 8
@_ZL6sc_arr = internal addrspace(1) constant %"class.sycl::_V1::specialization_id.4" { %struct.Arr3 { [3 x i64] [i64 1, i64 -2, i64 3] } }, align 8
@_ZL6sc_vec = internal addrspace(1) constant %"class.sycl::_V1::specialization_id.5" zeroinitializer, align 16

define weak_odr dso_local spir_kernel void @sc_kernel(ptr addrspace(1) noundef align 16 %out, ptr addrspace(1) noundef align 16 %_arg_sc_buf) #0 !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %nested = alloca %struct.Outer, align 8
  %vec = alloca %struct.V4, align 16
  %buf = addrspacecast ptr addrspace(1) %_arg_sc_buf to ptr addrspace(4)
  %i = call spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @__usid_str to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL6sc_i32 to ptr addrspace(4)), ptr addrspace(4) %buf)
  store i32 %i, ptr addrspace(1) %out, align 4
  %d = call spir_func double @_Z37__sycl_getScalar2020SpecConstantValueIdET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @__usid_str.1 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL6sc_f64 to ptr addrspace(4)), ptr addrspace(4) %buf)
  %p8 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 8
  store double %d, ptr addrspace(1) %p8, align 8
  %h = call spir_func half @_Z37__sycl_getScalar2020SpecConstantValueIDF16_ET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @__usid_str.2 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL7sc_half to ptr addrspace(4)), ptr addrspace(4) %buf)
  %p16 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 16
  store half %h, ptr addrspace(1) %p16, align 2
  %b = call spir_func zeroext i1 @_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @__usid_str.3 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL7sc_bool to ptr addrspace(4)), ptr addrspace(4) %buf)
  %bz = zext i1 %b to i8
  %p18 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 18
  store i8 %bz, ptr addrspace(1) %p18, align 1
  call spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI5OuterET_PKcPKvS5_(ptr sret(%struct.Outer) align 8 %nested, ptr addrspace(4) addrspacecast (ptr addrspace(1) @__usid_str.4 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL9sc_nested to ptr addrspace(4)), ptr addrspace(4) %buf)
  %n = load %struct.Outer, ptr %nested, align 8
  %p24 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 24
  store %struct.Outer %n, ptr addrspace(1) %p24, align 8
  %a = call spir_func %struct.Arr3 @_Z40__sycl_getComposite2020SpecConstantValueI4Arr3ET_PKcPKvS5_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @__usid_str.5 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL6sc_arr to ptr addrspace(4)), ptr addrspace(4) %buf)
  %p56 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 56
  store %struct.Arr3 %a, ptr addrspace(1) %p56, align 8
  call spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI2V4ET_PKcPKvS5_(ptr sret(%struct.V4) align 16 %vec, ptr addrspace(4) addrspacecast (ptr addrspace(1) @__usid_str.6 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL6sc_vec to ptr addrspace(4)), ptr addrspace(4) %buf)
  %v = load %struct.V4, ptr %vec, align 16
  %p80 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 80
  store %struct.V4 %v, ptr addrspace(1) %p80, align 16
  ret void
}

declare spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func double @_Z37__sycl_getScalar2020SpecConstantValueIdET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func half @_Z37__sycl_getScalar2020SpecConstantValueIDF16_ET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func zeroext i1 @_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI5OuterET_PKcPKvS5_(ptr sret(%struct.Outer) align 8, ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func %struct.Arr3 @_Z40__sycl_getComposite2020SpecConstantValueI4Arr3ET_PKcPKvS5_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI2V4ET_PKcPKvS5_(ptr sret(%struct.V4) align 16, ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))

attributes #0 = { convergent norecurse nounwind "sycl-module-id"="pocl.cpp" "uniform-work-group-size"="true" }

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 1}
!2 = !{!"none", !"none"}
!3 = !{!"char*", !"char*"}
!4 = !{!"", !""}
