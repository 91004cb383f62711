; Comdats: a one-member comdat of a function both kernels use goes into
; both modules; a comdat with a variable stays external; members of a
; larger comdat become "nodeduplicate".
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

$shared = comdat any
$withvar = comdat any
$pair = comdat any

@withvar = linkonce_odr addrspace(1) global i32 7, comdat, align 4

define spir_kernel void @k1() #0 {
entry:
  %r = call spir_func i32 @shared(i32 1)
  call spir_func void @p1()
  call spir_func void @p2()
  ret void
}

define spir_kernel void @k2() #0 {
entry:
  %r = call spir_func i32 @shared(i32 2)
  %v = call spir_func i32 @withvarfn()
  ret void
}

define linkonce_odr spir_func i32 @shared(i32 %x) comdat {
  ret i32 %x
}

define linkonce_odr spir_func i32 @withvarfn() comdat($withvar) {
  %v = load i32, ptr addrspace(1) @withvar, align 4
  ret i32 %v
}

define linkonce_odr spir_func void @p1() comdat($pair) {
  ret void
}

define linkonce_odr spir_func void @p2() comdat($pair) {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
