/*
 * A stand-in for the external compilers, to measure sycbuild's own
 * overhead where the real tools are not installed (dagbench -tools). It
 * reads its input, burns CPU for a fixed time, as a compiler would, then
 * writes the input to its output, finding both the way the real tools'
 * command lines name them:
 *   llvm-as / llvm-spirv:  ... <in> -o <out>
 *   ocloc:                 compile -file <in> ... -output <out> ...
 *   ocloc multi <list>:    each line "-file <in> ... -output <name> ...",
 *                          written to <list's name, no extension>/<name>
 *   spirv-val:             <in>              (no output)
 * "-" as the input or the output is standard input or output (llvm-as -o -,
 * llvm-spirv -). The time is N milliseconds when the program is called
 * through a name ending in -N (ln -s standin ocloc-195), else the entry of
 * STANDIN_MS_TABLE for this tool and input, else STANDIN_MS, else 100.
 * STANDIN_MS_TABLE names a file of "TOOL STEM MS" lines: the tool called
 * TOOL (ocloc), reading an input whose name up to its first dot is STEM
 * (module_12 of .../module_12.spv), takes MS milliseconds; so a build can
 * give each module's compile a time of its own.
 * --version prints a version, so that sycbuild can identify it. The output
 * starts with the header sycbuild checks the real tool's output for, by
 * the name called: LLVM bitcode's magic (llvm-as), a SPIR-V header
 * (llvm-spirv), an ELF header (ocloc).
 *
 *   cc -O2 -o standin standin.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* header writes the start of the real tool's output for the name called. */
static void header(const char *argv0, FILE *w) {
  static const unsigned char bitcode[4] = {'B', 'C', 0xc0, 0xde};
  /* Magic, version 1.0, generator, bound, schema: little-endian words. */
  static const unsigned char spirv[20] = {0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
  /* A 64-bit little-endian ELF header with no section header table. */
  static const unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
  const char *name = strrchr(argv0, '/');
  name = name ? name + 1 : argv0;
  if (strncmp(name, "llvm-spirv", 10) == 0)
    fwrite(spirv, 1, sizeof spirv, w);
  else if (strncmp(name, "llvm-as", 7) == 0)
    fwrite(bitcode, 1, sizeof bitcode, w);
  else if (strncmp(name, "ocloc", 5) == 0)
    fwrite(elf, 1, sizeof elf, w);
}

/* tableMS returns the STANDIN_MS_TABLE entry of the tool called argv0 for
   input in, or -1. */
static double tableMS(const char *table, const char *argv0, const char *in) {
  const char *name = strrchr(argv0, '/'), *base = in ? strrchr(in, '/') : NULL;
  name = name ? name + 1 : argv0;
  base = base ? base + 1 : in;
  if (!base)
    return -1;
  size_t stem = strcspn(base, ".");
  FILE *f = fopen(table, "r");
  if (!f)
    return -1;
  char tool[256], key[256];
  double ms, found = -1;
  while (fscanf(f, "%255s %255s %lf", tool, key, &ms) == 3)
    if (strcmp(tool, name) == 0 && strlen(key) == stem && strncmp(key, base, stem) == 0) {
      found = ms;
      break;
    }
  fclose(f);
  return found;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* msFor is the time the tool called argv0 takes on input in. */
static double msFor(const char *argv0, const char *in) {
  double t;
  const char *dash = strrchr(argv0, '-'), *env = getenv("STANDIN_MS"), *table = getenv("STANDIN_MS_TABLE");
  if (dash && dash[1] >= '0' && dash[1] <= '9')
    return atof(dash + 1);
  if (table && (t = tableMS(table, argv0, in)) >= 0)
    return t;
  if (env)
    return atof(env);
  return 100;
}

/* run reads in (when there is an output), burns ms of CPU, then writes
   the header and the input to out ("-": standard output). */
static int run(const char *argv0, const char *in, const char *out, double ms) {
  /* The input first, as a compiler reads it: from a pipe ("-"), that
     waits for the writer to finish. */
  char *data = NULL;
  size_t len = 0, cap = 0, n;
  if (out) {
    FILE *r = strcmp(in ? in : "", "-") == 0 ? stdin : in ? fopen(in, "rb") : NULL;
    if (!r) {
      fprintf(stderr, "standin: cannot read %s\n", in ? in : "(none)");
      return 1;
    }
    for (;;) {
      if (len == cap && !(data = realloc(data, cap = cap ? 2 * cap : 65536)))
        return 1;
      if ((n = fread(data + len, 1, cap - len, r)) == 0)
        break;
      len += n;
    }
    if (r != stdin)
      fclose(r);
  }
  double until = now() + ms / 1000;
  volatile unsigned long spin = 0;
  while (now() < until)
    for (int i = 0; i < 10000; i++)
      spin++;
  if (!out) {
    free(data);
    return 0;
  }
  FILE *w = strcmp(out, "-") == 0 ? stdout : fopen(out, "wb");
  if (!w) {
    fprintf(stderr, "standin: cannot write %s\n", out);
    return 1;
  }
  header(argv0, w);
  fwrite(data, 1, len, w);
  free(data);
  return fclose(w) != 0;
}

/* multi runs the lines of an "ocloc multi" list file ("-file IN -output
   NAME ..."), writing each output into the directory named after the list
   file without its extension, where ocloc multi writes them. */
static int multi(const char *argv0, const char *list) {
  FILE *f = fopen(list, "r");
  if (!f) {
    fprintf(stderr, "standin: cannot read %s\n", list);
    return 1;
  }
  const char *base = strrchr(list, '/');
  char dir[4096], line[8192], path[8192];
  snprintf(dir, sizeof dir, "%s", base ? base + 1 : list);
  char *dot = strrchr(dir, '.');
  if (dot && dot != dir)
    *dot = 0;
  for (int k = 1; fgets(line, sizeof line, f); k++) {
    const char *in = NULL, *out = NULL;
    char *prev = NULL;
    for (char *w = strtok(line, " \t\n"); w; prev = w, w = strtok(NULL, " \t\n")) {
      if (prev && strcmp(prev, "-file") == 0)
        in = w;
      else if (prev && strcmp(prev, "-output") == 0)
        out = w;
    }
    printf("Command number %d: \n", k);
    fflush(stdout);
    if (!in || !out) {
      fprintf(stderr, "standin: line %d: no -file or -output\n", k);
      return 1;
    }
    snprintf(path, sizeof path, "%s/%s", dir, out);
    if (run(argv0, in, path, msFor(argv0, in)) != 0)
      return 1;
  }
  fclose(f);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--version") == 0) {
    puts("dagbench stand-in compiler 1");
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "multi") == 0)
    return multi(argv[0], argv[2]);
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
  return run(argv[0], in, out, msFor(argv[0], in));
}
