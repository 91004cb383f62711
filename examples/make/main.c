/*
 * The host program: prints every device image the runtime was handed
 * before main, one line per image with its target, format and kernels.
 */
#include <stdio.h>

#include "app.h"

static const char *format_name(uint8_t f) {
  static const char *names[] = {"none", "native", "spirv", "llvm-bc", "compressed"};
  return f < 5 ? names[f] : "unknown";
}

int main(void) {
  if (registered == NULL) {
    printf("no device images were registered\n");
    return 1;
  }
  printf("%u device images\n", registered->NumDeviceBinaries);
  for (unsigned i = 0; i < registered->NumDeviceBinaries; i++) {
    const struct sycl_device_binary *img = &registered->DeviceBinaries[i];
    printf("%s %s %zu bytes:", img->DeviceTargetSpec, format_name(img->Format),
           (size_t)(img->BinaryEnd - img->BinaryStart));
    for (const struct sycl_offload_entry *e = img->EntriesBegin; e != img->EntriesEnd; e++)
      printf(" %s", e->name);
    printf("\n");
  }
  return 0;
}
