// The little of a SYCL implementation's headers that the example needs, as
// clang-22's SYCL device front end sees it for AMD GPUs: USM pointers in the
// global address space, the specialization-constant builtin that DPC++'s
// headers call, the work-item id (from the AMDGPU builtins, which DPC++'s
// libspirv provides for AMD), and a kernel launcher marked with
// [[clang::sycl_kernel_entry_point]] whose parameters become the kernel's.
#pragma once

#define SYCL_EXTERNAL [[clang::sycl_external]]
#ifdef __SYCL_DEVICE_ONLY__
#define USM __attribute__((opencl_global))
#else
#define USM
#endif

typedef unsigned long size_t;

template <typename T> struct specialization_id {
  T DefaultValue;
};

template <typename T>
T __sycl_getScalar2020SpecConstantValue(const char *id, const void *def, const void *buf);

inline size_t global_id() {
  return __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
         __builtin_amdgcn_workitem_id_x();
}

template <typename KernelName, typename... Args>
[[clang::sycl_kernel_entry_point(KernelName)]] void launch(Args... args) {
  KernelName()(args...);
}
