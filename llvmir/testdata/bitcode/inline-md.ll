; Metadata attachments written in place (!kind !{…}, !kind !DIxxx(…)) on a
; global, a function and an instruction, beside numbered ones.
source_filename = "inline-md.c"

@g = global i32 0, !spirv.Decorations !{!{i32 6147, i32 0, !"_Z1g"}}
@h = global i32 1, !spirv.Decorations !0

define void @f(ptr %p) !sycl_explicit_simd !{} !intel_reqd_sub_group_size !{i32 1} {
entry:
  store i32 1, ptr %p, align 4, !tbaa !{!"int", !1}
  ret void
}

!0 = !{!{i32 6147, i32 0, !"_Z1h"}}
!1 = !{!"omnipotent char"}
