; LLVM 15 IR with typed pointers: an indirect call, a call through a
; bitcast (a direct call) and a constant-expression use of a global.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

@gv = internal addrspace(1) global i32 0, align 4

define spir_kernel void @kA(void (i32)* %fp) #0 {
entry:
  call spir_func void %fp(i32 1)
  ret void
}

define spir_kernel void @kB() #0 {
entry:
  call spir_func void bitcast (void (i64)* @viaCast to void (i32)*)(i32 2)
  %v = load i32, i32 addrspace(4)* addrspacecast (i32 addrspace(1)* @gv to i32 addrspace(4)*), align 4
  ret void
}

define spir_func void @cand(i32 %x) #1 {
  ret void
}

define spir_func void @viaCast(i64 %x) {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "referenced-indirectly" }
