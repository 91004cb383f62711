; Aliases: a module that uses an alias gets it and what it points to.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

@table = internal addrspace(1) global [2 x i32] [i32 1, i32 2], align 4
@table_alias = internal alias [2 x i32], ptr addrspace(1) @table

@fn_alias = alias void (), ptr @impl

define spir_kernel void @usesAlias() #0 {
entry:
  call spir_func void @fn_alias()
  %v = load i32, ptr addrspace(1) @table_alias, align 4
  ret void
}

define spir_kernel void @noAlias() #0 {
entry:
  ret void
}

define spir_func void @impl() {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
