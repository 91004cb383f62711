; Virtual functions ("indirectly-callable") and a vtable: the module of
; the set's own entry points keeps their bodies, the others declare them.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

@vtable = linkonce_odr addrspace(1) constant { [3 x ptr addrspace(4)] } { [3 x ptr addrspace(4)] [ptr addrspace(4) null, ptr addrspace(4) addrspacecast (ptr @vfoo to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr @vbar to ptr addrspace(4))] }, align 8

define spir_kernel void @construct(ptr addrspace(1) %obj) #0 {
entry:
  store ptr addrspace(1) getelementptr inbounds inrange(-8, 16) ({ [3 x ptr addrspace(4)] }, ptr addrspace(1) @vtable, i32 0, i32 0, i32 1), ptr addrspace(1) %obj, align 8
  ret void
}

define linkonce_odr spir_func void @vfoo() #1 {
  ret void
}

define linkonce_odr spir_func void @vbar() #1 {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" "calls-indirectly"="set-foo" }
attributes #1 = { "sycl-module-id"="a.cpp" "indirectly-callable"="set-foo" }
