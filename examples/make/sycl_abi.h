/*
 * The parts of the SYCL runtime's device-image descriptor this example reads
 * (sycl/include/sycl/detail/compiler.hpp), written in C for an LP64 host.
 * The object sycbuild writes hands one of these to __sycl_register_lib when
 * the program starts.
 */
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

struct sycl_device_binary {
  uint16_t Version;
  uint8_t Kind;
  uint8_t Format; /* 0 none (LLVM IR text here), 1 native, 2 SPIR-V */
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
_Static_assert(sizeof(struct sycl_device_binaries) == 32, "the runtime's descriptor layout");

#endif
