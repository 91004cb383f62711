package llvmir

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// conformanceIR returns every .ll file of the shared conformance data.
func conformanceIR(t *testing.T) []string {
	t.Helper()
	root := testenv.ConformanceDir(t)
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".ll") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no .ll files under %s", root)
	}
	return files
}

// eachConformanceModule parses every conformance module and runs f on it
// in a subtest named after the file.
func eachConformanceModule(t *testing.T, f func(t *testing.T, path string, src []byte, m *Module)) {
	for _, path := range conformanceIR(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(path, src)
			if err != nil {
				t.Fatal(err)
			}
			// What was read: the file, and the declarations of the
			// intrinsics it calls without declaring them.
			f(t, path, m.Src, m)
		})
	}
}

func TestRoundTripConformance(t *testing.T) {
	eachConformanceModule(t, func(t *testing.T, path string, src []byte, m *Module) {
		var out bytes.Buffer
		if err := m.Write(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), src) {
			t.Fatalf("Module.Write is not byte-identical")
		}
		out.Reset()
		if err := m.NewPlan().Write(&out); err != nil {
			t.Fatal(err)
		}
		if !droppedUnused(out.Bytes(), src) {
			t.Fatalf("an unedited Plan is not byte-identical:\n%s", out.Bytes())
		}
	})
}

// TestRoundTripGenerated round-trips generated modules of both pointer
// syntaxes and checks what the scanner found against the generator's
// shape.
func TestRoundTripGenerated(t *testing.T) {
	for _, typed := range []bool{false, true} {
		c := irgen.Small()
		c.Kernels, c.Helpers, c.Body = 40, 15, 20
		c.Typed = typed
		m := parseGenerated(t, c)
		var out bytes.Buffer
		if err := m.Write(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), m.Src) {
			t.Fatalf("typed=%v: not byte-identical", typed)
		}
		kernels := 0
		for _, f := range m.Functions() {
			if f.Func.CallingConv != "spir_kernel" {
				continue
			}
			kernels++
			if len(f.Func.Calls) < c.CallsPerKernel || len(f.Func.Callees) == 0 {
				t.Errorf("%s: %d calls", f.Name, len(f.Func.Calls))
			}
			if id, _ := m.Attrs(f).Get("sycl-module-id"); !strings.HasPrefix(id, "src") {
				t.Errorf("%s: sycl-module-id %q", f.Name, id)
			}
		}
		if kernels != c.Kernels {
			t.Errorf("%d kernels, want %d", kernels, c.Kernels)
		}
		spec := m.Global(irgen.SpecConstName)
		n := 0
		for _, f := range m.Functions() {
			for _, call := range f.Func.Calls {
				if call.Callee == spec {
					n++
					if call.Args[1].Points == nil || !strings.HasPrefix(call.Args[1].Points.Name, "_ZL3sc") {
						t.Errorf("spec-constant argument points at %v", call.Args[1].Points)
					}
				}
			}
		}
		if n != c.SpecConsts {
			t.Errorf("%d spec-constant calls, want %d", n, c.SpecConsts)
		}
	}
}

// droppedUnused reports whether out is src, but for lines of comdats,
// attribute groups and metadata nodes (and blank lines) left out: a plan
// writes only those something uses, as LLVM prints a module, so a module
// with unused ones is not written back byte for byte.
func droppedUnused(out, src []byte) bool {
	if bytes.Equal(out, src) {
		return true
	}
	o, s := bytes.SplitAfter(out, []byte("\n")), bytes.SplitAfter(src, []byte("\n"))
	j := 0
	for _, l := range s {
		if j < len(o) && bytes.Equal(o[j], l) {
			j++
			continue
		}
		t := bytes.TrimSpace(l)
		if len(t) > 0 && t[0] != '$' && !bytes.HasPrefix(t, []byte("attributes #")) &&
			!(len(t) > 1 && t[0] == '!' && t[1] >= '0' && t[1] <= '9') {
			return false
		}
	}
	return j == len(o)
}
