package llvmir

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// clangProgram exercises what clang emits: debug info, strings, function
// pointers, varargs, switch tables, structs, unnamed globals, intrinsics.
const clangProgram = `
struct S { int a; double b; char name[8]; };
typedef int (*fn)(int);
extern int ext(const char *, ...);
static int sq(int x) { return x * x; }
static int neg(int x) { return -x; }
static fn table[] = { sq, neg };
struct S gs = { 1, 2.5, "seven" };
const char *msg = "hello \"world\"\n";
static int counter;
__attribute__((noinline)) int pick(int i, int v) { return table[i & 1](v); }
int sw(int k) {
  switch (k) { case 0: return 10; case 1: return 21; case 2: return 32; case 3: return 43; case 4: return 54; default: return 0; }
}
double total(struct S *s, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) t += s[i].a * s[i].b;
  counter++;
  return t;
}
int entry(int argc) {
  struct S local[2] = { { 1, 1.0, "a" }, { 2, 2.0, "b" } };
  ext("%d %s", argc, msg);
  ext("other");
  return pick(argc, 3) + sw(argc) + (int)total(local, 2) + (int)total(&gs, 1);
}
`

// TestClangOutputs parses what clang-19 emits for a small C program (with
// and without debug info and optimization, for x86_64 and spir64): it must
// round-trip byte for byte, and each function's closure written alone must
// be accepted by llvm-as-19.
func TestClangOutputs(t *testing.T) {
	clang := testenv.Tool(t, "clang-19")
	dir := t.TempDir()
	c := filepath.Join(dir, "p.c")
	if err := os.WriteFile(c, []byte(clangProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, triple, flags string }{
		{"x86_64-O0-g", "x86_64-unknown-linux-gnu", "-O0 -g"},
		{"x86_64-O2-g", "x86_64-unknown-linux-gnu", "-O2 -g"},
		{"spir64-O2", "spir64-unknown-unknown", "-O2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ll := filepath.Join(dir, tc.name+".ll")
			args := append([]string{"-target", tc.triple, "-S", "-emit-llvm", "-o", ll, c}, splitFields(tc.flags)...)
			if out, err := exec.Command(clang, args...).CombinedOutput(); err != nil {
				t.Fatalf("clang: %v\n%s", err, out)
			}
			src, err := os.ReadFile(ll)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(ll, src)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			m.Write(&out)
			if !bytes.Equal(out.Bytes(), src) {
				t.Fatal("not byte-identical")
			}
			for _, f := range m.Functions() {
				if f.Func.Declaration {
					continue
				}
				keep := closure([]*Entity{f}, nil)
				p := m.NewPlan()
				p.KeepOnly(func(e *Entity) bool { return keep[e] })
				filterNamedMD(m, p, keep)
				assemble(t, "llvm-as-19", f.Name+".ll", writePlan(t, p))
			}
		})
	}
}

func splitFields(s string) []string {
	var out []string
	for _, f := range bytes.Fields([]byte(s)) {
		out = append(out, string(f))
	}
	return out
}
