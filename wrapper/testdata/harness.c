/*
 * Test harness for wrapper objects: stands in for the SYCL runtime's
 * __sycl_register_lib / __sycl_unregister_lib, is linked with a wrapper
 * object, and prints every field of every device image it is handed.
 *
 * The struct definitions are the runtime's (sycl/include/sycl/detail/
 * compiler.hpp), written in C; the static assertions pin the LP64 layout the
 * wrapper writes (the struct types of wrapper/descriptor.go).
 *
 * Output, one line per item (strings printed with \xHH for bytes outside
 * printable ASCII, '"' and '\'):
 *   register <n> version=<v> images=<n> host_entries=<null|set>,<null|set>
 *   image <i> version=<v> kind=<k> format=<f>
 *    target "<s>" / compile_opts "<s>" / link_opts "<s>"
 *    manifest none | manifest size=<n> bytes=<hex>
 *    data size=<n> fnv1a64=<hex>
 *    entries none | entries <n>, then per entry
 *      entry <j> addr=<null|set> name="<s>" size=<n> flags=<n> reserved=<n>
 *    propsets none | propsets <n>, then per set and property
 *      propset <k> name="<s>" props=<n>
 *       prop name="<s>" type=<t> size=<n> value=<null|hex>
 *   main
 *   unregister <n> same_descriptor=<0|1>
 * Inconsistent pointers (end before begin, one of a pair null) print
 * "ERROR ..." and exit 2.
 *
 * Compiled with -DHARNESS_DESC='"<symbol>"', main registers and unregisters
 * the global descriptor of that name itself (objects without registration
 * functions).
 *
 * With HARNESS_IMAGE_STEM set, image i's bytes are also written to the file
 * $HARNESS_IMAGE_STEM.<i> (images of all registered descriptors numbered in
 * order), as clang-offload-extract --stem does.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct _sycl_offload_entry_struct {
  void *addr;
  char *name;
  size_t size;
  int32_t flags;
  int32_t reserved;
};
typedef struct _sycl_offload_entry_struct *sycl_offload_entry;

struct _sycl_device_binary_property_struct {
  char *Name;
  void *ValAddr;
  uint32_t Type;
  uint64_t ValSize;
};
typedef struct _sycl_device_binary_property_struct *sycl_device_binary_property;

struct _sycl_device_binary_property_set_struct {
  char *Name;
  sycl_device_binary_property PropertiesBegin;
  sycl_device_binary_property PropertiesEnd;
};
typedef struct _sycl_device_binary_property_set_struct *sycl_device_binary_property_set;

struct sycl_device_binary_struct {
  uint16_t Version;
  uint8_t Kind;
  uint8_t Format;
  const char *DeviceTargetSpec;
  const char *CompileOptions;
  const char *LinkOptions;
  const unsigned char *ManifestStart;
  const unsigned char *ManifestEnd;
  const unsigned char *BinaryStart;
  const unsigned char *BinaryEnd;
  sycl_offload_entry EntriesBegin;
  sycl_offload_entry EntriesEnd;
  sycl_device_binary_property_set PropertySetsBegin;
  sycl_device_binary_property_set PropertySetsEnd;
};
typedef struct sycl_device_binary_struct *sycl_device_binary;

struct sycl_device_binaries_struct {
  uint16_t Version;
  uint16_t NumDeviceBinaries;
  sycl_device_binary DeviceBinaries;
  sycl_offload_entry *HostEntriesBegin;
  sycl_offload_entry *HostEntriesEnd;
};
typedef struct sycl_device_binaries_struct *sycl_device_binaries;

_Static_assert(sizeof(struct _sycl_offload_entry_struct) == 32, "entry size");
_Static_assert(offsetof(struct _sycl_offload_entry_struct, flags) == 24, "entry flags");
_Static_assert(sizeof(struct _sycl_device_binary_property_struct) == 32, "property size");
_Static_assert(offsetof(struct _sycl_device_binary_property_struct, ValSize) == 24, "property ValSize");
_Static_assert(sizeof(struct _sycl_device_binary_property_set_struct) == 24, "property set size");
_Static_assert(sizeof(struct sycl_device_binary_struct) == 96, "image size");
_Static_assert(offsetof(struct sycl_device_binary_struct, DeviceTargetSpec) == 8, "image target");
_Static_assert(offsetof(struct sycl_device_binary_struct, BinaryStart) == 48, "image start");
_Static_assert(offsetof(struct sycl_device_binary_struct, PropertySetsEnd) == 88, "image property sets");
_Static_assert(sizeof(struct sycl_device_binaries_struct) == 32, "descriptor size");
_Static_assert(offsetof(struct sycl_device_binaries_struct, DeviceBinaries) == 8, "descriptor images");

/* qstr prints s quoted, or null. */
static void qstr(const char *s) {
  if (!s) {
    printf("null");
    return;
  }
  putchar('"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\\')
      printf("\\x%02x", *p);
    else
      putchar(*p);
  }
  putchar('"');
}

static void str(const char *label, const char *s) {
  printf(" %s ", label);
  qstr(s);
  printf("\n");
}

static void hex(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    printf("%02x", p[i]);
}

static void fail(const char *what, unsigned i) {
  printf("ERROR image %u: %s\n", i, what);
  fflush(stdout);
  exit(2);
}

/* pair checks that begin/end are both null or both set, end >= begin. */
static int pair(const void *b, const void *e, const char *what, unsigned i) {
  if ((b == NULL) != (e == NULL))
    fail(what, i);
  if (b && (const char *)e < (const char *)b)
    fail(what, i);
  return b != NULL;
}

static unsigned registered, dumped;
static sycl_device_binaries first;

static void dump_image(sycl_device_binary img, unsigned i) {
  printf("image %u version=%u kind=%u format=%u\n", i, img->Version, img->Kind, img->Format);
  str("target", img->DeviceTargetSpec);
  str("compile_opts", img->CompileOptions);
  str("link_opts", img->LinkOptions);
  if (pair(img->ManifestStart, img->ManifestEnd, "manifest", i)) {
    size_t n = img->ManifestEnd - img->ManifestStart;
    printf(" manifest size=%zu bytes=", n);
    hex(img->ManifestStart, n);
    printf("\n");
  } else {
    printf(" manifest none\n");
  }
  if (!img->BinaryStart || img->BinaryEnd < img->BinaryStart)
    fail("image bounds", i);
  size_t n = img->BinaryEnd - img->BinaryStart;
  uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, 64 bits */
  for (size_t k = 0; k < n; k++) {
    h ^= img->BinaryStart[k];
    h *= 0x100000001b3ull;
  }
  printf(" data size=%zu fnv1a64=%016llx\n", n, (unsigned long long)h);
  const char *stem = getenv("HARNESS_IMAGE_STEM");
  if (stem) {
    char path[4096];
    snprintf(path, sizeof path, "%s.%u", stem, dumped);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(img->BinaryStart, 1, n, f) != n || fclose(f) != 0)
      fail("cannot write the image file", i);
  }
  dumped++;
  if (pair(img->EntriesBegin, img->EntriesEnd, "entries", i)) {
    printf(" entries %zu\n", (size_t)(img->EntriesEnd - img->EntriesBegin));
    for (sycl_offload_entry e = img->EntriesBegin; e != img->EntriesEnd; e++) {
      printf(" entry %zu addr=%s name=", (size_t)(e - img->EntriesBegin), e->addr ? "set" : "null");
      qstr(e->name);
      printf(" size=%zu flags=%d reserved=%d\n", e->size, e->flags, e->reserved);
    }
  } else {
    printf(" entries none\n");
  }
  if (pair(img->PropertySetsBegin, img->PropertySetsEnd, "property sets", i)) {
    printf(" propsets %zu\n", (size_t)(img->PropertySetsEnd - img->PropertySetsBegin));
    for (sycl_device_binary_property_set s = img->PropertySetsBegin; s != img->PropertySetsEnd; s++) {
      pair(s->PropertiesBegin, s->PropertiesEnd, "properties", i);
      printf(" propset %zu name=", (size_t)(s - img->PropertySetsBegin));
      qstr(s->Name);
      printf(" props=%zu\n", (size_t)(s->PropertiesEnd - s->PropertiesBegin));
      for (sycl_device_binary_property p = s->PropertiesBegin; p != s->PropertiesEnd; p++) {
        printf("  prop name=");
        qstr(p->Name);
        printf(" type=%u size=%llu value=", p->Type, (unsigned long long)p->ValSize);
        if (p->ValAddr)
          hex(p->ValAddr, p->ValSize);
        else
          printf("null");
        printf("\n");
      }
    }
  } else {
    printf(" propsets none\n");
  }
}

void __sycl_register_lib(sycl_device_binaries desc) {
  if (!first)
    first = desc;
  printf("register %u version=%u images=%u host_entries=%s,%s\n", registered++, desc->Version,
         desc->NumDeviceBinaries, desc->HostEntriesBegin ? "set" : "null",
         desc->HostEntriesEnd ? "set" : "null");
  for (unsigned i = 0; i < desc->NumDeviceBinaries; i++)
    dump_image(&desc->DeviceBinaries[i], i);
}

static unsigned unregistered;

void __sycl_unregister_lib(sycl_device_binaries desc) {
  printf("unregister %u same_descriptor=%d\n", unregistered++, desc == first);
  fflush(stdout);
}

#ifdef HARNESS_DESC
/* A descriptor made global with -desc-name, registered by main itself. */
extern struct sycl_device_binaries_struct harness_desc __asm__(HARNESS_DESC);
#endif

int main(void) {
  printf("main\n");
#ifdef HARNESS_DESC
  __sycl_register_lib(&harness_desc);
  __sycl_unregister_lib(&harness_desc);
#endif
  return 0;
}
