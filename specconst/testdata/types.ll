; Spec constants of every supported kind, in a function with unnamed
; arguments, an unnamed entry block and numbered values before and after
; the calls, so that lowering has to renumber.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%id.half = type { half }
%id.i64 = type { i64 }
%id.i16 = type { i16 }
%id.bool = type { i8 }
%id.vec = type { <3 x float> }
%id.nest = type { %struct.Nest }
%id.packed = type { %struct.D }
%struct.Nest = type { [2 x %struct.Pair], <2 x double>, i8 }
%struct.Pair = type { i16, i64 }
%struct.D = type { i32, i8 }
%struct.Packed = type <{ i32, i8, [3 x i8] }>

@s.half = private unnamed_addr addrspace(1) constant [5 x i8] c"half\00"
@s.i64 = private unnamed_addr addrspace(1) constant [4 x i8] c"i64\00"
@s.i16 = private unnamed_addr addrspace(1) constant [4 x i8] c"i16\00"
@s.bool = private unnamed_addr addrspace(1) constant [5 x i8] c"bool\00"
@s.vec = private unnamed_addr addrspace(1) constant [4 x i8] c"vec\00"
@s.nest = private unnamed_addr addrspace(1) constant [5 x i8] c"nest\00"
@s.packed = private unnamed_addr addrspace(1) constant [7 x i8] c"packed\00"
@v.half = internal addrspace(1) constant %id.half { half 0xH3E00 }
@v.i64 = internal addrspace(1) constant %id.i64 { i64 -9000000000 }
@v.i16 = internal addrspace(1) constant %id.i16 zeroinitializer
@v.bool = internal addrspace(1) constant %id.bool { i8 1 }
@v.vec = internal addrspace(1) constant %id.vec { <3 x float> <float 1.0, float 2.0, float 0x3FB99999A0000000> }
@v.nest = internal addrspace(1) constant %id.nest { %struct.Nest { [2 x %struct.Pair] [%struct.Pair { i16 1, i64 2 }, %struct.Pair zeroinitializer], <2 x double> <double 0.5, double 1.0e10>, i8 -1 } }
@v.packed = internal addrspace(1) constant %id.packed { %struct.D { i32 7, i8 8 } }

define spir_kernel void @k(ptr addrspace(1) %0, ptr addrspace(4) %1) {
  %3 = alloca %struct.Nest, align 8
  %4 = alloca %struct.Packed, align 1
  %5 = load i32, ptr addrspace(1) %0, align 4
  %6 = call spir_func half @_Z37__sycl_getScalar2020SpecConstantValueIDF16_ET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @s.half to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @v.half to ptr addrspace(4)), ptr addrspace(4) %1)
  %7 = call spir_func i64 @_Z37__sycl_getScalar2020SpecConstantValueIxET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @s.i64 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @v.i64 to ptr addrspace(4)), ptr addrspace(4) %1)
  %8 = call spir_func i16 @_Z37__sycl_getScalar2020SpecConstantValueIsET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @s.i16 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @v.i16 to ptr addrspace(4)), ptr addrspace(4) %1)
  %9 = call spir_func zeroext i1 @_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @s.bool to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @v.bool to ptr addrspace(4)), ptr addrspace(4) %1)
  br i1 %9, label %10, label %16

10:
  %11 = call spir_func <3 x float> @_Z40__sycl_getComposite2020SpecConstantValueIDv3_fET_PKcPKvS5_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @s.vec to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @v.vec to ptr addrspace(4)), ptr addrspace(4) %1)
  %12 = extractelement <3 x float> %11, i32 2
  call spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI4NestET_PKcPKvS5_(ptr sret(%struct.Nest) align 8 %3, ptr addrspace(4) addrspacecast (ptr addrspace(1) @s.nest to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @v.nest to ptr addrspace(4)), ptr addrspace(4) %1)
  call spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI6PackedET_PKcPKvS5_(ptr sret(%struct.Packed) align 1 %4, ptr addrspace(4) addrspacecast (ptr addrspace(1) @s.packed to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @v.packed to ptr addrspace(4)), ptr addrspace(4) %1)
  %13 = call spir_func i64 @_Z37__sycl_getScalar2020SpecConstantValueIxET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @s.i64 to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @v.i64 to ptr addrspace(4)), ptr addrspace(4) %1)
  %14 = trunc i64 %13 to i32
  %15 = add i32 %14, %5
  br label %16

16:
  %17 = phi i16 [ %8, %2 ], [ 0, %10 ]
  %18 = fpext half %6 to float
  ret void
}

declare spir_func half @_Z37__sycl_getScalar2020SpecConstantValueIDF16_ET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func i64 @_Z37__sycl_getScalar2020SpecConstantValueIxET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func i16 @_Z37__sycl_getScalar2020SpecConstantValueIsET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func zeroext i1 @_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func <3 x float> @_Z40__sycl_getComposite2020SpecConstantValueIDv3_fET_PKcPKvS5_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI4NestET_PKcPKvS5_(ptr sret(%struct.Nest) align 8, ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI6PackedET_PKcPKvS5_(ptr sret(%struct.Packed) align 1, ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
