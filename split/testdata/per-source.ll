; Per-source grouping: the translation unit and the optional features
; (aspects, required work-group size, …) make the key.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @plain() #0 {
  ret void
}

define spir_kernel void @fp64() #0 !sycl_used_aspects !1 {
  ret void
}

define spir_kernel void @aspects21() #0 !sycl_used_aspects !2 {
  ret void
}

define spir_kernel void @aspects12() #0 !sycl_used_aspects !3 {
  ret void
}

define spir_kernel void @wg8() #0 !reqd_work_group_size !4 {
  ret void
}

define spir_kernel void @wg8b() #0 !reqd_work_group_size !4 {
  ret void
}

define spir_kernel void @named() #0 !sycl_used_aspects !5 {
  ret void
}

define spir_kernel void @other() #1 {
  ret void
}

define spir_kernel void @sg16() #1 !intel_reqd_sub_group_size !8 {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-module-id"="b.cpp" "sycl-optlevel"="2" }

!1 = !{i32 6}
!2 = !{i32 2, i32 1}
!3 = !{i32 1, i32 2}
!4 = !{i32 8, i32 1, i32 1}
!5 = !{!6, !7}
!6 = !{!"fp16", i32 5}
!7 = !{!"int", i32 -1}
!8 = !{i32 16}
