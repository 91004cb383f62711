package examples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// cmakeStep is what a CMake build ran, from the lines it printed.
type cmakeStep struct{ deviceLink, hostCompile, finalLink bool }

func cmakeSteps(out string) cmakeStep {
	return cmakeStep{
		deviceLink:  strings.Contains(out, "Linking SYCL device code of reduce"),
		hostCompile: strings.Contains(out, "Building C object"),
		finalLink:   strings.Contains(out, "Linking C executable"),
	}
}

// TestCMakeExample configures examples/cmake with the Ninja and the Unix
// Makefiles generators, builds it, runs the program, and checks what each
// edit rebuilds. Ninja prunes the final link when sycbuild's object comes
// out unchanged (restat); make, which compares times only, links again.
// Last it drops INPUTS from the sycbuild_device_link call, so that only
// sycbuild's depfile tells the build about the device IR, and requires an
// edit of the IR to still run sycbuild.
func TestCMakeExample(t *testing.T) {
	cmake := testenv.Tool(t, "cmake")
	testenv.Tool(t, "cc")
	for _, gen := range []struct {
		name, tool string
		restat     bool
	}{
		{"Ninja", "ninja", true},
		{"Unix Makefiles", "make", false},
	} {
		t.Run(strings.ReplaceAll(gen.name, " ", ""), func(t *testing.T) {
			testenv.Tool(t, gen.tool)
			src := fresh(t, "cmake")
			build := filepath.Join(src, "build")
			run(t, src, nil, cmake, "-S", ".", "-B", "build", "-G", gen.name, "-DSYCBUILD_EXECUTABLE="+testenv.Sycbuild(t))
			step := func(what string, want cmakeStep) {
				t.Helper()
				out := run(t, src, nil, cmake, "--build", "build", "-j4")
				if got := cmakeSteps(out); got != want {
					t.Errorf("%s: the build ran %+v, want %+v\n%s", what, got, want, out)
				}
			}
			step("first build", cmakeStep{true, true, true})
			if out := run(t, src, nil, cmake, "--build", "build", "-j4", "--target", "clean"); strings.Contains(out, "jobserver") {
				t.Errorf("cleaning: %s", out)
			}
			if out := run(t, src, nil, cmake, "--build", "build", "-j4"); strings.Contains(out, "jobserver is unavailable") || strings.Contains(out, "using -j1") {
				t.Errorf("sycbuild fell back to one job under %s:\n%s", gen.name, out)
			}
			app := run(t, src, nil, filepath.Join(build, "reduce"))
			if n := len(lines(app, "llvm_spir64 none: _ZTSZ4mainE")); n != 3 || !strings.Contains(app, "_ZTSZ4mainE10Accumulate") {
				t.Fatalf("the program does not show three LLVM IR images:\n%s", app)
			}
			step("second build", cmakeStep{})
			touch(t, filepath.Join(src, "main.c"))
			step("touched main.c", cmakeStep{hostCompile: true, finalLink: true})
			touch(t, filepath.Join(src, "device", "reduce.ll"))
			step("touched the device IR", cmakeStep{deviceLink: true, finalLink: !gen.restat})
			step("after touching the device IR", cmakeStep{})
			edit(t, filepath.Join(src, "device", "reduce.ll"), "%s = add nsw i32 %a, %b", "%s = sub nsw i32 %a, %b")
			step("edited the device IR", cmakeStep{deviceLink: true, finalLink: true})
			touch(t, filepath.Join(src, "targets.yaml"))
			step("touched the config", cmakeStep{deviceLink: true, finalLink: !gen.restat})
			step("after touching the config", cmakeStep{})

			// JOBS sets sycbuild's jobs, whatever the generator.
			edit(t, filepath.Join(src, "CMakeLists.txt"), "\n  INPUTS device/reduce.ll)", "\n  INPUTS device/reduce.ll\n  JOBS 3)")
			run(t, src, nil, cmake, "--build", "build", "-j4") // reconfigures
			if !generatedCommandHas(t, build, "-j 3") {
				t.Errorf("JOBS 3 does not give sycbuild -j 3")
			}
			edit(t, filepath.Join(src, "CMakeLists.txt"), "\n  INPUTS device/reduce.ll\n  JOBS 3)", ")")
			run(t, src, nil, cmake, "--build", "build", "-j4") // reconfigures
			depfile := filepath.Join(build, "reduce.sycbuild", "device_images.o.d")
			if d := string(readFile(t, depfile)); !strings.Contains(d, filepath.Join(src, "device", "reduce.ll")) {
				t.Fatalf("the depfile does not name the device IR:\n%s", d)
			}
			touch(t, filepath.Join(src, "device", "reduce.ll"))
			step("touched the device IR known from the depfile only", cmakeStep{deviceLink: true, finalLink: !gen.restat})
			app = run(t, src, nil, filepath.Join(build, "reduce"))
			if n := len(lines(app, "llvm_spir64 none: _ZTSZ4mainE")); n != 3 {
				t.Fatalf("after the rebuilds the program does not show three LLVM IR images:\n%s", app)
			}
		})
	}
}

// edit replaces old (which must be there) with new in a file, keeping
// nothing else.
func edit(t *testing.T, path, old, new string) {
	t.Helper()
	b := readFile(t, path)
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	time.Sleep(30 * time.Millisecond) // see touch
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// generatedCommandHas reports whether the build files CMake generated in
// build (build.ninja, or the Makefiles' build.make) run sycbuild with want
// among its arguments.
func generatedCommandHas(t *testing.T, build, want string) bool {
	t.Helper()
	found := false
	filepath.WalkDir(build, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (d.Name() == "build.ninja" || d.Name() == "build.make") {
			for _, l := range strings.Split(string(readFile(t, p)), "\n") {
				if strings.Contains(l, "-config") && strings.Contains(l, " "+want+" ") {
					found = true
				}
			}
		}
		return nil
	})
	return found
}
