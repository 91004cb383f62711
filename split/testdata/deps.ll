; With -allow-device-image-dependencies a SYCL_EXTERNAL function of another
; translation unit is imported, not copied.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k() #0 {
entry:
  call spir_func void @_Z3extv()
  call spir_func void @_Z8__hiddenv()
  call spir_func void @local()
  ret void
}

define spir_func void @_Z3extv() #1 {
  ret void
}

define spir_func void @_Z8__hiddenv() #1 {
  ret void
}

define spir_func void @local() {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-module-id"="b.cpp" }
