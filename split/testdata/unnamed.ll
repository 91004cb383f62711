; Unnamed globals are renumbered densely in every module.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

@0 = private unnamed_addr addrspace(2) constant [4 x i8] c"abc\00", align 1
@1 = private unnamed_addr addrspace(2) constant [4 x i8] c"xyz\00", align 1
@2 = internal addrspace(1) global i32 0, align 4

define spir_kernel void @usesFirst() #0 {
entry:
  %c = load i8, ptr addrspace(2) @0, align 1
  ret void
}

define spir_kernel void @usesSecond() #0 {
entry:
  %c = load i8, ptr addrspace(2) @1, align 1
  store i32 1, ptr addrspace(1) @2, align 4
  call spir_func void @3()
  ret void
}

define internal spir_func void @3() {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
