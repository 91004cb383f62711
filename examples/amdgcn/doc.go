// Package amdgcn is device code for AMD GPUs from clang-22's SYCL front end
// (src/amd_ops.cpp, `clang-22 -cc1 -triple amdgcn-amd-amdhsa -target-cpu
// gfx90a -fsycl-is-device`, make-device.sh writes device.ll): two kernels,
// one reading a specialization constant, the work-item id from the AMDGPU
// builtins. targets.yaml builds it for `kind: amdgcn, arch: gfx90a` as
// DPC++'s HIP target does: per module llc-22 (amdgcn-amd-amdhsa object),
// ld.lld-22 (code object), clang-offload-bundler-22 (the HIP offload
// bundle the SYCL HIP adapter loads), registered with target "amdgcn" and
// compile options "--offload-arch=gfx90a".
//
// Its tests (go test ./examples/amdgcn) check device.ll against the front
// end, and the build: every code object's notes (llvm-readobj-22 --notes)
// hold its kernel's metadata and descriptor symbol for gfx90a, its code
// disassembles (llvm-objdump-22 -d), each bundle unbundles to that code
// object, and the output object registers one image per kernel with its
// property sets. No AMD GPU is here: no kernel has been run.
package amdgcn
