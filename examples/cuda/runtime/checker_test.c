/* Host test of the GPU runtime's checker: builds an image's spec-constant
 * property sets as sycbuild's emulation mode writes them, fills the buffer
 * with overrides, lets a host model of each kernel read it at the offsets the
 * descriptors imply, and checks the results: right offsets must pass, a
 * deliberately wrong override offset must be caught. */
#include <stdio.h>
#include <string.h>

#include "speccheck.h"

static unsigned char arr_coeffs[8 + 12], arr_flag[8 + 12], arr_all[8 + 25];
static struct sycl_device_binary_property sc_props[2], dv_props[1];
static struct sycl_device_binary_property_set sets[2];

static void byte_array(struct sycl_device_binary_property *p, char *name, unsigned char *mem, const void *data, uint64_t n) {
  uint64_t bits = n * 8;
  memcpy(mem, &bits, 8);
  memcpy(mem + 8, data, n);
  *p = (struct sycl_device_binary_property){name, mem, SYCL_PROPERTY_TYPE_BYTE_ARRAY, 8 + n};
}

int main(void) {
  /* The k_coeffs image: uid_coeffs (ID 0, 24 bytes at 0), uid_flag (ID 1, 1 byte at 24). */
  uint32_t d_coeffs[3] = {0, 0, sizeof(struct Coeffs)}, d_flag[3] = {1, 0, 1};
  byte_array(&sc_props[0], "uid_coeffs", arr_coeffs, d_coeffs, 12);
  byte_array(&sc_props[1], "uid_flag", arr_flag, d_flag, 12);
  unsigned char defaults[25];
  memcpy(defaults, &spec_defaults.co, 24);
  defaults[24] = spec_defaults.flag;
  byte_array(&dv_props[0], "all", arr_all, defaults, 25);
  sets[0] = (struct sycl_device_binary_property_set){"SYCL/specialization constants", sc_props, sc_props + 2};
  sets[1] = (struct sycl_device_binary_property_set){"SYCL/specialization constants default values", dv_props, dv_props + 1};
  struct sycl_device_binary img = {0};
  img.PropertySetsBegin = sets;
  img.PropertySetsEnd = sets + 2;

  struct SpecLayout l;
  char err[256];
  if (!spec_layout(&img, &l, err, sizeof err) || l.total != 25 || l.c[1].offset != 24) {
    printf("FAIL layout: %s total %u\n", err, l.total);
    return 1;
  }
  const struct KernelInfo *k = kernel_info("_Z8k_coeffsPdPKc");
  struct SpecValues over = {42, {100, 'Q'}, {2.5f, -8.125, {-9, 'z'}}, false};
  int failures = 0;
  for (int skew = 0; skew <= 1; skew++) {
    unsigned char buf[64];
    double got[8], want[8];
    if (!spec_buffer(&l, &over, skew, buf, err, sizeof err)) {
      /* A skewed write that no longer fits is also a caught error. */
      printf("skew %d: rejected: %s\n", skew, err);
      failures += skew == 0;
      continue;
    }
    simulate_kernel(k, &l, buf, got);
    expected_out(k, &over, want);
    int bad = check_out(skew ? "wrong-offset" : "right-offset", k, got, want);
    printf("skew %d: %d mismatches\n", skew, bad);
    if ((skew == 0) != (bad == 0)) failures++;
  }
  /* A wrong offset that still fits: move the coeffs override by 4 bytes. */
  l.c[1].offset = 24; /* unchanged flag */
  unsigned char buf[64];
  memcpy(buf, l.defaults, l.total);
  memcpy(buf + 4, &over.co, 20); /* the struct written 4 bytes late, truncated to stay inside */
  buf[24] = over.flag;
  double got[8], want[8];
  simulate_kernel(k, &l, buf, got);
  expected_out(k, &over, want);
  int bad = check_out("shifted-struct", k, got, want);
  printf("shifted struct: %d mismatches\n", bad);
  if (bad == 0) failures++;
  printf(failures ? "checker test FAILED\n" : "checker test passed\n");
  return failures != 0;
}
