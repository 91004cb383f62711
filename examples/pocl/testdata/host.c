/* host.c: runs one kernel of an LLVM bitcode program on the first OpenCL
 * device (PoCL's CPU device here) and prints what it wrote.
 *
 * usage: host <program.bc> <kernel> <out-size> [<in-file>]
 *
 * The kernel gets an out buffer of <out-size> zero bytes as argument 0 and,
 * with <in-file>, a buffer holding that file's bytes as argument 1; it runs
 * as one work-item. The out buffer is then printed as hex on one line.
 * Exit status: 0 ok, 1 an OpenCL call failed (the build log is printed),
 * 2 bad usage or unreadable file, 3 no OpenCL platform or device. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(len > 0 ? (size_t)len : 1);
  if (!b || fread(b, 1, (size_t)len, f) != (size_t)len) { fprintf(stderr, "%s: read failed\n", path); exit(2); }
  fclose(f);
  *n = (size_t)len;
  return b;
}

#define CHECK(call) do { cl_int e_ = (call); if (e_ != CL_SUCCESS) { \
  fprintf(stderr, "%s failed: %d\n", #call, (int)e_); exit(1); } } while (0)

int main(int argc, char **argv) {
  if (argc < 4 || argc > 5) {
    fprintf(stderr, "usage: %s <program.bc> <kernel> <out-size> [<in-file>]\n", argv[0]);
    return 2;
  }
  size_t outSize = (size_t)strtoul(argv[3], NULL, 10);
  cl_platform_id plat;
  cl_device_id dev;
  cl_uint n = 0;
  if (clGetPlatformIDs(1, &plat, &n) != CL_SUCCESS || n == 0 ||
      clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL platform or device\n");
    return 3;
  }
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);

  size_t binSize;
  unsigned char *bin = slurp(argv[1], &binSize);
  const unsigned char *bins[1] = {bin};
  cl_int binStatus;
  cl_program prog = clCreateProgramWithBinary(ctx, 1, &dev, &binSize, bins, &binStatus, &err);
  CHECK(err);
  err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t logSize = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &logSize);
    char *log = malloc(logSize + 1);
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, logSize, log, NULL);
    log[logSize] = 0;
    fprintf(stderr, "clBuildProgram failed: %d\n%s\n", (int)err, log);
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, argv[2], &err);
  CHECK(err);

  unsigned char *out = calloc(outSize ? outSize : 1, 1);
  cl_mem outBuf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, outSize, out, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof outBuf, &outBuf));
  cl_mem inBuf = NULL;
  if (argc == 5) {
    size_t inSize;
    unsigned char *in = slurp(argv[4], &inSize);
    inBuf = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, inSize, in, &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 1, sizeof inBuf, &inBuf));
  }
  size_t global = 1;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, outBuf, CL_TRUE, 0, outSize, out, 0, NULL, NULL));
  for (size_t i = 0; i < outSize; i++)
    printf("%02x", out[i]);
  printf("\n");
  return 0;
}
