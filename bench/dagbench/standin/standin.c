/*
 * A stand-in for the external compilers, to measure sycbuild's own
 * overhead where the real tools are not installed (dagbench -tools). It
 * burns CPU for a fixed time, as a compiler would, then copies its input to
 * its output, finding both the way the real tools' command lines name
 * them:
 *   llvm-as / llvm-spirv:  ... <in> -o <out>
 *   ocloc:                 compile -file <in> ... -output <out> ...
 *   spirv-val:             <in>              (no output)
 * The time is N milliseconds when the program is called through a name
 * ending in -N (ln -s standin ocloc-195), else STANDIN_MS, else 100.
 * --version prints a version, so that sycbuild can identify it.
 *
 *   cc -O2 -o standin standin.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--version") == 0) {
    puts("dagbench stand-in compiler 1");
    return 0;
  }
  double ms = 100;
  const char *dash = strrchr(argv[0], '-'), *env = getenv("STANDIN_MS");
  if (dash && dash[1] >= '0' && dash[1] <= '9')
    ms = atof(dash + 1);
  else if (env)
    ms = atof(env);
  double until = now() + ms / 1000;
  volatile unsigned long spin = 0;
  while (now() < until)
    for (int i = 0; i < 10000; i++)
      spin++;
  const char *in = NULL, *out = NULL;
  for (int i = 1; i < argc; i++) {
    if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "-output") == 0) && i + 1 < argc) {
      if (!in && strcmp(argv[i], "-o") == 0 && i > 1)
        in = argv[i - 1];
      out = argv[++i];
    } else if (strcmp(argv[i], "-file") == 0 && i + 1 < argc) {
      in = argv[++i];
    }
  }
  if (!out)
    return 0;
  FILE *r = fopen(in, "rb"), *w = fopen(out, "wb");
  if (!r || !w) {
    fprintf(stderr, "standin: cannot copy %s to %s\n", in ? in : "(none)", out);
    return 1;
  }
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, r)) > 0)
    fwrite(buf, 1, n, w);
  fclose(r);
  return fclose(w) != 0;
}
