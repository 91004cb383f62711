package offloadwrapper

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/wrapper"
	"github.com/sycbuild/sycbuild/wrapper/wrappertest"
)

// run runs the tool in dir (relative paths on the command line are
// relative to it) and returns its exit status, stdout and stderr.
func run(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	rc := Main("clang-offload-wrapper", args, clopt.Stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
	return rc, out.String(), errb.String()
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// byteArray is a raw byte-array property value: bit count, then data.
func byteArray(data ...byte) []byte {
	return append(binary.LittleEndian.AppendUint64(nil, uint64(len(data))*8), data...)
}

func uintProp(name string, v uint32) wrapper.Property {
	return wrapper.Property{Name: name, Type: wrapper.SYCL_PROPERTY_TYPE_UINT32, Uint32: v}
}

var files = map[string]string{
	"t1.tgt":     "Content of device file1\n",
	"t2.tgt":     "Content of device file2\n",
	"t1_mf.txt":  "Content of manifest file1\n",
	"a.prop":     "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|0\n[SYCL/device requirements]\naspects=2|gBAAAAAAAAQAAAAACAAAAQAAAAA\n",
	"b.prop":     "[testProp-GroupB]\r\ntestProp-name3=1|0\n\n",
	"a.sym":      "entryA\nentryB\n",
	"b.sym":      "\n_entry_B\r\n",
	"big.spv":    strings.Repeat("SPIR-V words SPIR-V words ", 200),
	"0.table":    "[Code|Properties|Symbols]\nt1.tgt|a.prop|a.sym\nt2.tgt|b.prop|b.sym\n",
	"1.table":    "[Code|Symbols|Properties|Manifest]\nbig.spv|||t1_mf.txt\nt2.tgt|a.sym||\n",
	"code.table": "[Code]\nt1.tgt\n",
}

// imgs are the images of files as the tests describe them, independently of
// the tool's reading.
func imgs(dir string) map[string]wrapper.Image {
	p := func(n string) string { return filepath.Join(dir, n) }
	aProps := []wrapper.PropertySet{
		{Name: "SYCL/devicelib req mask", Properties: []wrapper.Property{uintProp("DeviceLibReqMask", 0)}},
		{Name: "SYCL/device requirements", Properties: []wrapper.Property{{Name: "aspects", Type: wrapper.SYCL_PROPERTY_TYPE_BYTE_ARRAY, Bytes: byteArray(1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0)}}},
	}
	bProps := []wrapper.PropertySet{{Name: "testProp-GroupB", Properties: []wrapper.Property{uintProp("testProp-name3", 0)}}}
	return map[string]wrapper.Image{
		"t1 with a": {Kind: wrapper.OFK_SYCL, File: p("t1.tgt"), PropertySets: aProps, Entries: []string{"entryA", "entryB"}},
		"t2 with b": {Kind: wrapper.OFK_SYCL, File: p("t2.tgt"), PropertySets: bProps, Entries: []string{"_entry_B"}},
		"big":       {Kind: wrapper.OFK_SYCL, File: p("big.spv"), Manifest: p("t1_mf.txt")},
		"t2 syms a": {Kind: wrapper.OFK_SYCL, File: p("t2.tgt"), Entries: []string{"entryA", "entryB"}},
	}
}

func TestCommandLines(t *testing.T) {
	tc := wrappertest.Native(t)
	cases := []struct {
		name string
		args []string
		want func(dir string) []wrapper.Image
		opt  wrapper.Options // what the expected output depends on
	}{
		{
			name: "the peer's SYCL images",
			args: []string{"-host=x86_64-pc-linux-gnu", "-kind=sycl", "-target=tg1", "-compile-opts=-g", "-link-opts=-cl-denorms-are-zero",
				"-format", "spirv", "t1.tgt", "-target=tg2", "-compile-opts=", "-link-opts=", "-format", "native", "t2.tgt"},
			want: func(dir string) []wrapper.Image {
				return []wrapper.Image{
					{Kind: wrapper.OFK_SYCL, Target: "tg1", Format: wrapper.SYCL_DEVICE_BINARY_TYPE_SPIRV, CompileOptions: "-g", LinkOptions: "-cl-denorms-are-zero", File: filepath.Join(dir, "t1.tgt")},
					{Kind: wrapper.OFK_SYCL, Target: "tg2", Format: wrapper.SYCL_DEVICE_BINARY_TYPE_NATIVE, File: filepath.Join(dir, "t2.tgt")},
				}
			},
		},
		{
			name: "manifests, sticky and reset annotations",
			args: []string{"-kind=sycl", "-target=spir64", "-entries=a.sym", "-properties=a.prop", "t1.tgt", "t1_mf.txt",
				"-properties=b.prop", "-v", "t1.tgt", "-entries=", "-properties=", "-format=llvmbc", "t2.tgt"},
			want: func(dir string) []wrapper.Image {
				im := imgs(dir)
				first := im["t1 with a"]
				first.Target, first.Manifest = "spir64", filepath.Join(dir, "t1_mf.txt")
				second := im["t1 with a"]
				second.Target, second.PropertySets = "spir64", im["t2 with b"].PropertySets
				return []wrapper.Image{first, second,
					{Kind: wrapper.OFK_SYCL, Target: "spir64", Format: wrapper.SYCL_DEVICE_BINARY_TYPE_LLVMIR_BITCODE, File: filepath.Join(dir, "t2.tgt")}}
			},
		},
		{
			name: "batch tables of several targets",
			args: []string{"-kind=sycl", "-target=target-zero", "-batch", "0.table", "-kind=sycl", "-target=target-one", "-format=spirv", "-batch", "1.table"},
			want: func(dir string) []wrapper.Image {
				im := imgs(dir)
				a, b, c, d := im["t1 with a"], im["t2 with b"], im["big"], im["t2 syms a"]
				a.Target, b.Target = "target-zero", "target-zero"
				c.Target, d.Target = "target-one", "target-one"
				c.Format, d.Format = wrapper.SYCL_DEVICE_BINARY_TYPE_SPIRV, wrapper.SYCL_DEVICE_BINARY_TYPE_SPIRV
				return []wrapper.Image{a, b, c, d}
			},
		},
		{
			name: "compressed batch",
			args: []string{"-kind=sycl", "-target=spir64", "-batch", "1.table", "code.table", "--offload-compress", "--offload-compression-threshold=100"},
			want: func(dir string) []wrapper.Image {
				im := imgs(dir)
				c, d := im["big"], im["t2 syms a"]
				c.Target, d.Target = "spir64", "spir64"
				return []wrapper.Image{c, d, {Kind: wrapper.OFK_SYCL, Target: "spir64", File: filepath.Join(dir, "t1.tgt")}}
			},
			opt: wrapper.Options{Compress: true, CompressionLevel: 10, CompressionThreshold: 100},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, files)
			rc, stdout, stderr := run(t, dir, append(c.args, "-o", "w.o")...)
			if rc != 0 || stdout != "" {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", rc, stdout, stderr)
			}
			exe := tc.Link(t, dir, "harness", true, "", []string{filepath.Join(dir, "w.o")})
			stem := filepath.Join(t.TempDir(), "image")
			got := tc.Run(t, exe, stem)
			if want := wrappertest.Expect(t, c.want(dir), c.opt, stem); got != want {
				t.Errorf("harness printed:\n%s\nwant:\n%s", got, want)
			}
			// "-o - --output-format=elf" writes the same object to standard output.
			rc, stdout, _ = run(t, dir, append(c.args, "-o", "-", "--output-format=elf")...)
			if obj, _ := os.ReadFile(filepath.Join(dir, "w.o")); rc != 0 || stdout != string(obj) {
				t.Errorf("-o - gave exit %d and %d bytes, want the %d bytes of the file", rc, len(stdout), len(obj))
			}
			// Any other name gets bitcode, which llc compiles into an
			// object that gives the same program; "-o -" writes the same
			// bitcode.
			rc, _, stderr = run(t, dir, append(c.args, "-o", "w.bc")...)
			if rc != 0 {
				t.Fatalf("-o w.bc: exit %d\n%s", rc, stderr)
			}
			bc, _ := os.ReadFile(filepath.Join(dir, "w.bc"))
			if !bytes.HasPrefix(bc, []byte("BC\xc0\xde")) {
				t.Fatalf("-o w.bc wrote no bitcode: % x", bc[:min(len(bc), 8)])
			}
			if rc, stdout, _ = run(t, dir, append(c.args, "-o", "-")...); rc != 0 || stdout != string(bc) {
				t.Errorf("-o - gave exit %d and %d bytes, want the %d bytes of w.bc", rc, len(stdout), len(bc))
			}
			llc := testenv.Tool(t, "llc-19")
			if out, err := exec.Command(llc, "-filetype=obj", "-relocation-model=pic", "-o", filepath.Join(dir, "bc.o"), filepath.Join(dir, "w.bc")).CombinedOutput(); err != nil {
				t.Fatalf("llc-19: %v\n%s", err, out)
			}
			exe = tc.Link(t, dir, "harness-bc", true, "", []string{filepath.Join(dir, "bc.o")})
			stem = filepath.Join(t.TempDir(), "image")
			got = tc.Run(t, exe, stem)
			if want := wrappertest.Expect(t, c.want(dir), c.opt, stem); got != want {
				t.Errorf("from bitcode, harness printed:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestBatchIsGlobal checks what the peer's multi-batch test checks: one
// -batch anywhere makes every input a table, earlier ones included.
func TestBatchIsGlobal(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, files)
	rc1, _, e1 := run(t, dir, "-o=w1.o", "-kind=sycl", "-target=zero", "-batch", "0.table", "-kind=sycl", "-target=one", "-batch", "1.table")
	rc2, _, e2 := run(t, dir, "-o=w2.o", "-kind=sycl", "-target=zero", "0.table", "-kind=sycl", "-target=one", "-batch", "1.table")
	b1, _ := os.ReadFile(filepath.Join(dir, "w1.o"))
	b2, _ := os.ReadFile(filepath.Join(dir, "w2.o"))
	if rc1 != 0 || rc2 != 0 || len(b1) == 0 || !bytes.Equal(b1, b2) {
		t.Errorf("exit %d/%d (%s%s), objects of %d and %d bytes differ", rc1, rc2, e1, e2, len(b1), len(b2))
	}
}

// TestOutputFormat checks which form each output gets: bitcode, as the
// DPC++ tool writes, unless -o names an object file (*.o, *.obj) or
// --output-format says otherwise.
func TestOutputFormat(t *testing.T) {
	for _, c := range []struct {
		args []string
		elf  bool
	}{
		{[]string{"-o", "w.bc"}, false},
		{[]string{"-o", "w"}, false},
		{[]string{"-o", "w.o"}, true},
		{[]string{"-o", "w.obj"}, true},
		{[]string{"-o", "w.bc", "--output-format=elf"}, true},
		{[]string{"--output-format=bitcode", "-o", "w.o"}, false},
		{[]string{"-o", "-"}, false},
		{[]string{"-o", "-", "--output-format", "elf"}, true},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, files)
		rc, stdout, stderr := run(t, dir, append([]string{"-kind=sycl", "-host=x86_64-unknown-linux-gnu", "t1.tgt"}, c.args...)...)
		out := []byte(stdout)
		if name := c.args[slices.Index(c.args, "-o")+1]; name != "-" {
			out, _ = os.ReadFile(filepath.Join(dir, name))
		}
		magic := []byte("BC\xc0\xde")
		if c.elf {
			magic = []byte(elf.ELFMAG)
		}
		if rc != 0 || !bytes.HasPrefix(out, magic) {
			t.Errorf("%q: exit %d (%s), output starts % x, want % x", c.args, rc, stderr, out[:min(len(out), 4)], magic)
		}
	}
}

func TestVerbose(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, files)
	rc, _, stderr := run(t, dir, "-kind=sycl", "-batch", "1.table", "-o", "w.o", "-v", "--offload-compress", "--offload-compression-level=9", "--offload-compression-threshold=0")
	for _, want := range []string{
		"warning: -host option is omitted, using host triple '" + wrapper.DefaultHost() + "'",
		"[Compression] Original image size: 5200\n",
		"[Compression] Original image size: 24\n",
		"[Compression] Compression level used: 9\n",
	} {
		if rc != 0 || !strings.Contains(stderr, want) {
			t.Errorf("exit %d, stderr lacks %q:\n%s", rc, want, stderr)
		}
	}
	rc, _, stderr = run(t, dir, "-kind=sycl", "-batch", "1.table", "-o", "w.o", "-v", "--offload-compression-threshold=0")
	if rc != 0 || strings.Contains(stderr, "[Compression]") {
		t.Errorf("without --offload-compress: exit %d, stderr:\n%s", rc, stderr)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no output", []string{"-kind=sycl", "t1.tgt"}, "clang-offload-wrapper: for the -o option: must be specified at least once!\n"},
		{"no input", []string{"-kind=sycl", "-o", "w.o"}, "clang-offload-wrapper: Not enough positional command line arguments specified!\nMust specify at least 1 positional argument: See: clang-offload-wrapper --help\n"},
		{"no kind", []string{"-o", "w.o", "t1.tgt"}, "clang-offload-wrapper: error: offload model not set\n"},
		{"three files", []string{"-o", "w.o", "-kind=sycl", "t1.tgt", "t1_mf.txt", "t2.tgt"},
			"clang-offload-wrapper: error: too many inputs for a single binary image, <binary file> <manifest file>{opt}expected\n"},
		{"openmp", []string{"-o", "w.o", "-kind=openmp", "t1.tgt"}, "clang-offload-wrapper: error: t1.tgt: -kind=openmp is not supported: sycbuild wraps -kind=sycl images only\n"},
		{"bad format", []string{"-o", "w.o", "-kind=sycl", "-format=elf", "t1.tgt"}, "clang-offload-wrapper: for the --format option: Cannot find option named 'elf'!\n"},
		{"missing image", []string{"-o", "w.o", "-kind=sycl", "nope.tgt"}, "clang-offload-wrapper: error: stat nope.tgt: no such file or directory\n"},
		{"missing entries", []string{"-o", "w.o", "-kind=sycl", "-entries=nope.sym", "t1.tgt"}, "clang-offload-wrapper: error: open nope.sym: no such file or directory\n"},
		{"bad prop", []string{"-o", "w.o", "-kind=sycl", "-properties=bad.prop", "t1.tgt"}, "clang-offload-wrapper: error: bad.prop:2:3: invalid property type: x\n"},
		{"bad table", []string{"-o", "w.o", "-kind=sycl", "-batch", "bad.table"}, "clang-offload-wrapper: error: bad.table: the batch table has no Code column (it has Symbols)\n"},
		{"empty code cell", []string{"-o", "w.o", "-kind=sycl", "-batch", "nocode.table"}, "clang-offload-wrapper: error: nocode.table: row 2: image file name missing\n"},
		{"bad prop in table", []string{"-o", "w.o", "-kind=sycl", "-batch", "badprop.table"}, "clang-offload-wrapper: error: badprop.table: row 1: bad.prop:2:3: invalid property type: x\n"},
		{"bad host", []string{"-o", "w.o", "-host=riscv64-unknown-linux-gnu", "-kind=sycl", "t1.tgt"}, "clang-offload-wrapper: error: 'riscv64-unknown-linux-gnu': unsupported target triple\n"},
		{"bad level", []string{"-o", "w.o", "--offload-compression-level=high", "-kind=sycl", "t1.tgt"}, "clang-offload-wrapper: for the --offload-compression-level option: 'high' value invalid for integer argument!\n"},
		{"native cpu", []string{"-o", "w.o", "-native-cpu", "-kind=sycl", "t1.tgt"}, "clang-offload-wrapper: error: -native-cpu is not supported: sycbuild wraps SYCL device images only\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, files)
			writeFiles(t, dir, map[string]string{
				"bad.prop":      "[S]\nx=x|1\n",
				"bad.table":     "[Symbols]\na.sym\n",
				"nocode.table":  "[Code|Symbols]\nt1.tgt|a.sym\n|a.sym\n",
				"badprop.table": "[Code|Properties]\nt1.tgt|bad.prop\n",
			})
			rc, stdout, stderr := run(t, dir, c.args...)
			if rc != 1 || stdout != "" || stderr != c.stderr {
				t.Errorf("exit %d, stdout %q, stderr:\n%q\nwant:\n%q", rc, stdout, stderr, c.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "w.o")); err == nil {
				t.Errorf("an output was written")
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".w.o*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	rc, stdout, _ := run(t, t.TempDir(), "--help")
	if rc != 0 || !strings.HasPrefix(stdout, "OVERVIEW: A tool to create a wrapper bitcode for offload target binaries.\n") {
		t.Fatalf("exit %d:\n%s", rc, stdout)
	}
	// Continuation lines of multi-line help start at the description column.
	col := strings.Index(stdout[strings.Index(stdout, "  --batch "):], "- All input") + 2
	for _, cont := range []string{"Table files consist", "and makes it globally visible", "triple is used."} {
		i := strings.Index(stdout, cont)
		if i < 0 || stdout[i-col-1] != '\n' || strings.TrimSpace(stdout[i-col:i]) != "" {
			t.Errorf("%q is not indented to column %d:\n%s", cont, col, stdout)
		}
	}
}

// FuzzBatchInputs runs a fuzzed -batch table naming a fuzzed .prop file and
// a fuzzed .sym file through the tool's reading and both writers: any input
// gives an error or an object and its bitcode, never a panic; an object
// holds one image section per row.
func FuzzBatchInputs(f *testing.F) {
	dir := f.TempDir()
	f.Chdir(dir)
	if err := os.WriteFile("a.bin", []byte("image"), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte("[Code|Properties|Symbols]\na.bin|f.prop|f.sym\n"), []byte(files["a.prop"]), []byte("k1\nk2\n"))
	f.Add([]byte("[Code|Symbols|Properties|Manifest]\na.bin|f.sym|f.prop|a.bin\na.bin|||\n"), []byte(files["b.prop"]), []byte(""))
	f.Add([]byte("a.bin\n"), []byte("[S]\nx=2|AAAAAAAAAAA\n"), []byte("\r\n"))
	f.Add([]byte("[Code|Properties]\r\na.bin|f.prop\n"), []byte("[S]\nx=2|gAAAAAAAAAA\n"), []byte(nil))
	f.Fuzz(func(t *testing.T, table, prop, sym []byte) {
		if bytes.IndexByte(table, '/') >= 0 {
			return // only files of this directory: no device files, which never end
		}
		for name, data := range map[string][]byte{"f.table": table, "f.prop": prop, "f.sym": sym} {
			if err := os.WriteFile(name, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		images, err := imagesFromTable("", "f.table", Annotation{Kind: "sycl", Target: "spir64", Format: "none"})
		if err != nil {
			return
		}
		var obj bytes.Buffer
		if err := wrapper.Write(&obj, images, wrapper.Options{Host: "x86_64-unknown-linux-gnu"}); err != nil {
			return
		}
		var bc bytes.Buffer
		if err := wrapper.Write(&bc, images, wrapper.Options{Host: "x86_64-unknown-linux-gnu", Output: wrapper.Bitcode}); err != nil || !bytes.HasPrefix(bc.Bytes(), []byte("BC\xc0\xde")) {
			t.Fatalf("the ELF object was written, the bitcode not: %v", err)
		}
		ef, err := elf.NewFile(bytes.NewReader(obj.Bytes()))
		if err != nil {
			t.Fatalf("the object does not parse: %v", err)
		}
		n := 0
		for _, s := range ef.Sections {
			if strings.HasPrefix(s.Name, "__CLANG_OFFLOAD_BUNDLE__") {
				n++
			}
		}
		if n != len(images) {
			t.Fatalf("%d image sections for %d images", n, len(images))
		}
	})
}
