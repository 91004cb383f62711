/* The host side of the GPU test: reads an image's spec-constant property sets,
 * builds the emulated spec-constant buffer (defaults, then overrides at the
 * offsets the descriptors imply), and checks what a kernel wrote against what
 * the host meant to pass. No CUDA here, so it is tested on any host. */
#ifndef SPECCHECK_H
#define SPECCHECK_H
#include <stdbool.h>
#include "sycl_abi.h"

/* The spec constants of the example (sycl_shim.h, tu1.cu, tu2.cu), in C. */
struct Pair { int a; char b; };
struct Coeffs { float scale; double offset; struct Pair p; };
struct SpecValues {
  int i;             /* "uid_int" */
  struct Pair pair;  /* "uid_pair" */
  struct Coeffs co;  /* "uid_coeffs" */
  bool flag;         /* "uid_flag" */
};
extern const struct SpecValues spec_defaults;

#define MAX_CONSTS 16
struct SpecLayout {
  int n;
  struct { const char *sym; uint32_t first_id, offset, size; } c[MAX_CONSTS];
  uint32_t total;                 /* buffer size implied by the descriptors */
  const unsigned char *defaults;  /* default-value bytes, or NULL */
  uint32_t defaults_size;
};

/* spec_layout reads the image's "SYCL/specialization constants" and
 * "SYCL/specialization constants default values" sets. The offset of a
 * constant is the sum of the sizes (padding descriptors included) of the
 * constants with smaller IDs. Returns false with a message in err. */
bool spec_layout(const struct sycl_device_binary *img, struct SpecLayout *l, char *err, size_t errlen);

/* spec_buffer fills buf (l->total bytes) with the defaults, then writes each
 * value of v whose constant the image uses at its offset (+ skew bytes, to
 * test the checker with a wrong offset). */
bool spec_buffer(const struct SpecLayout *l, const struct SpecValues *v, int skew, unsigned char *buf, char *err, size_t errlen);

/* Kernels of the example, by mangled name; out_count is how many values the
 * kernel writes (ints or doubles). */
enum OutKind { OUT_INT, OUT_DOUBLE };
enum KernelId { K_SCALAR, K_PAIR, K_COEFFS };
struct KernelInfo { const char *name; enum KernelId id; enum OutKind kind; int out_count; int threads; };
const struct KernelInfo *kernel_info(const char *mangled);

/* expected_out computes what the kernel must write for values v. */
void expected_out(const struct KernelInfo *k, const struct SpecValues *v, void *out);

/* simulate_kernel computes on the host what the kernel writes reading the
 * buffer at the offsets of layout l (the device's view of the buffer). */
void simulate_kernel(const struct KernelInfo *k, const struct SpecLayout *l, const unsigned char *buf, void *out);

/* check_out compares; prints one line per mismatch; returns the count. */
int check_out(const char *what, const struct KernelInfo *k, const void *got, const void *want);
#endif
