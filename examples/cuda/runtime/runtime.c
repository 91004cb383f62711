/* A minimal SYCL-like runtime for NVIDIA GPUs over the CUDA driver API.
 *
 * Linked with the device-image object sycbuild writes, it receives the
 * descriptor through __sycl_register_lib at program start. For every image
 * whose target is nvptx64 it loads the image (a fatbinary) with
 * cuModuleLoadData, finds each kernel the image's entries name, builds the
 * emulated spec-constant buffer from the image's property sets (defaults,
 * then overrides at the offsets the descriptors imply), launches the kernel
 * and checks every value it wrote. Exits non-zero on any mismatch. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speccheck.h"

static struct sycl_device_binaries *registered[16];
static int nregistered;

void __sycl_register_lib(struct sycl_device_binaries *desc) {
  if (nregistered < 16) registered[nregistered++] = desc;
}

void __sycl_unregister_lib(struct sycl_device_binaries *desc) {
  for (int i = 0; i < nregistered; i++)
    if (registered[i] == desc) registered[i] = NULL;
}

#define CU(call)                                                              \
  do {                                                                        \
    CUresult r_ = (call);                                                     \
    if (r_ != CUDA_SUCCESS) {                                                 \
      const char *s_ = "?";                                                   \
      cuGetErrorString(r_, &s_);                                              \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, s_); \
      exit(2);                                                                \
    }                                                                         \
  } while (0)

static const struct SpecValues overrides = {42, {100, 'Q'}, {2.5f, -8.125, {-9, 'z'}}, false};

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CU(cuInit(0));
  CU(cuDeviceGet(&dev, 0));
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  char name[128];
  CU(cuDeviceGetName(name, sizeof name, dev));
  printf("device: %s\n", name);

  struct { const char *what; const struct SpecValues *v; } runs[] = {{"defaults", &spec_defaults}, {"overrides", &overrides}};
  int images = 0, launches = 0, mismatches = 0, seen[3] = {0, 0, 0};
  for (int d = 0; d < nregistered; d++) {
    if (!registered[d]) continue;
    struct sycl_device_binaries *desc = registered[d];
    printf("descriptor: version %u, %u images\n", desc->Version, desc->NumDeviceBinaries);
    for (int i = 0; i < desc->NumDeviceBinaries; i++) {
      const struct sycl_device_binary *img = &desc->DeviceBinaries[i];
      if (strcmp(img->DeviceTargetSpec, "nvptx64") != 0) continue;
      images++;
      size_t size = (size_t)(img->BinaryEnd - img->BinaryStart);
      printf("image %d: target %s, format %u, %zu bytes, %ld entries\n", i, img->DeviceTargetSpec, img->Format, size,
             (long)(img->EntriesEnd - img->EntriesBegin));
      struct SpecLayout l;
      char err[256];
      if (!spec_layout(img, &l, err, sizeof err)) {
        printf("FAIL image %d: %s\n", i, err);
        mismatches++;
        continue;
      }
      for (int c = 0; c < l.n; c++)
        printf("  spec constant %-10s id %u offset %2u size %2u\n", l.c[c].sym, l.c[c].first_id, l.c[c].offset, l.c[c].size);
      void *copy = malloc(size); /* an aligned copy for the loader */
      memcpy(copy, img->BinaryStart, size);
      CUmodule mod;
      CU(cuModuleLoadData(&mod, copy));
      free(copy);
      for (struct sycl_offload_entry *e = img->EntriesBegin; e != img->EntriesEnd; e++) {
        const struct KernelInfo *k = kernel_info(e->name);
        if (!k) {
          printf("FAIL image %d: unknown entry %s\n", i, e->name);
          mismatches++;
          continue;
        }
        seen[k->id]++;
        CUfunction fn;
        CU(cuModuleGetFunction(&fn, mod, e->name));
        for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
          unsigned char buf[256];
          if (l.total > sizeof buf || !spec_buffer(&l, runs[r].v, 0, buf, err, sizeof err)) {
            printf("FAIL %s %s: %s\n", runs[r].what, e->name, err);
            mismatches++;
            continue;
          }
          CUdeviceptr dout, dsc;
          CU(cuMemAlloc(&dout, 64));
          CU(cuMemsetD8(dout, 0xAB, 64));
          CU(cuMemAlloc(&dsc, l.total ? l.total : 1));
          if (l.total) CU(cuMemcpyHtoD(dsc, buf, l.total));
          void *args[] = {&dout, &dsc};
          CU(cuLaunchKernel(fn, 1, 1, 1, k->threads, 1, 1, 0, NULL, args, NULL));
          CU(cuCtxSynchronize());
          double got[8], want[8];
          CU(cuMemcpyDtoH(got, dout, 64));
          expected_out(k, runs[r].v, want);
          int bad = check_out(runs[r].what, k, got, want);
          mismatches += bad;
          launches++;
          printf("  %s %-18s %s:", bad ? "FAIL" : "ok  ", e->name, runs[r].what);
          for (int o = 0; o < k->out_count; o++) {
            if (k->kind == OUT_INT) printf(" %d", ((int *)got)[o]);
            else printf(" %g", got[o]);
          }
          printf("\n");
          CU(cuMemFree(dout));
          CU(cuMemFree(dsc));
        }
      }
      CU(cuModuleUnload(mod));
    }
  }
  for (int k = 0; k < 3; k++)
    if (!seen[k]) printf("FAIL kernel %d of the example was in no image\n", k), mismatches++;
  printf("%d images, %d kernel launches checked, %d mismatches\n", images, launches, mismatches);
  return mismatches || !launches ? 1 : 0;
}
