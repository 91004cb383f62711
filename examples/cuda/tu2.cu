#include "sycl_shim.h"
__device__ const specialization_id<bool> sc_flag{true};
__device__ const specialization_id<Coeffs> sc_coeffs{{1.5f, 0.25, {4, 'y'}}};
__global__ void k_coeffs(double *out, const char *sc) {
  Coeffs c = __sycl_getComposite2020SpecConstantValue<Coeffs>("uid_coeffs", &sc_coeffs, sc);
  bool f = __sycl_getScalar2020SpecConstantValue<bool>("uid_flag", &sc_flag, sc);
  out[0] = c.scale; out[1] = c.offset; out[2] = c.p.a; out[3] = c.p.b; out[4] = f ? 1.0 : 0.0;
}
