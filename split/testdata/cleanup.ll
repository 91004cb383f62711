; Cleanup of the named metadata that lists kernels, llvm.used, and
; internalization of what is not an entry point.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

@llvm.used = appending global [2 x ptr] [ptr @k1, ptr @k2], section "llvm.metadata"
@dg = addrspace(1) global i32 0, align 4 #2
@llvm.compiler.used = appending global [2 x ptr addrspace(4)] [ptr addrspace(4) addrspacecast (ptr addrspace(1) @dg to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr @keepme to ptr addrspace(4))], section "llvm.metadata"

define spir_kernel void @k1() #0 {
entry:
  call spir_func void @callsMissing()
  ret void
}

define spir_kernel void @k2() #1 {
entry:
  ret void
}

define spir_func void @callsMissing() {
  call spir_func void @missing()
  call spir_func void @llvm.donothing()
  call spir_func void @__builtin_hidden()
  ret void
}

define spir_func void @keepme() {
  ret void
}

declare spir_func void @missing()
declare void @llvm.donothing()
declare spir_func void @__builtin_hidden()

attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-module-id"="b.cpp" }
attributes #2 = { "sycl-device-global-size"="4" "sycl-unique-id"="dg_uid" }

!sycl_registered_kernels = !{!0}
!0 = !{!1, !2}
!1 = !{!"first", !"k1"}
!2 = !{!"second", !"k2"}
