// Two kernels for AMD GPUs: Scale reads a specialization constant (emulated
// on ahead-of-time targets: a load from the kernel's buffer argument), Saxpy
// calls a helper.
#include "amd_shim.h"

static constexpr specialization_id<float> factor{2.0f};

SYCL_EXTERNAL float fma_(float a, float x, float y) { return a * x + y; }

struct Scale {
  void operator()(USM float *out, USM const float *in, USM char *sc_buf) const {
    size_t i = global_id();
    float f = __sycl_getScalar2020SpecConstantValue<float>(
        __builtin_sycl_unique_stable_name(decltype(factor)), &factor, sc_buf);
    out[i] = in[i] * f;
  }
};

struct Saxpy {
  void operator()(USM float *y, USM const float *x, float a) const {
    size_t i = global_id();
    y[i] = fma_(a, x[i], y[i]);
  }
};

void amd_ops(USM float *out, USM const float *in, USM char *sc_buf, float a) {
  launch<Scale>(out, in, sc_buf);
  launch<Saxpy>(out, in, a);
}
