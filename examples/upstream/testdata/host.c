/* host.c: runs one kernel of an LLVM bitcode program on the first OpenCL
 * device (PoCL's CPU device here) over a range of work-items and prints the
 * buffers it was given.
 *
 * usage: host <program.bc> <kernel> <work-items> <arg>...
 *
 * Each <arg> is one kernel argument, in order:
 *   i:<n>             an int
 *   b:<v>,<v>,...     a buffer of ints with these values
 * After the run every buffer argument is printed on its own line as
 * "<index>: v v v ...". Exit status: 0 ok, 1 an OpenCL call failed (the
 * build log is printed), 2 bad usage, 3 no OpenCL platform or device. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call) do { cl_int e_ = (call); if (e_ != CL_SUCCESS) { \
  fprintf(stderr, "%s failed: %d\n", #call, (int)e_); exit(1); } } while (0)

#define MAXARGS 8
#define MAXVALS 64

int main(int argc, char **argv) {
  if (argc < 4 || argc - 4 > MAXARGS) {
    fprintf(stderr, "usage: %s <program.bc> <kernel> <work-items> <arg>...\n", argv[0]);
    return 2;
  }
  size_t items = (size_t)strtoul(argv[3], NULL, 10);
  cl_platform_id plat;
  cl_device_id dev;
  cl_uint n = 0;
  if (clGetPlatformIDs(1, &plat, &n) != CL_SUCCESS || n == 0 ||
      clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, &n) != CL_SUCCESS || n == 0) {
    fprintf(stderr, "no OpenCL platform or device\n");
    return 3;
  }
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);

  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 2; }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *bin = malloc(len > 0 ? (size_t)len : 1);
  if (!bin || fread(bin, 1, (size_t)len, f) != (size_t)len) { fprintf(stderr, "%s: read failed\n", argv[1]); return 2; }
  fclose(f);
  size_t binSize = (size_t)len;
  const unsigned char *bins[1] = {bin};
  cl_int status;
  cl_program prog = clCreateProgramWithBinary(ctx, 1, &dev, &binSize, bins, &status, &err);
  CHECK(err);
  if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "clBuildProgram failed:\n%s\n", log);
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, argv[2], &err);
  CHECK(err);

  cl_mem bufs[MAXARGS] = {0};
  int counts[MAXARGS] = {0};
  for (int a = 0; a < argc - 4; a++) {
    const char *s = argv[4 + a];
    if (strncmp(s, "i:", 2) == 0) {
      cl_int v = (cl_int)strtol(s + 2, NULL, 10);
      CHECK(clSetKernelArg(k, (cl_uint)a, sizeof v, &v));
    } else if (strncmp(s, "b:", 2) == 0) {
      cl_int vals[MAXVALS];
      int c = 0;
      for (char *p = (char *)s + 2; *p && c < MAXVALS; c++) {
        vals[c] = (cl_int)strtol(p, &p, 10);
        if (*p == ',') p++;
      }
      counts[a] = c;
      bufs[a] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_int) * (size_t)c, vals, &err);
      CHECK(err);
      CHECK(clSetKernelArg(k, (cl_uint)a, sizeof bufs[a], &bufs[a]));
    } else {
      fprintf(stderr, "bad argument %s\n", s);
      return 2;
    }
  }
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &items, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  for (int a = 0; a < argc - 4; a++) {
    if (!bufs[a]) continue;
    cl_int vals[MAXVALS];
    CHECK(clEnqueueReadBuffer(q, bufs[a], CL_TRUE, 0, sizeof(cl_int) * (size_t)counts[a], vals, 0, NULL, NULL));
    printf("%d:", a);
    for (int i = 0; i < counts[a]; i++) printf(" %d", (int)vals[i]);
    printf("\n");
  }
  return 0;
}
