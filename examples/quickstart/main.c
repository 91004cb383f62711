/*
 * The quickstart's host program. In a real application the SYCL runtime
 * defines __sycl_register_lib and __sycl_unregister_lib; here this program
 * does, and prints what the object sycbuild wrote hands it when the program
 * starts: one device image per split module per target, each with its
 * target, format, kernels (offload entries) and property sets.
 *
 * The structs are the runtime's (sycl/include/sycl/detail/compiler.hpp),
 * written in C for an LP64 host.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct sycl_offload_entry {
  void *addr;
  char *name;
  size_t size;
  int32_t flags;
  int32_t reserved;
};

struct sycl_device_binary_property {
  char *Name;
  void *ValAddr; /* byte arrays: 8-byte size in bits, then the bytes */
  uint32_t Type; /* 1 uint32 (the value is ValSize), 2 byte array, 3 string */
  uint64_t ValSize;
};

struct sycl_device_binary_property_set {
  char *Name;
  struct sycl_device_binary_property *PropertiesBegin;
  struct sycl_device_binary_property *PropertiesEnd;
};

struct sycl_device_binary {
  uint16_t Version;
  uint8_t Kind;   /* 4: SYCL */
  uint8_t Format; /* 0 none, 1 native, 2 SPIR-V, 3 LLVM bitcode, 4 compressed */
  const char *DeviceTargetSpec;
  const char *CompileOptions;
  const char *LinkOptions;
  const unsigned char *ManifestStart;
  const unsigned char *ManifestEnd;
  const unsigned char *BinaryStart;
  const unsigned char *BinaryEnd;
  struct sycl_offload_entry *EntriesBegin;
  struct sycl_offload_entry *EntriesEnd;
  struct sycl_device_binary_property_set *PropertySetsBegin;
  struct sycl_device_binary_property_set *PropertySetsEnd;
};

struct sycl_device_binaries {
  uint16_t Version;
  uint16_t NumDeviceBinaries;
  struct sycl_device_binary *DeviceBinaries;
  struct sycl_offload_entry *HostEntriesBegin;
  struct sycl_offload_entry *HostEntriesEnd;
};

_Static_assert(sizeof(struct sycl_device_binary) == 96, "the runtime's image struct layout");
_Static_assert(sizeof(struct sycl_device_binaries) == 32, "the runtime's descriptor layout");

static const char *format_name(uint8_t f) {
  static const char *names[] = {"none", "native", "SPIR-V", "LLVM bitcode", "compressed"};
  return f < 5 ? names[f] : "unknown";
}

/* what the image bytes are, from their first bytes */
static const char *content(const unsigned char *b, size_t n) {
  if (n >= 4 && b[0] == 0x03 && b[1] == 0x02 && b[2] == 0x23 && b[3] == 0x07)
    return "a SPIR-V module";
  if (n >= 8 && memcmp(b, "!<arch>\n", 8) == 0)
    return "an ocloc fat binary (one ISA per device)";
  if (n >= 4 && b[0] == 0x50 && b[1] == 0xed && b[2] == 0x55 && b[3] == 0xba)
    return "a CUDA fat binary (cubin and PTX)";
  if (n >= 4 && memcmp(b, "\x7f" "ELF", 4) == 0)
    return "an ELF device binary";
  if (n >= 4 && memcmp(b, "BC\xc0\xde", 4) == 0)
    return "LLVM bitcode";
  while (n > 0 && (*b == '\n' || *b == ' ')) {
    b++;
    n--;
  }
  if (n > 0 && strchr(";st%@d", *b))
    return "LLVM IR text";
  return "data";
}

static unsigned images_seen;

void __sycl_register_lib(struct sycl_device_binaries *desc) {
  printf("__sycl_register_lib: descriptor version %u, %u device images\n", desc->Version, desc->NumDeviceBinaries);
  for (unsigned i = 0; i < desc->NumDeviceBinaries; i++) {
    struct sycl_device_binary *img = &desc->DeviceBinaries[i];
    size_t n = (size_t)(img->BinaryEnd - img->BinaryStart);
    printf("image %u: target %s, format %s, %zu bytes: %s\n", i, img->DeviceTargetSpec,
           format_name(img->Format), n, content(img->BinaryStart, n));
    printf("  kernels:");
    for (struct sycl_offload_entry *e = img->EntriesBegin; e != img->EntriesEnd; e++)
      printf(" %s", e->name);
    printf("\n");
    for (struct sycl_device_binary_property_set *s = img->PropertySetsBegin; s != img->PropertySetsEnd; s++) {
      if (strcmp(s->Name, "SYCL/specialization constants") == 0) {
        printf("  spec constants:");
        for (struct sycl_device_binary_property *p = s->PropertiesBegin; p != s->PropertiesEnd; p++)
          printf(" %s", p->Name);
        printf("\n");
      } else if (strcmp(s->Name, "SYCL/specialization constants default values") == 0) {
        for (struct sycl_device_binary_property *p = s->PropertiesBegin; p != s->PropertiesEnd; p++)
          printf("  spec constant defaults: %llu bytes\n", (unsigned long long)(p->ValSize - 8));
      }
    }
    images_seen++;
  }
}

void __sycl_unregister_lib(struct sycl_device_binaries *desc) {
  printf("__sycl_unregister_lib: %u device images\n", desc->NumDeviceBinaries);
}

int main(void) {
  printf("main: %u device images were registered before main\n", images_seen);
  return images_seen ? 0 : 1;
}
