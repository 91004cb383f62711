; Indirect calls depend on every "referenced-indirectly" function of the
; call's function type, and on nothing else.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @kA(ptr %fp) #0 {
entry:
  call spir_func void %fp(i32 1)
  ret void
}

define spir_kernel void @kB() #0 {
entry:
  %r = call spir_func i32 @other()
  ret void
}

define spir_func void @cand1(i32 %x) #1 {
  ret void
}

define spir_func void @cand2(i32 %x) #1 {
  ret void
}

define spir_func void @cand3(i64 %x) #1 {
  ret void
}

define spir_func void @plain(i32 %x) {
  ret void
}

define spir_func i32 @other() {
  ret i32 0
}

attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "referenced-indirectly" }
