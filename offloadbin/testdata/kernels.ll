; Two SPIR kernels and a helper, the input of the clang-sycl-linker test.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

define spir_func i32 @helper(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}

define spir_kernel void @_ZTS5Alpha(ptr addrspace(1) %p) {
  %v = load i32, ptr addrspace(1) %p, align 4
  %w = call spir_func i32 @helper(i32 %v)
  store i32 %w, ptr addrspace(1) %p, align 4
  ret void
}

define spir_kernel void @_ZTS4Beta(ptr addrspace(1) %p) {
  store i32 7, ptr addrspace(1) %p, align 4
  ret void
}
