package postlink

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// A module with kernels in two translation units, one calling a function
// that is only declared.
const twoUnits = `target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

; a comment that mentions @kB
define spir_kernel void @kA() #0 {
entry:
  call spir_func void @undefinedFn()
  ret void
}

define spir_kernel void @kB() #1 {
entry:
  ret void
}

declare spir_func void @undefinedFn()

attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-module-id"="b.cpp" }
`

// Kernels needing fp64 or given sub-group sizes, for target filtering
// (aspects named by {name, value} pairs and through !sycl_aspects).
const filtered = `target triple = "spir64-unknown-unknown"

define spir_kernel void @double_kernel() #0 !sycl_used_aspects !0 {
  ret void
}

define spir_kernel void @float_kernel() #0 {
  ret void
}

define spir_kernel void @sg8() #0 !intel_reqd_sub_group_size !2 {
  ret void
}

define spir_kernel void @sg64() #0 !intel_reqd_sub_group_size !3 {
  ret void
}

define spir_kernel void @plain_fp64() #0 !sycl_used_aspects !4 {
  ret void
}

attributes #0 = { "sycl-module-id"="k.cpp" }

!sycl_aspects = !{!1}
!0 = !{!1}
!1 = !{!"fp64", i32 6}
!2 = !{i32 8}
!3 = !{i32 64}
!4 = !{i32 6}
`

// runTool runs sycl-post-link with args in dir and returns its stderr.
func runTool(t *testing.T, dir string, stdin string, args ...string) (string, error) {
	t.Helper()
	t.Chdir(dir)
	f := parseArgs(t, args)
	var stdout, stderr bytes.Buffer
	err := Run(&f, IO{Stdin: strings.NewReader(stdin), Stdout: &stdout, Stderr: &stderr, Argv0: "sycl-post-link"})
	return stderr.String() + stdout.String(), err
}

// parseArgs turns a few command-line arguments into Options (the tools
// package does this for real; the tests only need these).
func parseArgs(t *testing.T, args []string) Options {
	t.Helper()
	o := Options{Input: "-"}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-o":
			i++
			o.Outputs = append(o.Outputs, ParseOutput(args[i]))
		case a == "-S":
			o.Assembly = true
		case a == "-symbols":
			o.Symbols = true
		case a == "-properties":
			o.Properties = true
		case a == "-ir-output-only":
			o.IROutputOnly = true
		case a == "-split-esimd":
			o.SplitESIMD = true
		case a == "-lower-esimd":
			o.LowerESIMD = true
		case a == "-device-globals":
			o.DeviceGlobals = true
		case a == "-embed-aux-info-as-metadata":
			o.EmbedAuxInfo = true
		case strings.HasPrefix(a, "-split="):
			o.Split, _ = ParseSplitMode(strings.TrimPrefix(a, "-split="))
			o.SplitGiven = true
		case strings.HasPrefix(a, "-spec-const="):
			o.SpecConst, _ = ParseSpecConstMode(strings.TrimPrefix(a, "-spec-const="))
		case strings.HasPrefix(a, "-out-dir="):
			o.OutDir = strings.TrimPrefix(a, "-out-dir=")
		case strings.HasPrefix(a, "-"):
			t.Fatalf("test helper: unknown option %s", a)
		default:
			o.Input = a
		}
	}
	return o
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func assemble(t *testing.T, path string) {
	t.Helper()
	if out, err := exec.Command(testenv.Tool(t, "llvm-as-19"), "-o", os.DevNull, path).CombinedOutput(); err != nil {
		t.Errorf("llvm-as-19 rejects %s: %v\n%s", path, err, out)
	}
}

func TestSplitPerSource(t *testing.T) {
	dir := t.TempDir()
	msgs, err := runTool(t, dir, twoUnits, "-split=source", "-symbols", "-S", "-o", "out.table")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, "out.table"), "[Code|Symbols]\nout_0.ll|out_0.sym\nout_1.ll|out_1.sym\n"; got != want {
		t.Errorf("table %q, want %q", got, want)
	}
	// b.cpp sorts after a.cpp, so its module comes first.
	if s := readFile(t, "out_0.sym"); s != "kB\n" {
		t.Errorf("out_0.sym = %q", s)
	}
	if s := readFile(t, "out_1.sym"); s != "kA\n" {
		t.Errorf("out_1.sym = %q", s)
	}
	if want := "warning: Undefined function undefinedFn found in <stdin>. This may result in runtime errors.\n"; msgs != want {
		t.Errorf("messages %q, want %q", msgs, want)
	}
	if ir := readFile(t, "out_1.ll"); strings.Contains(ir, ";") {
		t.Errorf("comments are written:\n%s", ir)
	}
	for _, f := range []string{"out_0.ll", "out_1.ll"} {
		assemble(t, f)
	}
	if got := files(t, dir); !slices.Equal(got, []string{"out.table", "out_0.ll", "out_0.sym", "out_1.ll", "out_1.sym"}) {
		t.Errorf("files %q", got)
	}
}

// Nothing to split and nothing changed: the table names the input itself
// and the reference's note is printed.
func TestUnmodifiedInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "input.ll")
	if err := os.WriteFile(in, []byte(twoUnits), 0o644); err != nil {
		t.Fatal(err)
	}
	msgs, err := runTool(t, dir, "", "-symbols", "-S", in)
	if err != nil {
		t.Fatal(err)
	}
	if want := "sycl-post-link NOTE: no modifications to the input LLVM IR have been made\n"; msgs != want {
		t.Errorf("messages %q, want %q", msgs, want)
	}
	if got, want := readFile(t, "input.files"), "[Code|Symbols]\n"+in+"|input_0.sym\n"; got != want {
		t.Errorf("table %q, want %q", got, want)
	}
	if s := readFile(t, "input_0.sym"); s != "kA\nkB\n" {
		t.Errorf("sym %q", s)
	}
	// With -o the module is written even so.
	if _, err := runTool(t, dir, "", "-symbols", "-S", in, "-o", "x.table"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, "x.table"); got != "[Code|Symbols]\nx_0.ll|x_0.sym\n" {
		t.Errorf("table %q", got)
	}
}

func TestTargetFiltering(t *testing.T) {
	dir := t.TempDir()
	_, err := runTool(t, dir, filtered, "-split=kernel", "-symbols", "-S", "-o", "all.table",
		"-o", "intel_gpu_pvc,pvc.table", "-o", "intel_gpu_tgllp,tgl.table", "-o", "unknown_target,unk.table")
	if err != nil {
		t.Fatal(err)
	}
	// Order by descending name: sg8, sg64, plain_fp64, float_kernel, double_kernel.
	var syms []string
	for i := 0; i < 5; i++ {
		syms = append(syms, strings.TrimSpace(readFile(t, "all_"+itoa(i)+".sym")))
	}
	if want := []string{"sg8", "sg64", "plain_fp64", "float_kernel", "double_kernel"}; !slices.Equal(syms, want) {
		t.Fatalf("modules %q, want %q", syms, want)
	}
	rows := func(ids ...int) string {
		s := "[Code|Symbols]\n"
		for _, i := range ids {
			s += "all_" + itoa(i) + ".ll|all_" + itoa(i) + ".sym\n"
		}
		return s
	}
	for table, want := range map[string]string{
		"all.table": rows(0, 1, 2, 3, 4),
		"unk.table": rows(0, 1, 2, 3, 4),
		"pvc.table": rows(2, 3, 4), // no sub-group size 8 or 64
		"tgl.table": rows(0, 3),    // no fp64, no sub-group size 64
	} {
		if got := readFile(t, table); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", table, got, want)
		}
	}
}

func TestIROutputOnly(t *testing.T) {
	dir := t.TempDir()
	if _, err := runTool(t, dir, twoUnits, "-ir-output-only", "-split=auto", "-S", "-o", "one.ll"); err != nil {
		t.Fatal(err)
	}
	ir := readFile(t, "one.ll")
	if !strings.Contains(ir, "@kA") || !strings.Contains(ir, "@kB") || strings.Contains(ir, "sycl-esimd-split-status") {
		t.Errorf("output:\n%s", ir)
	}
	assemble(t, "one.ll")
	// Standard output.
	out, err := runTool(t, dir, twoUnits, "-ir-output-only", "-spec-const=native", "-S", "-o", "-")
	if err != nil || !strings.Contains(out, "define spir_kernel void @kB()") {
		t.Errorf("stdout: %v\n%s", err, out)
	}
}

// A failing run leaves no output behind, not even the modules it wrote
// before the failure.
func TestNoPartialOutputs(t *testing.T) {
	cases := []struct {
		name, input string
		args        []string
		want        string
	}{
		// SYCL and ESIMD entry points make two modules even with "auto".
		{"split with ir output", esimdMix, []string{"-ir-output-only", "-split=auto", "-S", "-o", "o.ll"},
			"sycl-post-link: some modules had to be split, '-ir-output-only' can't be used"},
		{"spec constants used", twoUnits + specConstUser, []string{"-split=kernel", "-spec-const=native", "-symbols", "-S", "-o", "o.table"},
			"sycl-post-link: <stdin>:23:3: the symbolic ID of this spec constant is not a string constant"},
		{"parse error", "define void @f( {\n", []string{"-symbols", "-S", "-o", "o.table"},
			"sycl-post-link: <stdin>:2:1: error: expected a type"},
		{"output directory missing", twoUnits, []string{"-split=source", "-symbols", "-S", "-o", "nodir/o.table"},
			"sycl-post-link: error writing the file 'nodir/o_"},
		{"missing input", "", []string{"-symbols", "-o", "o.table", "missing.ll"},
			"sycl-post-link: missing.ll: error: Could not open input file: no such file or directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := runTool(t, dir, c.input, c.args...)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %v, want prefix %q", err, c.want)
			}
			if got := files(t, dir); len(got) != 0 {
				t.Errorf("left behind: %q", got)
			}
		})
	}
}

// A kernel that reads a specialization constant.
const specConstUser = `
define spir_kernel void @kS() #0 {
entry:
  %v = call spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4) null, ptr addrspace(4) null, ptr addrspace(4) null)
  ret void
}

declare spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
`

const esimdMix = `target triple = "spir64-unknown-unknown"

define spir_kernel void @syclK() #0 {
  ret void
}

define spir_kernel void @esimdK() #0 !sycl_explicit_simd !0 {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }

!0 = !{}
`

func TestESIMD(t *testing.T) {
	dir := t.TempDir()
	if _, err := runTool(t, dir, esimdMix, "-split=source", "-split-esimd", "-symbols", "-S", "-o", "e.table"); err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, "e.table"), "[Code|Symbols]\ne_0.esimd.ll|e_0.esimd.sym\ne_0.ll|e_0.sym\n"; got != want {
		t.Errorf("table %q, want %q", got, want)
	}
	if ir := readFile(t, "e_0.esimd.ll"); !strings.Contains(ir, "!sycl-esimd-split-status = !{!1}\n") || !strings.Contains(ir, "!1 = !{i8 1}") {
		t.Errorf("ESIMD module:\n%s", ir)
	}
	// Without -split-esimd the two stay in one module.
	if _, err := runTool(t, dir, esimdMix, "-split=source", "-symbols", "-S", "-o", "j.table"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, "j.table"); got != "[Code|Symbols]\nj_0.ll|j_0.sym\n" {
		t.Errorf("table %q", got)
	}
	if ir := readFile(t, "j_0.ll"); !strings.Contains(ir, "!{i8 2}") {
		t.Errorf("joined module:\n%s", ir)
	}
}

// Outputs do not depend on how many modules are made at once.
func TestDeterministic(t *testing.T) {
	var src strings.Builder
	src.WriteString("target triple = \"spir64-unknown-unknown\"\n")
	for i := 0; i < 40; i++ {
		n := itoa(i)
		src.WriteString("define spir_kernel void @k" + n + "() #0 {\n  call spir_func void @f" + n + "()\n  ret void\n}\n")
		src.WriteString("define spir_func void @f" + n + "() {\n  ret void\n}\n")
	}
	src.WriteString("attributes #0 = { \"sycl-module-id\"=\"a.cpp\" }\n")
	outputs := map[int]map[string]string{}
	for _, jobs := range []int{1, 8} {
		dir := t.TempDir()
		t.Chdir(dir)
		f := parseArgs(t, []string{"-split=kernel", "-symbols", "-properties", "-spec-const=native", "-S", "-o", "d.table"})
		if err := Run(&f, IO{Stdin: strings.NewReader(src.String()), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Argv0: "sycl-post-link", Jobs: jobs}); err != nil {
			t.Fatal(err)
		}
		outputs[jobs] = map[string]string{}
		for _, name := range files(t, dir) {
			outputs[jobs][name] = readFile(t, name)
		}
	}
	if len(outputs[1]) != 121 {
		t.Fatalf("%d files", len(outputs[1]))
	}
	for name, s := range outputs[1] {
		if outputs[8][name] != s {
			t.Errorf("%s differs between 1 and 8 jobs", name)
		}
	}
}

func TestESIMDPerKernelNeedsSplitESIMD(t *testing.T) {
	src := `target triple = "spir64-unknown-unknown"

define spir_kernel void @syclK() #0 {
  call spir_func void @esimdFn()
  ret void
}

define spir_kernel void @otherK() #0 {
  ret void
}

define spir_func void @esimdFn() !sycl_explicit_simd !0 {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }

!0 = !{}
`
	dir := t.TempDir()
	_, err := runTool(t, dir, src, "-split=kernel", "-symbols", "-S", "-o", "k.table")
	want := "sycl-post-link: SYCL and ESIMD entry points detected with -split-mode=per-kernel and -split-esimd=false. So -split-esimd=true is mandatory."
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Errorf("left behind: %q", got)
	}
	if _, err := runTool(t, dir, src, "-split=kernel", "-split-esimd", "-symbols", "-S", "-o", "k.table"); err != nil {
		t.Fatal(err)
	}
	// syclK's ESIMD part (esimdFn, no entry point) and SYCL part, then otherK.
	if got, want := readFile(t, "k.table"), "[Code|Symbols]\nk_0.esimd.ll|k_0.esimd.sym\nk_0.ll|k_0.sym\nk_1.ll|k_1.sym\n"; got != want {
		t.Errorf("table %q, want %q", got, want)
	}
}

func TestDeviceGlobalInTwoImages(t *testing.T) {
	src := `target triple = "spir64-unknown-unknown"

@dg = addrspace(1) global i32 0, align 4 #1

define spir_kernel void @k1() #0 {
  %v = load i32, ptr addrspace(1) @dg, align 4
  ret void
}

define spir_kernel void @k2() #0 {
  call spir_func void @user()
  ret void
}

define spir_func void @user() {
  store i32 1, ptr addrspace(1) @dg, align 4
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-device-global-size"="4" "device_image_scope" "sycl-unique-id"="u" }
`
	dir := t.TempDir()
	want := `sycl-post-link: error: device_global variable 'dg' with property "device_image_scope" is used in more than one device image.`
	// The property as older front ends and as the newest one spell it.
	for _, spelling := range []string{`"device_image_scope"`, `"sycl-device-image-scope"="true"`} {
		src := strings.Replace(src, `"device_image_scope"`, spelling, 1)
		_, err := runTool(t, dir, src, "-split=kernel", "-device-globals", "-S", "-o", "g.table")
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %q", spelling, err, want)
		}
	}
	// One image is fine.
	if _, err := runTool(t, dir, src, "-split=source", "-device-globals", "-S", "-o", "g.table"); err != nil {
		t.Error(err)
	}
}
