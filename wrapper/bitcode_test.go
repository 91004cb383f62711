package wrapper_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/wrapper"
	"github.com/sycbuild/sycbuild/wrapper/wrappertest"
)

// bitcodeCases are the harness cases and one shaped like the peer's
// multi-batch test: three targets of three images, each with its entry and
// property set.
func bitcodeCases() []harnessCase {
	batch := harnessCase{
		name: "batch tables",
		images: func(f map[string]string) []wrapper.Image {
			var imgs []wrapper.Image
			for ti, target := range []string{"target-zero", "target-one", "target-two"} {
				for k, file := range []string{"a.spv", "b.bin", "c.bin"} {
					imgs = append(imgs, wrapper.Image{
						Kind: wrapper.OFK_SYCL, Target: target, Format: wrapper.SYCL_DEVICE_BINARY_TYPE_SPIRV, File: f[file],
						Entries: []string{fmt.Sprintf("_entry_targ_%d_%c", ti, 'A'+k)},
						PropertySets: []wrapper.PropertySet{{Name: fmt.Sprintf("testProp-Group%c", 'A'+3*ti+k),
							Properties: []wrapper.Property{{Name: fmt.Sprintf("testProp-name%d", 3*ti+k), Type: wrapper.SYCL_PROPERTY_TYPE_UINT32}}}},
					})
				}
			}
			return imgs
		},
	}
	return append(append([]harnessCase{}, harnessCases...), batch)
}

// TestBitcodeIsTheSameProgram checks that the bitcode path and the ELF path
// give the same program: for each case, the bitcode compiled by llc-19 and
// by llc-22 and linked with the harness prints the dump (every field) that
// the ELF object linked with the harness prints, and hands the runtime the
// same image bytes.
func TestBitcodeIsTheSameProgram(t *testing.T) {
	for _, tc := range []struct {
		name string
		tc   func(testing.TB) wrappertest.Toolchain
	}{{"x86_64", wrappertest.Native}, {"aarch64", wrappertest.AArch64}} {
		t.Run(tc.name, func(t *testing.T) {
			toolchain := tc.tc(t)
			llcs := []string{testenv.Tool(t, "llc-19"), testenv.Tool(t, "llc-22")}
			for _, c := range bitcodeCases() {
				t.Run(c.name, func(t *testing.T) {
					dir := t.TempDir()
					images := c.images(testFiles(t, dir))
					opt := c.opt
					opt.Host = toolchain.Host
					desc := ""
					if opt.DescName != "" {
						desc = ".sycl_offloading." + opt.DescName
					}

					obj := filepath.Join(dir, "wrapper.o")
					if err := wrapper.WriteFile(obj, images, opt); err != nil {
						t.Fatal(err)
					}
					elfStem := filepath.Join(dir, "elf-image")
					want := toolchain.Run(t, toolchain.Link(t, dir, "harness-elf", true, desc, []string{obj}), elfStem)

					opt.Output = wrapper.Bitcode
					bc := filepath.Join(dir, "wrapper.bc")
					if err := wrapper.WriteFile(bc, images, opt); err != nil {
						t.Fatal(err)
					}
					for i, llc := range llcs {
						bcObj := filepath.Join(dir, fmt.Sprintf("bc%d.o", i))
						if out, err := exec.Command(llc, "-filetype=obj", "-relocation-model=pic", "-o", bcObj, bc).CombinedOutput(); err != nil {
							t.Fatalf("%s: %v\n%s", llc, err, out)
						}
						stem := filepath.Join(dir, fmt.Sprintf("bc%d-image", i))
						got := toolchain.Run(t, toolchain.Link(t, dir, fmt.Sprintf("harness-bc%d", i), true, desc, []string{bcObj}), stem)
						if got != want {
							t.Fatalf("%s: the bitcode's program printed:\n%s\nthe ELF object's:\n%s", filepath.Base(llc), got, want)
						}
						if strings.Contains(want, "register") { // images were handed over and written out
							for k := range images {
								a, errA := os.ReadFile(fmt.Sprintf("%s.%d", elfStem, k))
								b, errB := os.ReadFile(fmt.Sprintf("%s.%d", stem, k))
								if errA != nil || errB != nil || !bytes.Equal(a, b) {
									t.Errorf("%s: image %d: %d bytes (%v) from the bitcode, %d bytes (%v) from the ELF object", filepath.Base(llc), k, len(b), errB, len(a), errA)
								}
							}
						}
					}
					// Both are what the inputs say.
					if w := wrappertest.Expect(t, images, c.opt, elfStem); want != w {
						t.Errorf("harness printed:\n%s\nwant:\n%s", want, w)
					}
				})
			}
		})
	}
}

// TestBitcodeReadByLLVM checks the module itself with LLVM's tools: the
// verifier accepts it, llvm-dis of LLVM 15, 19 and 22 reads it, and it
// prints what LLVM's own bitcode of the same text prints (llvm-as-19 of
// llvm-dis-19's output, disassembled again).
func TestBitcodeReadByLLVM(t *testing.T) {
	opt19 := testenv.Tool(t, "opt-19")
	as19 := testenv.Tool(t, "llvm-as-19")
	dis := map[string]string{}
	for _, v := range []string{"15", "19", "22"} {
		dis[v] = testenv.Tool(t, "llvm-dis-"+v)
	}
	for _, c := range bitcodeCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			images := c.images(testFiles(t, dir))
			opt := c.opt
			opt.Host, opt.Output = "x86_64-unknown-linux-gnu", wrapper.Bitcode
			bc := filepath.Join(dir, "w.bc")
			if err := wrapper.WriteFile(bc, images, opt); err != nil {
				t.Fatal(err)
			}
			run := func(name string, args ...string) []byte {
				t.Helper()
				cmd := exec.Command(name, args...)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil || stderr.Len() > 0 {
					t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, stderr.Bytes())
				}
				return out
			}
			run(opt19, "-passes=verify", "-disable-output", bc)
			text := run(dis["19"], "-o", "-", bc)
			for _, v := range []string{"15", "22"} {
				if other := run(dis[v], "-o", "-", bc); !bytes.Contains(other, []byte("@.sycl_offloading.device_images = internal unnamed_addr constant")) {
					t.Errorf("llvm-dis-%s printed:\n%s", v, other)
				}
			}
			ll := filepath.Join(dir, "w.ll")
			if err := os.WriteFile(ll, text, 0o644); err != nil {
				t.Fatal(err)
			}
			again := run(dis["19"], "-o", "-", bc)
			llvmBC := filepath.Join(dir, "llvm.bc")
			run(as19, "-o", llvmBC, ll)
			fromLLVM := run(dis["19"], "-o", "-", llvmBC)
			strip := func(b []byte) string { // the ModuleID line names the file
				s := string(b)
				return s[strings.IndexByte(s, '\n')+1:]
			}
			if strip(again) != strip(fromLLVM) {
				t.Errorf("llvm-dis-19 prints our bitcode as:\n%s\nand LLVM's bitcode of that text as:\n%s", again, fromLLVM)
			}
		})
	}
}

// TestBitcodeDeterministic checks that the same inputs, in another
// directory, give the same bitcode bytes.
func TestBitcodeDeterministic(t *testing.T) {
	for _, c := range bitcodeCases() {
		var outs [][]byte
		for range 2 {
			dir := t.TempDir()
			opt := c.opt
			opt.Output = wrapper.Bitcode
			var buf bytes.Buffer
			if err := wrapper.Write(&buf, c.images(testFiles(t, dir)), opt); err != nil {
				t.Fatal(err)
			}
			outs = append(outs, buf.Bytes())
		}
		if !bytes.Equal(outs[0], outs[1]) {
			t.Errorf("%s: two runs differ (%d and %d bytes)", c.name, len(outs[0]), len(outs[1]))
		}
	}
}

// TestBitcodeImageTooLarge checks that an image LLVM cannot hold in one
// constant (4 GiB and more) is refused with its name, before anything is
// read.
func TestBitcodeImageTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(4 << 30); err != nil {
		testenv.SkipNotChecked(t, fmt.Sprintf("an image of 4 GiB in a bitcode wrapper: cannot make a sparse file: %v", err))
	}
	f.Close()
	err = wrapper.Write(&bytes.Buffer{}, []wrapper.Image{{Kind: wrapper.OFK_SYCL, Target: "spir64", File: big}}, wrapper.Options{Output: wrapper.Bitcode})
	if err == nil || !strings.Contains(err.Error(), big) || !strings.Contains(err.Error(), "4294967296 bytes") {
		t.Errorf("error %v, want one naming %s and its size", err, big)
	}
}

// TestBitcodeNames checks the globals of three property sets against the
// lines the peer's driver tests expect of clang-offload-wrapper's module:
// names made unique with LLVM's module-wide counter, the set name after
// each property array, a byte array's raw bytes (here only its 8-byte bit
// count, zero).
func TestBitcodeNames(t *testing.T) {
	dis := testenv.Tool(t, "llvm-dis-19")
	dir := t.TempDir()
	f := testFiles(t, dir)
	images := []wrapper.Image{{Kind: wrapper.OFK_SYCL, Target: "spir64-unknown-unknown", File: f["a.spv"],
		PropertySets: []wrapper.PropertySet{
			{Name: "SYCL/devicelib req mask", Properties: []wrapper.Property{{Name: "DeviceLibReqMask", Type: wrapper.SYCL_PROPERTY_TYPE_UINT32}}},
			{Name: "SYCL/device requirements", Properties: []wrapper.Property{{Name: "aspects", Type: wrapper.SYCL_PROPERTY_TYPE_BYTE_ARRAY, Bytes: rawByteArray(nil)}}},
			{Name: "SYCL/misc properties", Properties: []wrapper.Property{{Name: "optLevel", Type: wrapper.SYCL_PROPERTY_TYPE_UINT32, Uint32: 2}}},
		}}}
	bc := filepath.Join(dir, "w.bc")
	if err := wrapper.WriteFile(bc, images, wrapper.Options{Host: "spir64-unknown-unknown", Output: wrapper.Bitcode}); err == nil {
		t.Errorf("a SPIR-V host was accepted")
	}
	if err := wrapper.WriteFile(bc, images, wrapper.Options{Host: "x86_64-unknown-linux-gnu", Output: wrapper.Bitcode}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(dis, "-o", "-", bc).Output()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "@prop") || strings.HasPrefix(l, "@SYCL_PropSetName") || strings.HasPrefix(l, "@__sycl_offload_prop_sets_arr") {
			lines = append(lines, l)
		}
	}
	want := []string{
		`@prop = internal unnamed_addr constant [17 x i8] c"DeviceLibReqMask\00"`,
		`@__sycl_offload_prop_sets_arr = internal constant [1 x %_pi_device_binary_property_struct] [%_pi_device_binary_property_struct { ptr @prop, ptr null, i32 1, i64 0 }]`,
		`@SYCL_PropSetName = internal unnamed_addr constant [24 x i8] c"SYCL/devicelib req mask\00"`,
		`@prop.1 = internal unnamed_addr constant [8 x i8] c"aspects\00"`,
		`@prop_val = internal unnamed_addr constant [8 x i8] zeroinitializer`,
		`@__sycl_offload_prop_sets_arr.2 = internal constant [1 x %_pi_device_binary_property_struct] [%_pi_device_binary_property_struct { ptr @prop.1, ptr @prop_val, i32 2, i64 8 }]`,
		`@SYCL_PropSetName.3 = internal unnamed_addr constant [25 x i8] c"SYCL/device requirements\00"`,
		`@prop.4 = internal unnamed_addr constant [9 x i8] c"optLevel\00"`,
		`@__sycl_offload_prop_sets_arr.5 = internal constant [1 x %_pi_device_binary_property_struct] [%_pi_device_binary_property_struct { ptr @prop.4, ptr null, i32 1, i64 2 }]`,
		`@SYCL_PropSetName.6 = internal unnamed_addr constant [21 x i8] c"SYCL/misc properties\00"`,
		`@__sycl_offload_prop_sets_arr.7 = internal constant [3 x %_pi_device_binary_property_set_struct] [%_pi_device_binary_property_set_struct { ptr @SYCL_PropSetName, ptr @__sycl_offload_prop_sets_arr, ptr getelementptr inbounds ([1 x %_pi_device_binary_property_struct], ptr @__sycl_offload_prop_sets_arr, i64 1, i64 0) }, %_pi_device_binary_property_set_struct { ptr @SYCL_PropSetName.3, ptr @__sycl_offload_prop_sets_arr.2, ptr getelementptr inbounds ([1 x %_pi_device_binary_property_struct], ptr @__sycl_offload_prop_sets_arr.2, i64 1, i64 0) }, %_pi_device_binary_property_set_struct { ptr @SYCL_PropSetName.6, ptr @__sycl_offload_prop_sets_arr.5, ptr getelementptr inbounds ([1 x %_pi_device_binary_property_struct], ptr @__sycl_offload_prop_sets_arr.5, i64 1, i64 0) }]`,
	}
	if got := strings.Join(lines, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("llvm-dis-19 prints:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}
