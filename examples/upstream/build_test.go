package upstream

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// sycbuild runs the sycbuild command in dir and returns its output.
func sycbuild(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(testenv.Sycbuild(t), args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sycbuild %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// copyFiles copies the named files of this directory into dir.
func copyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readTable reads a file table's rows (paths relative to dir).
func readTable(t *testing.T, dir, table string) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, table))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		rows = append(rows, strings.Split(l, "|"))
	}
	return rows
}

// TestBuild builds the two translation units of tu/ with targets.yaml (per
// kernel) and per_source.yaml (per translation unit) for llvm_ir, spir64
// and spir64_gen. The IR is clang-22's, which llvm-spirv-15 cannot read:
// the SPIR-V targets take LLVM's SPIR-V backend (the dry run shows it),
// every module's SPIR-V passes spirv-val (the build runs it, and so does
// the test) and ocloc makes a pvc binary of each. Per source, the build
// gives each input's functions its source_filename as "sycl-module-id", so
// each translation unit becomes one module. Per kernel, the built SPIR-V
// of VecScale and Clamp runs on PoCL and computes the right values.
func TestBuild(t *testing.T) {
	for _, tc := range []struct {
		config, build string
		want          [][]string // the kernels of each module, sorted
	}{
		{"targets.yaml", "out/per_kernel", [][]string{{"_ZTS9Threshold"}, {"_ZTS8VecScale"}, {"_ZTS6VecAdd"}, {"_ZTS5Clamp"}}},
		{"per_source.yaml", "out/per_source", [][]string{{"_ZTS6VecAdd", "_ZTS8VecScale"}, {"_ZTS5Clamp", "_ZTS9Threshold"}}},
	} {
		t.Run(tc.config, func(t *testing.T) {
			testenv.Tool(t, "llc-22")
			testenv.Tool(t, "ocloc")
			dir := t.TempDir()
			copyFiles(t, dir, tc.config, "tu/vector_ops.ll", "tu/image_ops.ll")
			dry := sycbuild(t, dir, "-config", tc.config, "-n")
			if !strings.Contains(dry, "llc-22 -mtriple=spirv64v1.3-unknown-unknown -filetype=obj") || strings.Contains(dry, "llvm-spirv") {
				t.Errorf("the dry run does not take LLVM's SPIR-V backend:\n%s", dry)
			}
			if tc.config == "per_source.yaml" && !strings.Contains(dry, "sycl-module-id -o") {
				t.Errorf("the dry run gives no module ids:\n%s", dry)
			}
			sycbuild(t, dir, "-config", tc.config, "-j", "2")
			for _, target := range []string{"spir64", "spir64_gen"} {
				rows := readTable(t, dir, filepath.Join(tc.build, target, "images.table"))
				var got [][]string
				for _, r := range rows {
					sym := readLines(t, filepath.Join(dir, r[2]))
					slices.Sort(sym)
					got = append(got, sym)
					spv := filepath.Join(dir, strings.TrimSuffix(r[0], filepath.Ext(r[0]))+".spv")
					tool(t, dir, "spirv-val", spv)
					if target == "spir64_gen" {
						if fi, err := os.Stat(filepath.Join(dir, r[0])); err != nil || fi.Size() == 0 {
							t.Errorf("%s: no ocloc binary", r[0])
						}
					}
				}
				if !slices.EqualFunc(got, tc.want, slices.Equal) {
					t.Errorf("%s: modules' kernels %q, want %q", target, got, tc.want)
				}
			}
			if tc.config == "targets.yaml" {
				runBuiltOnPoCL(t, dir, readTable(t, dir, filepath.Join(tc.build, "spir64", "images.table")))
			}
		})
	}
}

// runBuiltOnPoCL runs the built SPIR-V of VecScale and Clamp on PoCL
// (through llvm-spirv-15 -r, as TestKernelsOnPoCL does; the modules of the
// other two kernels hold a scalar OpConstantNull that llvm-spirv-15 cannot
// read) and checks their results.
func runBuiltOnPoCL(t *testing.T, dir string, rows [][]string) {
	t.Helper()
	testenv.Tool(t, "llvm-spirv-15")
	runs := map[string]struct {
		args []string
		want string
	}{
		"_ZTS8VecScale": {[]string{"b:0,0,0,0", "b:1,2,3,4", "b:0"}, "0: 3 6 9 12"},
		"_ZTS5Clamp":    {[]string{"b:-5,5,50,500", "i:0", "i:100"}, "0: 0 5 50 100"},
	}
	ran := 0
	for _, r := range rows {
		kernel := readLines(t, filepath.Join(dir, r[2]))[0]
		c, ok := runs[kernel]
		if !ok {
			continue
		}
		spv := filepath.Join(dir, r[0])
		bc := strings.TrimSuffix(spv, ".spv") + ".pocl.bc"
		tool(t, dir, "llvm-spirv-15", "-r", spv, "-o", bc)
		if lines := runOnPoCL(t, bc, kernel, 4, c.args...); lines[0] != c.want {
			t.Errorf("%s on PoCL: %q, want %q", kernel, lines[0], c.want)
		}
		ran++
	}
	if ran != len(runs) {
		t.Errorf("%d kernels run on PoCL, want %d", ran, len(runs))
	}
}

// TestBuildRoutes builds the quickstart (LLVM 15 IR, which both routes
// read) for spir64 and spir64_gen through the translator and through the
// backend, and examples/pocl/testdata/native.ll through the backend, where
// each module's native spec constants must come out with the SpecIds and
// defaults of its .prop.
func TestBuildRoutes(t *testing.T) {
	root := testenv.RepoRoot(t)
	for _, tc := range []struct{ name, input, route string }{
		{"quickstart/translator", "examples/quickstart/device.ll", "translator"},
		{"quickstart/llvm-backend", "examples/quickstart/device.ll", "llvm-backend"},
		{"native/llvm-backend", "examples/pocl/testdata/native.ll", "llvm-backend"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			b, err := os.ReadFile(filepath.Join(root, tc.input))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "device.ll"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := "inputs: [device.ll]\nsplit: per_kernel\ntargets:\n" +
				"  - kind: spir64\n    spirv: " + tc.route + "\n" +
				"  - kind: spir64_gen\n    devices: [pvc]\n    spirv: " + tc.route + "\n"
			if err := os.WriteFile(filepath.Join(dir, "targets.yaml"), []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			dry := sycbuild(t, dir, "-n")
			if backend := strings.Contains(dry, "llc-22 -mtriple=spirv64v1.3"); backend != (tc.route == "llvm-backend") || strings.Contains(dry, "llvm-spirv-15") == backend {
				t.Errorf("route %s: the dry run shows the other route:\n%s", tc.route, dry)
			}
			sycbuild(t, dir, "-j", "2")
			rows := readTable(t, dir, "out/spir64/images.table")
			if len(rows) == 0 {
				t.Fatal("no SPIR-V images")
			}
			for _, r := range rows {
				spv := filepath.Join(dir, r[0])
				tool(t, dir, "spirv-val", spv)
				dis := tool(t, dir, "spirv-dis", spv)
				scs, defaults := readProp(t, filepath.Join(dir, r[1]))
				if tc.route == "llvm-backend" && len(scs) > 0 {
					checkSpecIDs(t, spv, dis, scs, defaults)
				}
			}
			for _, r := range readTable(t, dir, "out/spir64_gen/images.table") {
				if fi, err := os.Stat(filepath.Join(dir, r[0])); err != nil || fi.Size() == 0 {
					t.Errorf("%s: no ocloc binary", r[0])
				}
			}
		})
	}
}

// TestBuildOffloadBinary builds the per-kernel config with wrapper:
// offload-binary: llvm-objdump-22 --offloading lists every image of every
// target (4 kernels × llvm_ir, spir64, spir64_gen) with its triple, and
// the object, linked with testdata/desc.c, registers them with LLVM 22's
// descriptor.
func TestBuildOffloadBinary(t *testing.T) {
	testenv.Tool(t, "llc-22")
	testenv.Tool(t, "ocloc")
	dir := t.TempDir()
	copyFiles(t, dir, "targets.yaml", "tu/vector_ops.ll", "tu/image_ops.ll")
	cfg, err := os.ReadFile(filepath.Join(dir, "targets.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg = append(cfg, "wrapper: offload-binary\n"...)
	if err := os.WriteFile(filepath.Join(dir, "targets.yaml"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	if dry := sycbuild(t, dir, "-n"); !strings.Contains(dry, "clang-offload-wrapper -o out/per_kernel/device_images.o --output-format=elf -host=x86_64-unknown-linux-gnu -batch -kind=sycl --offload-binary") {
		t.Errorf("the wrapper is not asked for the offload-binary form:\n%s", dry)
	}
	sycbuild(t, dir, "-j", "2")
	dump := tool(t, dir, "llvm-objdump-22", "--offloading", "out/per_kernel/device_images.o")
	for triple, n := range map[string]int{"spir64-unknown-unknown": 4, "spirv64-unknown-unknown": 4, "spir64_gen-unknown-unknown": 4} {
		if got := strings.Count(dump, "triple          "+triple+"\nproducer        sycl\n"); got != n {
			t.Errorf("llvm-objdump-22 --offloading lists %d SYCL images for %s, want %d:\n%s", got, triple, n, dump)
		}
	}
	desc := dumpDescriptor(t, dir, "out/per_kernel/device_images.o")
	if !strings.HasPrefix(desc, "desc version=1 images=12 host_entries=null\n") || strings.Count(desc, " version=3 offload_kind=8 ") != 12 || strings.Count(desc, "\nentry ") != 12 {
		t.Errorf("the registered descriptor:\n%s", desc)
	}
}
