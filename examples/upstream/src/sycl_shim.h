// The little of a SYCL implementation's headers that the example needs, as
// clang-22's SYCL device front end sees it: SYCL_EXTERNAL, USM pointers in
// the global address space, the specialization-constant builtin that DPC++'s
// headers call, the work-item id, and a kernel launcher marked with
// [[clang::sycl_kernel_entry_point]] whose parameters become the kernel's.
#pragma once

#define SYCL_EXTERNAL [[clang::sycl_external]]
// On the host (clang++ -fsycl compiles every source for both sides) a USM
// pointer is a plain pointer: the host has no global address space.
#ifdef __SYCL_DEVICE_ONLY__
#define USM __attribute__((opencl_global))
#else
#define USM
#endif

typedef unsigned long size_t;

template <typename T> struct specialization_id {
  T DefaultValue;
};

// DPC++'s headers read a specialization constant through this builtin: its
// unique name, the address of its specialization_id, and the kernel's
// spec-constant buffer (used when the constants are emulated).
template <typename T>
T __sycl_getScalar2020SpecConstantValue(const char *id, const void *def, const void *buf);

extern "C" size_t __spirv_BuiltInGlobalInvocationId(int dim);

inline size_t global_id() { return __spirv_BuiltInGlobalInvocationId(0); }

// launch<K>(args...) runs the kernel functor K; the device compiler makes an
// entry point named after K whose parameters are args.
template <typename KernelName, typename... Args>
[[clang::sycl_kernel_entry_point(KernelName)]] void launch(Args... args) {
  KernelName()(args...);
}

// Defined in vector_ops.cpp, used by kernels of both translation units.
SYCL_EXTERNAL int combine(int a, int b);
// Defined in image_ops.cpp, used by kernels of both translation units.
SYCL_EXTERNAL int clamp_to(int v, int lo, int hi);
