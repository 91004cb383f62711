#include "sycl_shim.h"
__device__ const specialization_id<int> sc_int{7};
__device__ const specialization_id<Pair> sc_pair{{-3, 'x'}};
__device__ __attribute__((noinline)) int helper(int v) { return v * 2 + 1; }
__global__ void k_scalar(int *out, const char *sc) {
  int v = __sycl_getScalar2020SpecConstantValue<int>("uid_int", &sc_int, sc);
  out[__nvvm_read_ptx_sreg_tid_x()] = helper(v);
}
__global__ void k_pair(int *out, const char *sc) {
  Pair p = __sycl_getComposite2020SpecConstantValue<Pair>("uid_pair", &sc_pair, sc);
  out[0] = p.a; out[1] = p.b; out[2] = helper(p.a);
}
