#include "speccheck.h"

#include <stdio.h>
#include <string.h>

const struct SpecValues spec_defaults = {7, {-3, 'x'}, {1.5f, 0.25, {4, 'y'}}, true};

static const struct sycl_device_binary_property_set *find_set(const struct sycl_device_binary *img, const char *name) {
  for (const struct sycl_device_binary_property_set *s = img->PropertySetsBegin; s && s != img->PropertySetsEnd; s++)
    if (strcmp(s->Name, name) == 0) return s;
  return NULL;
}

/* payload returns a byte-array property's bytes after the 8-byte bit count. */
static const unsigned char *payload(const struct sycl_device_binary_property *p, uint32_t *n) {
  if (p->Type != SYCL_PROPERTY_TYPE_BYTE_ARRAY || p->ValSize < 8) return NULL;
  uint64_t bits;
  memcpy(&bits, p->ValAddr, 8);
  if ((bits + 7) / 8 != p->ValSize - 8) return NULL;
  *n = (uint32_t)(p->ValSize - 8);
  return (const unsigned char *)p->ValAddr + 8;
}

bool spec_layout(const struct sycl_device_binary *img, struct SpecLayout *l, char *err, size_t errlen) {
  memset(l, 0, sizeof *l);
  const struct sycl_device_binary_property_set *s = find_set(img, "SYCL/specialization constants");
  if (!s) return true; /* the image uses no spec constants */
  uint32_t span[MAX_CONSTS];
  for (const struct sycl_device_binary_property *p = s->PropertiesBegin; p != s->PropertiesEnd; p++) {
    uint32_t n;
    const unsigned char *d = payload(p, &n);
    if (!d || n == 0 || n % 12 != 0 || l->n == MAX_CONSTS) {
      snprintf(err, errlen, "spec constant %s: bad descriptor array", p->Name);
      return false;
    }
    int i = l->n++;
    l->c[i].sym = p->Name;
    l->c[i].first_id = UINT32_MAX;
    span[i] = 0;
    for (uint32_t k = 0; k < n; k += 12) {
      uint32_t t[3];
      memcpy(t, d + k, 12);
      span[i] += t[2];
      if (t[0] != UINT32_MAX) {
        if (t[0] < l->c[i].first_id) l->c[i].first_id = t[0];
        l->c[i].size += t[2];
      }
    }
  }
  /* Offsets: constants in ID order, each after the previous one's span. */
  for (int i = 0; i < l->n; i++) {
    uint32_t off = 0;
    for (int j = 0; j < l->n; j++)
      if (l->c[j].first_id < l->c[i].first_id) off += span[j];
    l->c[i].offset = off;
    l->total += span[i];
  }
  const struct sycl_device_binary_property_set *dv = find_set(img, "SYCL/specialization constants default values");
  if (dv) {
    for (const struct sycl_device_binary_property *p = dv->PropertiesBegin; p != dv->PropertiesEnd; p++)
      if (strcmp(p->Name, "all") == 0) l->defaults = payload(p, &l->defaults_size);
  }
  if (!l->defaults || l->defaults_size != l->total) {
    snprintf(err, errlen, "default values: %u bytes, descriptors imply %u", l->defaults ? l->defaults_size : 0, l->total);
    return false;
  }
  return true;
}

static const void *value_of(const struct SpecValues *v, const char *sym, uint32_t *size, unsigned char *tmp) {
  if (strcmp(sym, "uid_int") == 0) { *size = sizeof v->i; return &v->i; }
  if (strcmp(sym, "uid_pair") == 0) { *size = sizeof v->pair; return &v->pair; }
  if (strcmp(sym, "uid_coeffs") == 0) { *size = sizeof v->co; return &v->co; }
  if (strcmp(sym, "uid_flag") == 0) { *size = 1; tmp[0] = v->flag; return tmp; }
  return NULL;
}

bool spec_buffer(const struct SpecLayout *l, const struct SpecValues *v, int skew, unsigned char *buf, char *err, size_t errlen) {
  memcpy(buf, l->defaults, l->total);
  for (int i = 0; i < l->n; i++) {
    uint32_t size;
    unsigned char tmp[1];
    const void *src = value_of(v, l->c[i].sym, &size, tmp);
    if (!src || size != l->c[i].size || l->c[i].offset + skew + size > l->total) {
      snprintf(err, errlen, "spec constant %s: size %u at offset %u does not fit", l->c[i].sym, l->c[i].size, l->c[i].offset);
      return false;
    }
    memcpy(buf + l->c[i].offset + skew, src, size);
  }
  return true;
}

static const struct KernelInfo kernels[] = {
    {"_Z8k_scalarPiPKc", K_SCALAR, OUT_INT, 4, 4},
    {"_Z6k_pairPiPKc", K_PAIR, OUT_INT, 3, 1},
    {"_Z8k_coeffsPdPKc", K_COEFFS, OUT_DOUBLE, 5, 1},
};

const struct KernelInfo *kernel_info(const char *mangled) {
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
    if (strcmp(kernels[i].name, mangled) == 0) return &kernels[i];
  return NULL;
}

static int helper(int v) { return v * 2 + 1; } /* tu1.cu's helper */

void expected_out(const struct KernelInfo *k, const struct SpecValues *v, void *out) {
  int *oi = out;
  double *od = out;
  switch (k->id) {
  case K_SCALAR:
    for (int t = 0; t < k->threads; t++) oi[t] = helper(v->i);
    break;
  case K_PAIR:
    oi[0] = v->pair.a, oi[1] = (signed char)v->pair.b, oi[2] = helper(v->pair.a);
    break;
  case K_COEFFS:
    od[0] = v->co.scale, od[1] = v->co.offset, od[2] = v->co.p.a, od[3] = (signed char)v->co.p.b;
    od[4] = v->flag ? 1.0 : 0.0;
  }
}

void simulate_kernel(const struct KernelInfo *k, const struct SpecLayout *l, const unsigned char *buf, void *out) {
  struct SpecValues v = spec_defaults;
  for (int i = 0; i < l->n; i++) {
    uint32_t size;
    unsigned char tmp[1];
    void *dst = (void *)value_of(&v, l->c[i].sym, &size, tmp);
    if (strcmp(l->c[i].sym, "uid_flag") == 0) v.flag = buf[l->c[i].offset] != 0;
    else if (dst) memcpy(dst, buf + l->c[i].offset, size);
  }
  expected_out(k, &v, out);
}

int check_out(const char *what, const struct KernelInfo *k, const void *got, const void *want) {
  int bad = 0;
  for (int i = 0; i < k->out_count; i++) {
    if (k->kind == OUT_INT) {
      int g = ((const int *)got)[i], w = ((const int *)want)[i];
      if (g != w) bad++, printf("MISMATCH %s %s out[%d] = %d, want %d\n", what, k->name, i, g, w);
    } else {
      double g = ((const double *)got)[i], w = ((const double *)want)[i];
      if (g != w) bad++, printf("MISMATCH %s %s out[%d] = %g, want %g\n", what, k->name, i, g, w);
    }
  }
  return bad;
}
