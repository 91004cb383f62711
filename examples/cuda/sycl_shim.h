#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
template <typename T> __device__ T __sycl_getScalar2020SpecConstantValue(const char *, const void *, const void *);
template <typename T> __device__ T __sycl_getComposite2020SpecConstantValue(const char *, const void *, const void *);
template <typename T> struct specialization_id { T DefaultValue; };
struct Pair { int a; char b; };
struct Coeffs { float scale; double offset; Pair p; };
