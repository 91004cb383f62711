/*
 * The host program of the Bazel example. It stands in for the SYCL runtime
 * too: libsycl defines __sycl_register_lib, which the object sycbuild wrote
 * calls before main. main prints the device images: target and kernels.
 *
 * The structs are the leading part of the runtime's
 * (sycl/include/sycl/detail/compiler.hpp), for an LP64 host.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sycl_offload_entry {
  void *addr;
  char *name;
  size_t size;
  int32_t flags;
  int32_t reserved;
};

struct sycl_device_binary {
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
  struct sycl_offload_entry *EntriesBegin;
  struct sycl_offload_entry *EntriesEnd;
  void *PropertySetsBegin;
  void *PropertySetsEnd;
};

struct sycl_device_binaries {
  uint16_t Version;
  uint16_t NumDeviceBinaries;
  struct sycl_device_binary *DeviceBinaries;
  struct sycl_offload_entry *HostEntriesBegin;
  struct sycl_offload_entry *HostEntriesEnd;
};

_Static_assert(sizeof(struct sycl_device_binary) == 96, "the runtime's image struct layout");

static const struct sycl_device_binaries *registered;

void __sycl_register_lib(struct sycl_device_binaries *desc) { registered = desc; }

void __sycl_unregister_lib(struct sycl_device_binaries *desc) { (void)desc; }

int main(void) {
  if (registered == NULL) {
    printf("no device images were registered\n");
    return 1;
  }
  printf("%u device images\n", registered->NumDeviceBinaries);
  for (unsigned i = 0; i < registered->NumDeviceBinaries; i++) {
    const struct sycl_device_binary *img = &registered->DeviceBinaries[i];
    printf("%s:", img->DeviceTargetSpec);
    for (const struct sycl_offload_entry *e = img->EntriesBegin; e != img->EntriesEnd; e++)
      printf(" %s", e->name);
    printf("\n");
  }
  return 0;
}
