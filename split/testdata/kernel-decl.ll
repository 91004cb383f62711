; A kernel that is only declared is no entry point; its spirv.ExecutionMode
; entry goes with it.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k0() #0 {
entry:
  ret void
}

define spir_kernel void @k1() #1 {
entry:
  ret void
}

declare spir_kernel void @kdecl() #1

attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-module-id"="b.cpp" }

!spirv.ExecutionMode = !{!0, !1, !2}
!0 = !{ptr @k0, i32 17, i32 1, i32 1, i32 1}
!1 = !{ptr @k1, i32 17, i32 2, i32 1, i32 1}
!2 = !{ptr @kdecl, i32 17, i32 4, i32 1, i32 1}
