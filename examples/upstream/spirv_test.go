package upstream

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sycbuild/sycbuild/internal/spirvtest"
	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/props"
)

// spirvTriple makes LLVM's SPIR-V backend write SPIR-V 1.3: at its default,
// 1.4, `icmp eq ptr` becomes OpPtrEqual, which Debian's ocloc (IGC) does not
// take; at 1.3 it becomes two OpConvertPtrToU and an OpIEqual.
const spirvTriple = "spirv64v1.3-unknown-unknown"

// tool runs an external tool in dir and returns its standard output and
// standard error together; a failure shows the command.
func tool(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out, err := toolErr(t, dir, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

func toolErr(t *testing.T, dir, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(testenv.Tool(t, name), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "POCL_KERNEL_CACHE=0")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// backend compiles one module (an absolute path, as postLink's table
// gives them) with llc-22 and validates the SPIR-V with spirv-val; it
// returns the SPIR-V's path and its disassembly.
func backend(t *testing.T, dir, module, triple string) (string, string) {
	t.Helper()
	spv := strings.TrimSuffix(module, filepath.Ext(module)) + "." + triple + ".spv"
	tool(t, dir, "llc-22", "-mtriple="+triple, "-filetype=obj", module, "-o", spv)
	tool(t, dir, "spirv-val", spv)
	return spv, tool(t, dir, "spirv-dis", spv)
}

// ocloc compiles SPIR-V (an absolute path) for pvc and requires a binary
// to come out.
func ocloc(t *testing.T, dir, spv string) {
	t.Helper()
	out := strings.TrimSuffix(spv, ".spv") + ".pvc"
	tool(t, dir, "ocloc", "compile", "-q", "-file", spv, "-spirv_input", "-device", "pvc", "-output", out, "-output_no_suffix")
	if fi, err := os.Stat(out); err != nil || fi.Size() == 0 {
		t.Errorf("ocloc wrote no binary for %s", spv)
	}
}

// input is a module the SPIR-V test splits and compiles.
type input struct {
	name, path string
	splits     []string
}

func inputs(t *testing.T) []input {
	root := testenv.RepoRoot(t)
	return []input{
		{"upstream", "device.ll", []string{"kernel", "source"}},
		{"quickstart", filepath.Join(root, "examples", "quickstart", "device.ll"), []string{"kernel", "source"}},
		{"pocl-native", filepath.Join(root, "examples", "pocl", "testdata", "native.ll"), []string{"kernel"}},
	}
}

// TestSPIRVBackend compiles every module sycl-post-link writes from the
// inputs, in both spec-constant modes, to SPIR-V with llc-22, validates it
// and compiles it for pvc with ocloc. Native modules must carry one
// OpSpecConstant with a SpecId per .prop descriptor, holding the .prop's
// default value.
func TestSPIRVBackend(t *testing.T) {
	for _, in := range inputs(t) {
		for _, split := range in.splits {
			for _, sc := range []string{"native", "emulation"} {
				t.Run(in.name+"/"+split+"/"+sc, func(t *testing.T) {
					src, err := filepath.Abs(in.path)
					if err != nil {
						t.Fatal(err)
					}
					dir := t.TempDir()
					for _, r := range postLink(t, dir, src, "-split="+split, "-spec-const="+sc) {
						spv, dis := backend(t, dir, r[0], spirvTriple)
						if strings.Contains(dis, "OpPtrEqual") {
							t.Errorf("%s: SPIR-V 1.3 has OpPtrEqual", spv)
						}
						ocloc(t, dir, spv)
						scs, defaults := readProp(t, r[1])
						if sc == "native" {
							checkSpecIDs(t, spv, dis, scs, defaults)
						} else if strings.Contains(dis, "SpecId") {
							t.Errorf("%s: emulated spec constants left SpecId decorations", spv)
						}
					}
				})
			}
		}
	}
}

// TestPtrEqual shows why the backend is asked for SPIR-V 1.3: the Clamp
// kernel compares a pointer with null, which the default SPIR-V version
// writes as OpPtrEqual (ocloc's verdict on it is logged).
func TestPtrEqual(t *testing.T) {
	dir := t.TempDir()
	src, _ := filepath.Abs("device.ll")
	for _, r := range postLink(t, dir, src, "-split=kernel", "-spec-const=native") {
		if sym := readLines(t, r[2]); sym[0] != "_ZTS5Clamp" {
			continue
		}
		spv, dis := backend(t, dir, r[0], "spirv64-unknown-unknown")
		if !strings.Contains(dis, "; Version: 1.4") || !strings.Contains(dis, "OpPtrEqual") {
			t.Errorf("llc-22's default SPIR-V is not 1.4 with OpPtrEqual for icmp eq ptr:\n%s", dis)
		}
		out, err := toolErr(t, dir, "ocloc", "compile", "-file", spv, "-spirv_input", "-device", "pvc", "-output", "default")
		t.Logf("ocloc on SPIR-V 1.4 (error %v):\n%s", err, out)
		return
	}
	t.Fatal("no module holds _ZTS5Clamp")
}

// readProp reads a .prop file's spec constants in file order and its
// default-value blob (nil when it has none).
func readProp(t *testing.T, path string) ([]props.SpecConst, []byte) {
	t.Helper()
	reg, err := props.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	scs, defaults, err := reg.SpecConsts()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return scs, defaults
}

// checkSpecIDs requires one SpecId per non-padding descriptor of the .prop,
// no other SpecId, and each constant's literal equal to its default bytes
// (the default blob holds the constants in .prop order, each as long as
// its descriptors reach).
func checkSpecIDs(t *testing.T, spv, dis string, scs []props.SpecConst, defaults []byte) {
	t.Helper()
	got, count, err := spirvtest.SpecConsts(dis)
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint32]bool{}
	base := 0
	for _, sc := range scs {
		size := 0
		for _, d := range sc.Descs {
			size = max(size, int(d.Offset+d.Size))
			if d.ID == props.PaddingID {
				continue
			}
			want[d.ID] = true
			c, ok := got[d.ID]
			if !ok {
				t.Errorf("%s: %s: no OpSpecConstant with SpecId %d", spv, sc.SymID, d.ID)
				continue
			}
			if count[d.ID] != 1 {
				t.Errorf("%s: SpecId %d decorates %d constants", spv, d.ID, count[d.ID])
			}
			at := base + int(d.Offset)
			if at+int(d.Size) > len(defaults) {
				t.Errorf("%s: %s: descriptor %+v outside the %d default bytes", spv, sc.SymID, d, len(defaults))
			} else if !c.Matches(defaults[at : at+int(d.Size)]) {
				t.Errorf("%s: SpecId %d = %s (%d bits), .prop default % x", spv, d.ID, c.Value, c.Width, defaults[at:at+int(d.Size)])
			}
		}
		base += size
	}
	for id := range got {
		if !want[id] {
			t.Errorf("%s: SpecId %d has no .prop descriptor", spv, id)
		}
	}
	t.Logf("%s: %d SpecIds match the .prop", filepath.Base(spv), len(got))
}

var (
	hostOnce sync.Once
	hostPath string
	hostOut  []byte
	hostErr  error
)

// host builds testdata/host.c once per test process.
func host(t *testing.T) string {
	t.Helper()
	gcc := testenv.Tool(t, "gcc")
	hostOnce.Do(func() {
		dir, err := os.MkdirTemp("", "upstream-host-")
		if err != nil {
			hostErr = err
			return
		}
		hostPath = filepath.Join(dir, "host")
		hostOut, hostErr = exec.Command(gcc, "-O1", "-Wall", "-o", hostPath, filepath.Join("testdata", "host.c"), "-lOpenCL").CombinedOutput()
	})
	if hostErr != nil {
		testenv.Missing(t, fmt.Sprintf("gcc with the OpenCL headers and libOpenCL: %v\n%s", hostErr, hostOut))
	}
	return hostPath
}

func TestMain(m *testing.M) {
	rc := m.Run()
	if hostPath != "" {
		os.RemoveAll(filepath.Dir(hostPath))
	}
	testenv.RemoveSycbuild()
	os.Exit(rc)
}

// runOnPoCL runs kernel of bc over n work-items with the host's argument
// strings and returns its output lines.
func runOnPoCL(t *testing.T, bc, kernel string, n int, args ...string) []string {
	t.Helper()
	h := host(t)
	cmd := exec.Command(h, append([]string{bc, kernel, strconv.Itoa(n)}, args...)...)
	cmd.Env = append(os.Environ(), "POCL_KERNEL_CACHE=0")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
		testenv.Missing(t, "an OpenCL platform (PoCL): "+errb.String())
	}
	if err != nil {
		t.Fatalf("host %s %s: %v\n%s", bc, kernel, err, errb.String())
	}
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

// TestKernelsOnPoCL runs the backend's SPIR-V of the per-kernel modules on
// PoCL's CPU device: llvm-spirv-15 -r turns it into LLVM 15 bitcode (with
// --spec-const to specialize native constants), which PoCL runs.
func TestKernelsOnPoCL(t *testing.T) {
	type run struct {
		specConst string   // llvm-spirv-15 -r --spec-const, or ""
		args      []string // the kernel's arguments
		want      string   // the output line of the first buffer
	}
	cases := map[string][]run{
		"native/_ZTS8VecScale": {
			{"", []string{"b:0,0,0,0", "b:1,2,3,4", "b:0"}, "0: 3 6 9 12"},
			{"0:i32:5", []string{"b:0,0,0,0", "b:1,2,3,4", "b:0"}, "0: 5 10 15 20"},
		},
		// The constant comes from the buffer the runtime passes.
		"emulation/_ZTS8VecScale": {{"", []string{"b:0,0,0,0", "b:1,2,3,-4", "b:7"}, "0: 7 14 21 -28"}},
		"native/_ZTS5Clamp":       {{"", []string{"b:-5,5,50,500", "i:0", "i:100"}, "0: 0 5 50 100"}},
		"native/_ZTS6VecAdd":      {{"", []string{"b:0,0,0,0", "b:1,2,30,-9", "b:10,20,50,1"}, "0: 12 24 100 0"}},
		"native/_ZTS9Threshold":   {{"", []string{"b:1,5,9,3", "i:4"}, "0: 0 14 22 0"}},
	}
	testenv.Tool(t, "llvm-spirv-15")
	ran := 0
	for _, sc := range []string{"native", "emulation"} {
		dir := t.TempDir()
		src, _ := filepath.Abs("device.ll")
		for _, r := range postLink(t, dir, src, "-split=kernel", "-spec-const="+sc) {
			kernel := readLines(t, r[2])[0]
			runs := cases[sc+"/"+kernel]
			if len(runs) == 0 {
				continue
			}
			spv, dis := backend(t, dir, r[0], spirvTriple)
			for i, c := range runs {
				bc := fmt.Sprintf("%s.%d.bc", strings.TrimSuffix(spv, ".spv"), i)
				args := []string{"-r", spv, "-o", bc}
				if c.specConst != "" {
					args = append(args, "--spec-const="+c.specConst)
				}
				out, err := toolErr(t, dir, "llvm-spirv-15", args...)
				if err != nil {
					// llvm-spirv-15 asserts on OpConstantNull of a scalar
					// type, which the backend writes for a zero integer
					// (valid SPIR-V: spirv-val accepted it).
					if hasScalarConstantNull(dis) && strings.Contains(out, "SPIRVConstantNull::validate") {
						t.Logf("%s %s: llvm-spirv-15 -r cannot read the backend's scalar OpConstantNull; not run on PoCL", sc, kernel)
						break
					}
					t.Fatalf("llvm-spirv-15 %s: %v\n%s", strings.Join(args, " "), err, out)
				}
				lines := runOnPoCL(t, bc, kernel, 4, c.args...)
				if lines[0] != c.want {
					t.Errorf("%s %s (spec const %q): %q, want %q", sc, kernel, c.specConst, lines[0], c.want)
				}
				ran++
			}
		}
	}
	if ran < 4 {
		t.Errorf("only %d kernel runs on PoCL, want VecScale (3) and Clamp at least", ran)
	}
}

// hasScalarConstantNull reports whether a disassembly has an OpConstantNull
// of an integer or float type.
func hasScalarConstantNull(dis string) bool {
	scalar := map[string]bool{}
	for _, line := range strings.Split(dis, "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && f[1] == "=" && (f[2] == "OpTypeInt" || f[2] == "OpTypeFloat") {
			scalar[f[0]] = true
		}
		if len(f) == 4 && f[2] == "OpConstantNull" && scalar[f[3]] {
			return true
		}
	}
	return false
}
