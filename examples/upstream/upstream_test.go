package upstream

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/dpcpp/syclpostlink"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// kernels are the example's kernels in module order.
var kernels = []string{"_ZTS8VecScale", "_ZTS6VecAdd", "_ZTS9Threshold", "_ZTS5Clamp"}

// TestDeviceIRIsFrontEndOutput regenerates device.ll and tu/*.ll with
// clang-22 and llvm-link-22 and requires them to equal the checked-in
// files.
func TestDeviceIRIsFrontEndOutput(t *testing.T) {
	testenv.Tool(t, "clang-22")
	testenv.Tool(t, "llvm-link-22")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"make-device.sh", "src/sycl_shim.h", "src/vector_ops.cpp", "src/image_ops.cpp"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("bash", filepath.Join(dir, "make-device.sh")).CombinedOutput(); err != nil {
		t.Fatalf("make-device.sh: %v\n%s", err, out)
	}
	for _, f := range []string{"device.ll", "tu/vector_ops.ll", "tu/image_ops.ll"} {
		got, _ := os.ReadFile(filepath.Join(dir, f))
		want, _ := os.ReadFile(f)
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what clang-22 makes now; run ./make-device.sh", f)
		}
	}
}

// TestFrontEndIR checks what the splitter has to go on in clang-22's IR:
// kernels by calling convention, no module-id or entry-point attribute, and
// after llvm-link no trace of the translation units.
func TestFrontEndIR(t *testing.T) {
	b, err := os.ReadFile("device.ll")
	if err != nil {
		t.Fatal(err)
	}
	ir := string(b)
	var got []string
	for _, m := range regexp.MustCompile(`(?m)^define .*spir_kernel void @(\w+)\(`).FindAllStringSubmatch(ir, -1) {
		got = append(got, m[1])
	}
	if !slices.Equal(got, kernels) {
		t.Errorf("spir_kernel functions %q, want %q", got, kernels)
	}
	for _, attr := range []string{`"sycl-module-id"`, `"sycl-entry-point"`} {
		if strings.Contains(ir, attr) {
			t.Errorf("clang-22's IR has %s", attr)
		}
	}
	if !strings.Contains(ir, `source_filename = "llvm-link"`) {
		t.Error(`the linked module's source_filename is not "llvm-link"`)
	}
}

// postLink runs sycbuild's sycl-post-link command line in-process, writing
// textual IR into dir, and returns the rows of its table.
func postLink(t *testing.T, dir, input string, args ...string) [][]string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	table := filepath.Join(dir, "out.table")
	args = append(append([]string{"-S", "-symbols", "-properties", "-o", table}, args...), input)
	var out, errb bytes.Buffer
	if rc := syclpostlink.Main("sycl-post-link", args, clopt.Stdio{In: strings.NewReader(""), Out: &out, Err: &errb}); rc != 0 {
		t.Fatalf("sycl-post-link %s: exit %d\n%s%s", strings.Join(args, " "), rc, out.String(), errb.String())
	}
	b, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "[Code|Properties|Symbols]" {
		t.Fatalf("table header %q", lines[0])
	}
	var rows [][]string
	for _, l := range lines[1:] {
		rows = append(rows, strings.Split(l, "|"))
	}
	return rows
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// definedFuncs returns the names of the functions a module defines.
func definedFuncs(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^define [^@]*@(\w+)\(`).FindAllStringSubmatch(string(b), -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return names
}

// TestSplit splits device.ll per kernel and per source.
func TestSplit(t *testing.T) {
	// Per kernel: one module per kernel with the helpers it calls across
	// translation units.
	want := map[string][]string{
		"_ZTS8VecScale":  {"_ZTS8VecScale"},
		"_ZTS6VecAdd":    {"_Z8clamp_toiii", "_ZTS6VecAdd"},
		"_ZTS9Threshold": {"_Z7combineii", "_ZTS9Threshold"},
		"_ZTS5Clamp":     {"_ZTS5Clamp"},
	}
	rows := postLink(t, t.TempDir(), "device.ll", "-split=kernel", "-spec-const=native")
	if len(rows) != len(kernels) {
		t.Fatalf("%d modules, want %d", len(rows), len(kernels))
	}
	for _, r := range rows {
		sym := readLines(t, r[2])
		if len(sym) != 1 {
			t.Fatalf("%s: symbols %q, want one kernel", r[2], sym)
		}
		if got := definedFuncs(t, r[0]); !slices.Equal(got, want[sym[0]]) {
			t.Errorf("module of %s defines %q, want %q", sym[0], got, want[sym[0]])
		}
	}

	// Per source: with no "sycl-module-id" every kernel has the same key,
	// so the two translation units share one module. The SYCL_EXTERNAL
	// helpers are no entry points (they have no module id either), so
	// they are not in the symbol table.
	rows = postLink(t, t.TempDir(), "device.ll", "-split=source", "-spec-const=native")
	if len(rows) != 1 {
		t.Fatalf("per source: %d modules, want 1 (one key for all)", len(rows))
	}
	if sym := readLines(t, rows[0][2]); !slices.Equal(sym, kernels) {
		t.Errorf("per source: symbols %q, want %q", sym, kernels)
	}
}

// TestSplitPerSourceByInput shows what per-source split of upstream input
// needs and that the splitter needs nothing more: each translation unit is
// compiled alone, its source_filename and the functions it defines are
// read, and every such definition in the linked device.ll is given
// "sycl-module-id"="<source_filename>" (as DPC++'s front end gives it).
// sycl-post-link -split=source then writes one module per translation unit,
// with the SYCL_EXTERNAL helpers as entry points, as for DPC++ input.
func TestSplitPerSourceByInput(t *testing.T) {
	clang := testenv.Tool(t, "clang-22")
	dir := t.TempDir()
	moduleID := map[string]string{}
	sourceRE := regexp.MustCompile(`(?m)^source_filename = "([^"]*)"$`)
	defineRE := regexp.MustCompile(`(?m)^define [^@]*@(\w+)\(`)
	for _, tu := range []string{"src/vector_ops.cpp", "src/image_ops.cpp"} {
		ll := filepath.Join(dir, filepath.Base(tu)+".ll")
		if out, err := exec.Command(clang, "-cc1", "-triple", "spir64-unknown-unknown", "-fsycl-is-device",
			"-std=c++17", "-O2", "-emit-llvm", tu, "-o", ll).CombinedOutput(); err != nil {
			t.Fatalf("clang-22 %s: %v\n%s", tu, err, out)
		}
		b, err := os.ReadFile(ll)
		if err != nil {
			t.Fatal(err)
		}
		src := sourceRE.FindSubmatch(b)
		if src == nil || string(src[1]) != tu {
			t.Fatalf("%s: source_filename %q", tu, src)
		}
		for _, m := range defineRE.FindAllSubmatch(b, -1) {
			moduleID[string(m[1])] = tu
		}
	}
	b, err := os.ReadFile("device.ll")
	if err != nil {
		t.Fatal(err)
	}
	annotated := regexp.MustCompile(`(?m)^(define [^@]*@(\w+)\(.*) \{$`).ReplaceAllFunc(b, func(line []byte) []byte {
		name := defineRE.FindSubmatch(line)[1]
		id, ok := moduleID[string(name)]
		if !ok {
			t.Fatalf("%s is defined by no translation unit", name)
		}
		return fmt.Appendf(nil, "%s \"sycl-module-id\"=%q {", line[:len(line)-2], id)
	})
	in := filepath.Join(dir, "annotated.ll")
	if err := os.WriteFile(in, annotated, 0o644); err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, r := range postLink(t, filepath.Join(dir, "out"), in, "-split=source", "-spec-const=native") {
		got = append(got, readLines(t, r[2]))
	}
	want := [][]string{
		{"_Z7combineii", "_ZTS8VecScale", "_ZTS6VecAdd"},
		{"_Z8clamp_toiii", "_ZTS9Threshold", "_ZTS5Clamp"},
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("per-source symbols %q, want %q", got, want)
	}
}
