package sycllinker

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/offloadbin"
)

// The upstream example's two translation units (clang-22's device IR) and
// their exampleKernels in the order llvm-link puts them.
var (
	units          = []string{"../../examples/upstream/tu/vector_ops.ll", "../../examples/upstream/tu/image_ops.ll"}
	exampleKernels = []string{"_ZTS8VecScale", "_ZTS6VecAdd", "_ZTS9Threshold", "_ZTS5Clamp"}
)

func TestParse(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	parse := func(args ...string) (Options, error) {
		return Parse("clang-sycl-linker", args, getenv, &bytes.Buffer{})
	}
	// The command line the upstream driver gives: single-dash options
	// from -Xlinker, an empty -arch= and the user's later one.
	o, err := parse("a.o", "b.o", "-triple=spirv64-unknown-unknown", "-arch=", "--arch=pvc", "-o", "out.img", "--device-libs=x.bc,,y.bc", "--library-path=lib")
	if err != nil {
		t.Fatal(err)
	}
	if o.Triple != "spirv64-unknown-unknown" || o.Arch != "pvc" || o.Output != "out.img" || !slices.Equal(o.Inputs, []string{"a.o", "b.o"}) ||
		!slices.Equal(o.DeviceLibs, []string{"x.bc", "y.bc"}) || o.LibraryPath != "lib" || o.Sycbuild() {
		t.Errorf("parsed %+v", o)
	}
	if o, err = parse("--triple=spirv64", "--output-file", "x", "a.o", "--spirv-dump-device-code="); err != nil || o.Output != "x" || o.SPIRVDumpDir != "." {
		t.Errorf("--output-file/--spirv-dump-device-code=: %+v, %v", o, err)
	}

	env[EnvSplit], env[EnvProperties] = "kernel", "1"
	if o, err = parse("--triple=spirv64", "-o", "x", "a.o"); err != nil || o.Split != "kernel" || !o.Properties || !o.Sycbuild() {
		t.Errorf("environment: %+v, %v", o, err)
	}
	if o, err = parse("--triple=spirv64", "-o", "x", "a.o", "--sycbuild-split=source"); err != nil || o.Split != "source" {
		t.Errorf("the command line should win over the environment: %+v, %v", o, err)
	}
	env[EnvSplit] = "exampleKernels"
	if _, err = parse("--triple=spirv64", "-o", "x", "a.o"); err == nil || !strings.Contains(err.Error(), `SYCBUILD_SPLIT="exampleKernels"`) {
		t.Errorf("bad SYCBUILD_SPLIT: %v", err)
	}
	delete(env, EnvSplit)
	delete(env, EnvProperties)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--triple=spirv64", "a.o"}, "Output file must be specified"},
		{[]string{"-o", "x", "a.o"}, "Target triple must be specified"},
		{[]string{"--triple=spirv64", "-o", "x"}, "no input files"},
		{[]string{"--triple=spir64_gen", "-o", "x", "a.o"}, "Arch must be specified for AOT compilation"},
		{[]string{"--triple=spir64_gen", "--arch=pvc", "--sycbuild-spec-constants=native", "-o", "x", "a.o"}, "emulated"},
		{[]string{"--triple=spirv64", "-o", "x", "a.o", "--sycbuild-split=file"}, "Cannot find option named 'file'"},
		{[]string{"--triple=spirv64", "-o", "x", "a.o", "--device-libs=,"}, "cannot be zero"},
	} {
		if _, err := parse(c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.args, err, c.want)
		}
	}
}

// run runs the tool in-process and returns its exit status and messages.
func run(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	o, err := Parse("clang-sycl-linker", args, func(string) string { return "" }, &out)
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	rc := Run("clang-sycl-linker", "", o, clopt.Stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
	return rc, out.String() + errb.String()
}

func needLLVM22(t *testing.T) {
	testenv.Tool(t, "llvm-link-22")
	testenv.Tool(t, "llc-22")
}

// TestDryRun: --dry-run prints the link and the compile and writes
// nothing, not even the temporary directory it names.
func TestDryRun(t *testing.T) {
	needLLVM22(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out.img")
	rc, msgs := run(t, append([]string{"--dry-run", "--triple=spirv64", "-o", out, "--sycbuild-split=source"}, units...)...)
	if rc != 0 {
		t.Fatalf("exit %d\n%s", rc, msgs)
	}
	for _, want := range []string{"sycbuild sycl-module-id -o " + out + ".temps/input.0.ll", "llvm-link-22 -o " + out + ".temps/linked.bc", "sycbuild sycl-post-link ", "-split=source", "llc-22 -mtriple=spirv64v1.3-unknown-unknown -filetype=obj --spirv-ext=", "/post/module_<i>.ll' -o '" + out + ".temps/out_<i>.spv'"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("dry run does not print %q:\n%s", want, msgs)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("dry run wrote %v", ents)
	}
}

// TestDefault is clang-sycl-linker-22's result: one SPIR-V image holding
// all four exampleKernels, with the triple and arch as given, and no temporary
// file left.
func TestDefault(t *testing.T) {
	needLLVM22(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out.img")
	if rc, msgs := run(t, append([]string{"--triple=spirv64", "--arch=", "-o", out}, units...)...); rc != 0 {
		t.Fatalf("exit %d\n%s", rc, msgs)
	}
	ims, err := offloadbin.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(ims) != 1 {
		t.Fatalf("%d images, want 1", len(ims))
	}
	im := ims[0]
	if im.ImageKind != offloadbin.ImageNone || im.OffloadKind != offloadbin.OffloadSYCL || im.Triple() != "spirv64" || im.Arch() != "" ||
		!slices.Equal(im.Symbols(), exampleKernels) || len(im.Strings) != 3 || string(im.Data[:4]) != "\x03\x02\x23\x07" {
		t.Errorf("image %v %v strings %q, data %x…", im.ImageKind, im.OffloadKind, im.Strings, im.Data[:4])
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the directory holds %v, want the output alone", ents)
	}
}

// TestSplitProperties: with sycbuild's options, one image per kernel, each
// with its property sets; the specialization constant of VecScale is
// native and described in its properties.
func TestSplitProperties(t *testing.T) {
	needLLVM22(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out.img")
	dump := filepath.Join(dir, "dump")
	rc, msgs := run(t, append([]string{"--triple=spirv64", "-o", out, "--sycbuild-split=kernel", "--sycbuild-properties", "--save-temps", "--spirv-dump-device-code=" + dump}, units...)...)
	if rc != 0 {
		t.Fatalf("exit %d\n%s", rc, msgs)
	}
	ims, err := offloadbin.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, im := range ims {
		got = append(got, im.Symbols()...)
		p, _ := im.Get(offloadbin.KeyProperties)
		if !strings.Contains(p, "[SYCL/kernel param opt]") {
			t.Errorf("%q: properties without kernel param info:\n%s", im.Symbols(), p)
		}
		if slices.Equal(im.Symbols(), []string{"_ZTS8VecScale"}) && !strings.Contains(p, "[SYCL/specialization constants]") {
			t.Errorf("VecScale's properties name no specialization constant:\n%s", p)
		}
	}
	slices.Sort(got)
	want := slices.Clone(exampleKernels)
	slices.Sort(want)
	if len(ims) != 4 || !slices.Equal(got, want) {
		t.Errorf("%d images with exampleKernels %q, want one per kernel", len(ims), got)
	}
	for _, f := range []string{"out.img.temps/linked.bc", "out.img.temps/post/module.table", "dump/out_0.spv", "dump/out_3.spv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("--save-temps/--spirv-dump-device-code: %v", err)
		}
	}
}

// TestAOT builds the example for Intel's pvc with ocloc, which
// clang-sycl-linker-22 refuses (spir64_gen) or skips (--arch=pvc).
func TestAOT(t *testing.T) {
	needLLVM22(t)
	testenv.Tool(t, "ocloc")
	dir := t.TempDir()
	out := filepath.Join(dir, "out.img")
	rc, msgs := run(t, append([]string{"--triple=spir64_gen-unknown-unknown", "--arch=pvc", "-o", out, "--sycbuild-split=kernel", "-v"}, units...)...)
	if rc != 0 {
		t.Fatalf("exit %d\n%s", rc, msgs)
	}
	if !strings.Contains(msgs, "ocloc compile -file ") || !strings.Contains(msgs, "-device pvc") || !strings.Contains(msgs, "-spec-const=emulation") {
		t.Errorf("-v does not show ocloc for pvc and emulated constants:\n%s", msgs)
	}
	ims, err := offloadbin.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(ims) != 4 {
		t.Fatalf("%d images, want 4", len(ims))
	}
	for _, im := range ims {
		if im.ImageKind != offloadbin.ImageObject || im.Arch() != "pvc" || len(im.Data) < 4 || string(im.Data[:4]) == "\x03\x02\x23\x07" {
			t.Errorf("%q: kind %v arch %q, data %x…: want ocloc's native binary", im.Symbols(), im.ImageKind, im.Arch(), im.Data[:4])
		}
	}
}

// TestBadInput names the file, and a failing tool its command and output;
// nothing is written.
func TestBadInput(t *testing.T) {
	needLLVM22(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.o")
	os.WriteFile(bad, []byte("\x7fELF not bitcode"), 0o644)
	out := filepath.Join(dir, "out.img")
	if rc, msgs := run(t, "--triple=spirv64", "-o", out, bad); rc != 1 || !strings.Contains(msgs, bad+": Unsupported file type") {
		t.Errorf("exit %d: %s", rc, msgs)
	}
	broken := filepath.Join(dir, "broken.ll")
	os.WriteFile(broken, []byte("define void @f( {\n"), 0o644)
	if rc, msgs := run(t, "--triple=spirv64", "-o", out, broken); rc != 1 || !strings.Contains(msgs, "'llvm-link-22' failed") || !strings.Contains(msgs, "broken.ll:2:1: error: expected type") {
		t.Errorf("exit %d: %s", rc, msgs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed link wrote its output")
	}
}

// TestDeviceLibs links the device libraries of the triple after the
// inputs, only what they need (--print-linked-module shows it), skips
// those of another triple, and refuses a missing one.
func TestDeviceLibs(t *testing.T) {
	needLLVM22(t)
	dir := t.TempDir()
	lib := func(name, triple, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("target triple = \""+triple+"\"\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib("ours.ll", "spirv64", "define i64 @__spirv_BuiltInGlobalInvocationId(i32 %d) {\n  ret i64 7\n}\ndefine i64 @unused_helper() {\n  ret i64 1\n}\n")
	lib("other.ll", "nvptx64-nvidia-cuda", "define i64 @other_triple() {\n  ret i64 2\n}\n")
	out := filepath.Join(dir, "out.img")
	rc, msgs := run(t, append([]string{"--triple=spirv64", "-o", out, "--library-path=" + dir, "--device-libs=ours.ll,other.ll", "--print-linked-module"}, units...)...)
	if rc != 0 {
		t.Fatalf("exit %d\n%s", rc, msgs)
	}
	if !strings.Contains(msgs, "define i64 @__spirv_BuiltInGlobalInvocationId(") || strings.Contains(msgs, "@unused_helper") ||
		strings.Contains(msgs, "@other_triple") || !strings.Contains(msgs, "spir_kernel void @_ZTS8VecScale(") {
		t.Errorf("the linked module should define the needed library function only:\n%.3000s", msgs)
	}
	rc, msgs = run(t, append([]string{"--triple=spirv64", "-o", out, "--library-path=" + dir, "--device-libs=missing.bc"}, units...)...)
	if rc != 1 || !strings.Contains(msgs, "missing.bc' SYCL device library file is not found.") {
		t.Errorf("exit %d: %s", rc, msgs)
	}
}
