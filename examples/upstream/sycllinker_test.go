package upstream

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/offloadbin"
)

// deviceBitcode compiles the example's sources as clang++-22 -fsycl does
// for the device (spirv64, the host as aux triple) and returns the bitcode
// files, in dir.
func deviceBitcode(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, tu := range []string{"vector_ops", "image_ops"} {
		src, _ := filepath.Abs(filepath.Join("src", tu+".cpp"))
		bc := filepath.Join(dir, tu+".bc")
		tool(t, dir, "clang-22", "-cc1", "-triple", "spirv64-unknown-unknown", "-aux-triple", "x86_64-pc-linux-gnu",
			"-fsycl-is-device", "-O2", "-sycl-std=2020", "-emit-llvm-bc", src, "-o", bc)
		out = append(out, bc)
	}
	return out
}

// llvmSYCLLinker returns the real path of LLVM 22's clang-sycl-linker.
func llvmSYCLLinker(t *testing.T) string {
	t.Helper()
	p, err := filepath.EvalSymlinks(testenv.Tool(t, "clang-sycl-linker-22"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// typeSuffix is what clang-sycl-linker-22 adds to the name of a struct
// type that it reads a second time into the same LLVM context (a module
// is parsed again for its code generation): "struct.specialization_id.1".
var typeSuffix = regexp.MustCompile(`(OpName %\d+ "[^"]*)\.\d+"`)

// spirvText is the SPIR-V's disassembly with numeric ids and with the
// type-name suffixes above removed.
func spirvText(t *testing.T, dir string, spv []byte) string {
	t.Helper()
	f := filepath.Join(dir, "cmp.spv")
	if err := os.WriteFile(f, spv, 0o644); err != nil {
		t.Fatal(err)
	}
	return typeSuffix.ReplaceAllString(tool(t, dir, "spirv-dis", "--raw-id", f), `$1"`)
}

// TestClangSYCLLinkerDifferential runs clang-sycl-linker-22 and sycbuild's
// clang-sycl-linker on the same device bitcode with the same command lines
// (the driver's, with single-dash options and an empty -arch=, and the
// user's) and requires the same OffloadBinaries: one per image, equal in
// image kind, offload kind, flags and every string (triple, arch, symbols
// in order), and SPIR-V that disassembles the same once the names LLVM 22
// gives struct types it reads twice are set aside (struct.X.1 for
// struct.X: clang-sycl-linker-22 parses the linked module again in the
// context that holds the types). Where the two differ outside the output:
// clang-sycl-linker-22 leaves its SPIR-V beside it (llvm_0.spv), sycbuild
// only with --save-temps.
func TestClangSYCLLinkerDifferential(t *testing.T) {
	llvm := llvmSYCLLinker(t)
	ours := testenv.Sycbuild(t)
	testenv.Tool(t, "spirv-dis")
	dir := t.TempDir()
	inputs := deviceBitcode(t, dir)
	for _, args := range [][]string{
		{"-triple=spirv64-unknown-unknown", "-arch="},
		{"--triple=spirv64"},
		{"--triple=spirv64", "--arch=pvc"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			link := func(exe, out string, argv0 ...string) []*offloadbin.Image {
				cmd := exec.Command(exe, append(append(argv0, inputs...), append(args, "-o", out)...)...)
				cmd.Dir = dir
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", cmd, err, b)
				}
				ims, err := offloadbin.ReadFile(filepath.Join(dir, out))
				if err != nil {
					t.Fatal(err)
				}
				return ims
			}
			want := link(llvm, "llvm.img")
			got := link(ours, "ours.img", "clang-sycl-linker")
			if len(got) != len(want) {
				t.Fatalf("%d images, clang-sycl-linker-22 %d", len(got), len(want))
			}
			for i := range want {
				g, w := got[i], want[i]
				if g.ImageKind != w.ImageKind || g.OffloadKind != w.OffloadKind || g.Flags != w.Flags || !slices.Equal(g.Strings, w.Strings) {
					t.Errorf("image %d: %v %v %d %q, clang-sycl-linker-22: %v %v %d %q", i, g.ImageKind, g.OffloadKind, g.Flags, g.Strings, w.ImageKind, w.OffloadKind, w.Flags, w.Strings)
				}
				if gs, ws := spirvText(t, dir, g.Data), spirvText(t, dir, w.Data); gs != ws {
					t.Errorf("image %d: the SPIR-V differs from clang-sycl-linker-22's:\n%s\nclang-sycl-linker-22's:\n%s", i, gs, ws)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "ours_0.spv")); err == nil {
				t.Error("sycbuild left ours_0.spv beside its output")
			}
			if !slices.Equal(want[0].Symbols(), kernels) {
				t.Errorf("symbols %q, want %q", want[0].Symbols(), kernels)
			}
		})
	}
}

// TestClangFsyclEndToEnd compiles and links the example with clang++-22
// -fsycl, sycbuild in the loop: clang-linker-wrapper-22 runs a nested
// clang --sycl-link, which runs the first clang-sycl-linker it finds on
// its program path. The driver's -B does not reach that nested clang (the
// wrapper starts it without the driver's options); COMPILER_PATH, which
// every clang reads as -B, does, and so does -B handed to the wrapper for
// the nested clang, -Wl,--device-compiler=-B<dir>. The program is linked with
// testdata/desc.c in place of the SYCL runtime, and prints the descriptor
// its images register. By default the images are clang-sycl-linker-22's
// (the same descriptor as with LLVM's tool, but for the image's hash:
// see TestClangSYCLLinkerDifferential); with SYCBUILD_SPLIT=kernel in the
// environment or -Xoffload-linker --sycbuild-split=kernel on the command
// line, one image per kernel.
func TestClangFsyclEndToEnd(t *testing.T) {
	clangxx := testenv.Tool(t, "clang++-22")
	llvm := llvmSYCLLinker(t)
	links := testenv.ToolLinks(t)
	dir := t.TempDir()
	llvmLinks := filepath.Join(dir, "llvm")
	if err := os.Mkdir(llvmLinks, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(llvm, filepath.Join(llvmLinks, "clang-sycl-linker")); err != nil {
		t.Fatal(err)
	}
	harness, _ := filepath.Abs(filepath.Join("testdata", "desc.c"))
	tool(t, dir, "cc", "-c", "-o", "desc.o", harness)
	var srcs []string
	for _, tu := range []string{"vector_ops", "image_ops"} {
		p, _ := filepath.Abs(filepath.Join("src", tu+".cpp"))
		srcs = append(srcs, p)
	}
	// build builds the program name with the clang-sycl-linker in bin,
	// found through COMPILER_PATH unless env sets it empty.
	build := func(name, bin string, env []string, extra ...string) string {
		t.Helper()
		args := append(append([]string{"-fsycl", "-B", bin}, srcs...), "desc.o", "-o", name)
		cmd := exec.Command(clangxx, append(args, extra...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), append([]string{"COMPILER_PATH=" + bin}, env...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
		return tool(t, dir, filepath.Join(dir, name))
	}
	fnv := regexp.MustCompile(` fnv=[0-9a-f]+`)

	got := build("app", links, nil)
	t.Logf("sycbuild's images, registered:\n%s", got)
	want := build("app-llvm", llvmLinks, nil)
	if g, w := fnv.ReplaceAllString(got, ""), fnv.ReplaceAllString(want, ""); g != w {
		t.Errorf("the program registers\n%s\nwith clang-sycl-linker-22:\n%s", got, want)
	}
	if n := strings.Count(got, "\nimage "); n != 1 || !strings.Contains(got, "arch=spirv64-unknown-unknown") {
		t.Errorf("%d images, want one SPIR-V image for spirv64-unknown-unknown:\n%s", n, got)
	}

	perKernel := func(out string) {
		t.Helper()
		var names []string
		for _, k := range kernels {
			if !strings.Contains(out, " name="+k+" ") {
				names = append(names, k)
			}
		}
		if n := strings.Count(out, "\nimage "); n != len(kernels) || len(names) > 0 {
			t.Errorf("%d images (want %d), kernels missing: %q\n%s", n, len(kernels), names, out)
		}
		for i := range kernels {
			if strings.Count(out, fmt.Sprintf("\nentry %d ", i)) != 1 {
				t.Errorf("image %d does not hold exactly one kernel:\n%s", i, out)
			}
		}
	}
	split := build("app-split", links, []string{"SYCBUILD_SPLIT=kernel"})
	t.Logf("SYCBUILD_SPLIT=kernel:\n%s", split)
	perKernel(split)
	perKernel(build("app-xlinker", links, nil, "-Xoffload-linker", "--sycbuild-split=kernel"))
	// The command line alone, no COMPILER_PATH.
	perKernel(build("app-cmdline", links, []string{"COMPILER_PATH="}, "-Wl,--device-compiler=-B"+links, "-Xoffload-linker", "--sycbuild-split=kernel"))

	// Ahead of time for pvc: the triple and arch given after the driver's
	// win, as with LLVM's option tables; each image is ocloc's (format 1,
	// native) for spir64_gen.
	testenv.Tool(t, "ocloc")
	aot := build("app-aot", links, nil, "-Xoffload-linker", "--triple=spir64_gen", "-Xoffload-linker", "--arch=pvc", "-Xoffload-linker", "--sycbuild-split=kernel")
	t.Logf("ahead of time for pvc:\n%s", aot)
	perKernel(aot)
	if n := strings.Count(aot, " format=1 arch=spir64_gen "); n != len(kernels) {
		t.Errorf("%d native spir64_gen images, want %d:\n%s", n, len(kernels), aot)
	}
}
