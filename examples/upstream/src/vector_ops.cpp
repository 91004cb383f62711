// Translation unit 1: kernels VecScale (reads the specialization constant
// scale) and VecAdd; defines the shared helper combine.
#include "sycl_shim.h"

static constexpr specialization_id<int> scale{3};

SYCL_EXTERNAL int combine(int a, int b) { return 2 * a + b; }

// out[i] = in[i] * scale
struct VecScale {
  void operator()(USM int *out, USM const int *in, USM char *sc_buf) const {
    size_t i = global_id();
    int s = __sycl_getScalar2020SpecConstantValue<int>(
        __builtin_sycl_unique_stable_name(decltype(scale)), &scale, sc_buf);
    out[i] = in[i] * s;
  }
};

// c[i] = clamp_to(combine(a[i], b[i]), 0, 100)
struct VecAdd {
  void operator()(USM int *c, USM const int *a, USM const int *b) const {
    size_t i = global_id();
    c[i] = clamp_to(combine(a[i], b[i]), 0, 100);
  }
};

void vector_ops(USM int *out, USM const int *in, USM const int *a, USM const int *b, USM char *sc_buf) {
  launch<VecScale>(out, in, sc_buf);
  launch<VecAdd>(out, a, b);
}
