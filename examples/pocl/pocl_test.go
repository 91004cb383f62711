package pocl

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sycbuild/sycbuild/dpcpp/syclpostlink"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/spirvtest"
	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/props"
)

// spirvFlags are the DPC++ driver's llvm-spirv options (toolchain.md §3).
var spirvFlags = []string{
	"-spirv-max-version=1.4", "-spirv-debug-info-version=ocl-100", "-spirv-allow-extra-diexpressions",
	"-spirv-allow-unknown-intrinsics=llvm.genx.",
	"-spirv-ext=-all,+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max," +
		"+SPV_KHR_no_integer_wrap_decoration,+SPV_KHR_float_controls,+SPV_KHR_expect_assume,+SPV_KHR_linkonce_odr," +
		"+SPV_INTEL_subgroups,+SPV_INTEL_media_block_io,+SPV_INTEL_device_side_avc_motion_estimation," +
		"+SPV_INTEL_fpga_loop_controls,+SPV_INTEL_unstructured_loop_controls,+SPV_INTEL_fpga_reg," +
		"+SPV_INTEL_blocking_pipes,+SPV_INTEL_function_pointers,+SPV_INTEL_kernel_attributes,+SPV_INTEL_io_pipes," +
		"+SPV_INTEL_inline_assembly,+SPV_INTEL_arbitrary_precision_integers,+SPV_INTEL_float_controls2," +
		"+SPV_INTEL_vector_compute,+SPV_INTEL_fast_composite,+SPV_INTEL_arbitrary_precision_fixed_point," +
		"+SPV_INTEL_arbitrary_precision_floating_point,+SPV_INTEL_variable_length_array,+SPV_INTEL_fp_fast_math_mode," +
		"+SPV_INTEL_long_constant_composite,+SPV_INTEL_arithmetic_fence,+SPV_INTEL_token_type," +
		"+SPV_INTEL_bfloat16_conversion,+SPV_INTEL_joint_matrix,+SPV_INTEL_hw_thread_queries," +
		"+SPV_KHR_uniform_group_instructions",
}

// postLink runs sycbuild's sycl-post-link command line in-process.
func postLink(t *testing.T, args ...string) {
	t.Helper()
	var out, errb bytes.Buffer
	if rc := syclpostlink.Main("sycl-post-link", args, clopt.Stdio{In: strings.NewReader(""), Out: &out, Err: &errb}); rc != 0 {
		t.Fatalf("sycl-post-link %s: exit %d\n%s%s", strings.Join(args, " "), rc, out.String(), errb.String())
	}
}

// run runs an external tool and returns its standard output; a failure
// reports the command line and the tail of its standard error.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	path := testenv.Tool(t, name)
	cmd := exec.Command(path, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Env = append(os.Environ(), "POCL_KERNEL_CACHE=0")
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(errb.String()))
	}
	return out.String()
}

func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}

var (
	hostOnce sync.Once
	hostPath string
	hostErr  error
	hostDir  string
)

// host builds host.c once per test process.
func host(t *testing.T) string {
	t.Helper()
	gcc := testenv.Tool(t, "gcc")
	hostOnce.Do(func() {
		hostDir, hostErr = os.MkdirTemp("", "pocl-host-")
		if hostErr != nil {
			return
		}
		hostPath = filepath.Join(hostDir, "host")
		out, err := exec.Command(gcc, "-O1", "-Wall", "-o", hostPath, filepath.Join("testdata", "host.c"), "-lOpenCL").CombinedOutput()
		if err != nil {
			hostErr = errors.New(string(out))
		}
	})
	if hostErr != nil {
		testenv.Missing(t, "gcc with the OpenCL headers and libOpenCL: "+hostErr.Error())
	}
	return hostPath
}

func TestMain(m *testing.M) {
	rc := m.Run()
	if hostDir != "" {
		os.RemoveAll(hostDir)
	}
	os.Exit(rc)
}

// runKernel runs kernel sc_kernel of program bc on the OpenCL device and
// returns the outSize bytes it wrote; in, when set, is its second argument.
func runKernel(t *testing.T, bc string, outSize int, in string) []byte {
	t.Helper()
	h := host(t)
	args := []string{bc, "sc_kernel", strconv.Itoa(outSize)}
	if in != "" {
		args = append(args, in)
	}
	cmd := exec.Command(h, args...)
	cmd.Env = append(os.Environ(), "POCL_KERNEL_CACHE=0")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 3 {
		testenv.Missing(t, "an OpenCL platform (PoCL): "+errb.String())
	}
	if err != nil {
		t.Fatalf("host %s: %v\n%s", strings.Join(args, " "), err, tail(errb.String()))
	}
	b, err := hex.DecodeString(strings.TrimSpace(out.String()))
	if err != nil || len(b) != outSize {
		t.Fatalf("host output %q: %v", out.String(), err)
	}
	return b
}

// readProp reads the .prop file and returns the spec constants in file
// order and the default-value blob.
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
	if len(scs) == 0 || defaults == nil {
		t.Fatalf("%s: no spec-constant property sets", path)
	}
	return scs, defaults
}

// leaf is one scalar of a spec constant: its translator type and its
// little-endian bytes.
type leaf struct {
	typ   string // i8, i16, i32, i64, f32, f64
	bytes []byte
}

func i8(v int8) leaf   { return leaf{"i8", []byte{byte(v)}} }
func i16(v int16) leaf { return leaf{"i16", binary.LittleEndian.AppendUint16(nil, uint16(v))} }
func i32(v int32) leaf { return leaf{"i32", binary.LittleEndian.AppendUint32(nil, uint32(v))} }
func f32(v float32) leaf {
	return leaf{"f32", binary.LittleEndian.AppendUint32(nil, math.Float32bits(v))}
}
func f64(v float64) leaf {
	return leaf{"f64", binary.LittleEndian.AppendUint64(nil, math.Float64bits(v))}
}

// specValue is the leaf as llvm-spirv's --spec-const wants it: integers
// unsigned (it rejects negative numbers), floats in decimal.
func (l leaf) specValue() string {
	switch l.typ {
	case "f32":
		return strconv.FormatFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(l.bytes))), 'g', -1, 32)
	case "f64":
		return strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(l.bytes)), 'g', -1, 64)
	}
	var b [8]byte
	copy(b[:], l.bytes)
	return strconv.FormatUint(binary.LittleEndian.Uint64(b[:]), 10)
}

// compositeSize is how many bytes a constant takes: its descriptors'
// extent (a padding descriptor covers the tail).
func compositeSize(sc props.SpecConst) int {
	n := 0
	for _, d := range sc.Descs {
		if e := int(d.Offset + d.Size); e > n {
			n = e
		}
	}
	return n
}

// The native kernel's constants, leaf by leaf, with new values, and where
// it writes each leaf in its output.
var nativeLeaves = map[string][]struct {
	new leaf
	out int
}{
	"uid_sc_int":    {{i32(1234), 0}},
	"uid_sc_float":  {{f32(6.75), 4}},
	"uid_sc_coeffs": {{i32(77), 8}, {f64(0.125), 16}, {i16(-9), 24}, {f32(-1), 32}, {f32(3), 36}},
	"uid_sc_bool":   {{i8(0), 40}},
	"uid_sc_arr":    {{i32(100), 44}, {i32(200), 48}, {i32(-300), 52}},
}

const nativeOutSize = 56

func TestNativeSpecConstantsOnPoCL(t *testing.T) {
	dir := t.TempDir()
	postLink(t, "-properties", "-spec-const=native", "-S", "-o", filepath.Join(dir, "n.table"), filepath.Join("testdata", "native.ll"))
	ll, prop := filepath.Join(dir, "n_0.ll"), filepath.Join(dir, "n_0.prop")
	bc, spv := filepath.Join(dir, "n.bc"), filepath.Join(dir, "n.spv")
	run(t, "llvm-as-15", ll, "-o", bc)
	run(t, "llvm-as-19", ll, "-o", os.DevNull)
	run(t, "llvm-spirv-15", append(append([]string{}, spirvFlags...), bc, "-o", spv)...)
	run(t, "spirv-val", spv)
	dis := run(t, "spirv-dis", spv)

	scs, defaults := readProp(t, prop)
	consts, count, err := spirvtest.SpecConsts(dis)
	if err != nil {
		t.Fatal(err)
	}
	var specArgs []string
	defaultOut := make([]byte, nativeOutSize)
	wantOut := make([]byte, nativeOutSize)
	base, leaves := 0, 0
	for _, sc := range scs {
		want, ok := nativeLeaves[sc.SymID]
		if !ok {
			t.Fatalf(".prop names unknown constant %q", sc.SymID)
		}
		k := 0
		for _, d := range sc.Descs {
			if d.ID == props.PaddingID {
				continue
			}
			if k >= len(want) {
				t.Fatalf("%s: more descriptors than leaves", sc.SymID)
			}
			leaves++
			def := defaults[base+int(d.Offset) : base+int(d.Offset+d.Size)]
			c, ok := consts[d.ID]
			switch {
			case !ok:
				t.Errorf("%s: no OpSpecConstant with SpecId %d", sc.SymID, d.ID)
			case count[d.ID] != 1:
				t.Errorf("SpecId %d decorates %d constants", d.ID, count[d.ID])
			case c.Width/8 != int(d.Size) || len(want[k].new.bytes) != int(d.Size):
				t.Errorf("SpecId %d: %d-bit constant, descriptor size %d, leaf %s", d.ID, c.Width, d.Size, want[k].new.typ)
			case !c.Matches(def):
				t.Errorf("SpecId %d: default %s in SPIR-V, %x in the .prop", d.ID, c.Value, def)
			}
			specArgs = append(specArgs, strconv.FormatUint(uint64(d.ID), 10)+":"+want[k].new.typ+":"+want[k].new.specValue())
			copy(defaultOut[want[k].out:], def)
			copy(wantOut[want[k].out:], want[k].new.bytes)
			k++
		}
		if k != len(want) {
			t.Errorf("%s: %d descriptors for %d leaves", sc.SymID, k, len(want))
		}
		base += compositeSize(sc)
	}
	if base != len(defaults) {
		t.Errorf("default-value blob has %d bytes, the constants take %d", len(defaults), base)
	}
	if len(consts) != leaves || len(count) != leaves {
		t.Errorf("%d SpecId decorations, %d descriptors", len(count), leaves)
	}
	if t.Failed() {
		t.FailNow()
	}

	// Unspecialized, the kernel sees the defaults; specialized, the new
	// values.
	plain := filepath.Join(dir, "plain.bc")
	run(t, "llvm-spirv-15", "-r", spv, "-o", plain)
	if got := runKernel(t, plain, nativeOutSize, ""); !bytes.Equal(got, defaultOut) {
		t.Errorf("with defaults the kernel wrote\n%x, want\n%x", got, defaultOut)
	}
	spec := filepath.Join(dir, "spec.bc")
	run(t, "llvm-spirv-15", "-r", "--spec-const="+strings.Join(specArgs, " "), spv, "-o", spec)
	if got := runKernel(t, spec, nativeOutSize, ""); !bytes.Equal(got, wantOut) {
		t.Errorf("specialized with %q the kernel wrote\n%x, want\n%x", specArgs, got, wantOut)
	}
}

// field is a value the emulation kernel writes at an output offset.
type field struct {
	out   int
	bytes []byte
}

func le16(v int16) []byte    { return binary.LittleEndian.AppendUint16(nil, uint16(v)) }
func le32(v int32) []byte    { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
func le64(v int64) []byte    { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }
func lef32(v float32) []byte { return binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)) }
func lef64(v float64) []byte { return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)) }

// outer is %struct.Outer = { i8, { i32, double }, i16 } in memory: 32
// bytes, with padding after the i8, after the i32 and at the end.
func outer(a int8, b int32, c float64, d int16) []byte {
	m := make([]byte, 32)
	m[0] = byte(a)
	copy(m[8:], le32(b))
	copy(m[16:], lef64(c))
	copy(m[24:], le16(d))
	return m
}

func TestEmulatedSpecConstantsOnPoCL(t *testing.T) {
	dir := t.TempDir()
	postLink(t, "-properties", "-spec-const=emulation", "-S", "-o", filepath.Join(dir, "e.table"), filepath.Join("testdata", "emulation.ll"))
	ll, prop, bc := filepath.Join(dir, "e_0.ll"), filepath.Join(dir, "e_0.prop"), filepath.Join(dir, "e.bc")
	run(t, "llvm-as-15", ll, "-o", bc)
	run(t, "llvm-as-19", ll, "-o", os.DevNull)

	// Lay the buffer out as the runtime does: the constants in ID order,
	// each after the sizes of those before it (padding descriptors
	// included), starting from the default-value blob.
	scs, defaults := readProp(t, prop)
	offset := map[string]int{}
	size := map[string]int{}
	at := 0
	for i, sc := range scs {
		if len(sc.Descs) == 0 || sc.Descs[0].ID != uint32(i) || sc.Descs[0].Offset != 0 {
			t.Fatalf("%s: descriptors %v, want ID %d first at offset 0", sc.SymID, sc.Descs, i)
		}
		offset[sc.SymID], size[sc.SymID] = at, int(sc.Descs[0].Size)
		for _, d := range sc.Descs {
			if d.ID != sc.Descs[0].ID && d.ID != props.PaddingID {
				t.Fatalf("%s: emulated constant with several IDs: %v", sc.SymID, sc.Descs)
			}
			at += int(d.Size)
		}
	}
	if at != len(defaults) {
		t.Fatalf("default-value blob has %d bytes, the layout %d", len(defaults), at)
	}
	buf := append([]byte(nil), defaults...)
	overrides := map[string][]byte{
		"uid_i32":    le32(-99),
		"uid_bool":   {0},
		"uid_nested": outer(42, -123456, 6.5, -2),
		"uid_vec":    append(append(lef32(1.5), lef32(-2)...), append(lef32(0.25), lef32(1e6)...)...),
	}
	for sym, b := range overrides {
		o, ok := offset[sym]
		if !ok || len(b) != size[sym] {
			t.Fatalf("%s: not in the .prop or %d bytes for size %d", sym, len(b), size[sym])
		}
		copy(buf[o:], b)
	}
	in := filepath.Join(dir, "buffer.bin")
	if err := os.WriteFile(in, buf, 0o644); err != nil {
		t.Fatal(err)
	}

	got := runKernel(t, bc, 96, in)
	want := []struct {
		what string
		field
	}{
		{"i32 (set)", field{0, le32(-99)}},
		{"double (default)", field{8, lef64(3.25)}},
		{"half (default)", field{16, []byte{0x00, 0x3C}}},
		{"bool (set to false)", field{18, []byte{0}}},
		{"struct Outer.a (set)", field{24, []byte{42}}},
		{"struct Outer.inner.x (set)", field{32, le32(-123456)}},
		{"struct Outer.inner.y (set)", field{40, lef64(6.5)}},
		{"struct Outer.d (set)", field{48, le16(-2)}},
		{"array (default)", field{56, append(append(le64(1), le64(-2)...), le64(3)...)}},
		{"vector (set)", field{80, overrides["uid_vec"]}},
	}
	for _, w := range want {
		if g := got[w.out : w.out+len(w.bytes)]; !bytes.Equal(g, w.bytes) {
			t.Errorf("%s at %d: kernel read %x, want %x", w.what, w.out, g, w.bytes)
		}
	}
}
