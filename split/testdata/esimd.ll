; A SYCL kernel and an ESIMD kernel of one translation unit that share a
; helper; -split-esimd separates them.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @syclK() #0 {
entry:
  call spir_func void @shared()
  ret void
}

define spir_kernel void @esimdK() #0 !sycl_explicit_simd !0 {
entry:
  call spir_func void @shared()
  call spir_func void @esimdHelper()
  ret void
}

define spir_func void @esimdHelper() !sycl_explicit_simd !0 {
  ret void
}

define spir_func void @shared() {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }

!0 = !{}
