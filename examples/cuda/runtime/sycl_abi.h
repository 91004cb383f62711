/* The SYCL runtime's device-binary descriptor, as the offload wrapper lays it
 * out (image struct version 2, binary descriptor version 1). */
#ifndef SYCL_ABI_H
#define SYCL_ABI_H
#include <stddef.h>
#include <stdint.h>

struct sycl_offload_entry {
  void *addr;
  char *name;
  size_t size;
  int32_t flags;
  int32_t reserved;
};

enum { SYCL_PROPERTY_TYPE_UINT32 = 1, SYCL_PROPERTY_TYPE_BYTE_ARRAY = 2, SYCL_PROPERTY_TYPE_STRING = 3 };

struct sycl_device_binary_property {
  char *Name;
  void *ValAddr; /* byte arrays: 8-byte bit count, then the bytes */
  uint32_t Type;
  uint64_t ValSize; /* uint32: the value; byte arrays: size in bytes incl. the prefix */
};

struct sycl_device_binary_property_set {
  char *Name;
  struct sycl_device_binary_property *PropertiesBegin;
  struct sycl_device_binary_property *PropertiesEnd;
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
#endif
