package syclpostlink

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// driverLine is the command line the DPC++ driver (old offload model) runs
// for every spir64 build, with the input and the table as X.ll and
// X.table.
var driverLine = []string{"-O2", "-device-globals", "-properties", "-spec-const=native", "-split=auto",
	"-emit-only-kernels-as-entry-points", "-emit-param-info", "-symbols", "-emit-exported-symbols",
	"-emit-imported-symbols", "-split-esimd", "-lower-esimd", "-o", "X.table", "X.ll"}

// TestDriverLine runs the driver's line on the quickstart's device code
// (two translation units, LLVM 15 syntax): a module without ESIMD code
// splits per source into bitcode modules that LLVM 15 reads and verifies,
// with their property sets and symbol tables. The same line on a module
// with an ESIMD kernel writes that kernel's module apart (X_2.esimd.bc: the kernel has no sycl-module-id, so a group of its own),
// lowered: LLVM 15 verifies it, and the kernel has its VC attributes.
func TestDriverLine(t *testing.T) {
	opt := testenv.Tool(t, "opt-15")
	// No LLVM assembler is needed: sycl-post-link writes the bitcode.
	t.Setenv("PATH", testenv.PathWithoutLLVMAs(t))
	src, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "examples", "quickstart", "device.ll"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("X.ll", src, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Main("sycl-post-link", driverLine, stdio(&stdout, &stderr)); code != 0 || stderr.Len() > 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	table, err := os.ReadFile("X.table")
	if err != nil {
		t.Fatal(err)
	}
	const want = "[Code|Properties|Symbols]\nX_0.bc|X_0.prop|X_0.sym\nX_1.bc|X_1.prop|X_1.sym\n"
	if string(table) != want {
		t.Fatalf("table:\n%s\nwant:\n%s", table, want)
	}
	syms := ""
	for _, i := range []string{"0", "1"} {
		run(t, opt, "-passes=verify", "-disable-output", "X_"+i+".bc")
		for _, f := range []string{"X_" + i + ".prop", "X_" + i + ".sym"} {
			b, err := os.ReadFile(f)
			if err != nil || len(b) == 0 {
				t.Errorf("%s: %v, %d bytes", f, err, len(b))
			}
			if strings.HasSuffix(f, ".sym") {
				syms += string(b)
			}
		}
	}
	for _, k := range []string{"_ZTSZ4mainE8VecScale", "_ZTSZ4mainE6VecAdd", "_ZTSZ4mainE9Threshold", "_ZTSZ4mainE5Clamp"} {
		if !strings.Contains(syms, k+"\n") {
			t.Errorf("kernel %s is in no symbol table:\n%s", k, syms)
		}
	}

	// An ESIMD kernel in the same module.
	esimd := strings.Replace(string(src), "define weak_odr dso_local spir_kernel void @_ZTSZ4mainE6VecAdd(",
		"define weak_odr dso_local spir_kernel void @_ZTSZ4mainE6VecAdd_esimd() !sycl_explicit_simd !{} {\n  ret void\n}\n\n"+
			"define weak_odr dso_local spir_kernel void @_ZTSZ4mainE6VecAdd(", 1)
	if esimd == string(src) {
		t.Fatal("the quickstart has no VecAdd kernel")
	}
	dir = t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("X.ll", []byte(esimd), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := Main("sycl-post-link", driverLine, stdio(&stdout, &stderr)); code != 0 || stderr.Len() > 0 {
		t.Fatalf("ESIMD module: exit %d\n%s", code, stderr.String())
	}
	table, err = os.ReadFile("X.table")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(table), "\nX_2.esimd.bc|X_2.esimd.prop|X_2.esimd.sym\n") {
		t.Fatalf("table of the ESIMD module:\n%s", table)
	}
	run(t, opt, "-passes=verify", "-disable-output", "X_2.esimd.bc")
	text, err := exec.Command(testenv.Tool(t, "llvm-dis-15"), "X_2.esimd.bc", "-o", "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), `"CMGenxMain" "VCFunction" "VCNamedBarrierCount"="0" "VCSLMSize"="0"`) {
		t.Errorf("the ESIMD kernel lacks its VC attributes:\n%s", text)
	}
}
