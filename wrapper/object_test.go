package wrapper

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

func writeInputs(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sampleImages are two images of two targets with every optional part.
func sampleImages(dir string) []Image {
	return []Image{
		{
			Kind: OFK_SYCL, Target: "spir64", Format: SYCL_DEVICE_BINARY_TYPE_SPIRV,
			CompileOptions: "-g", File: filepath.Join(dir, "a.spv"), Manifest: filepath.Join(dir, "a.mnf"),
			Entries: []string{"k1", "k2"},
			PropertySets: []PropertySet{{Name: "S", Properties: []Property{
				{Name: "u", Type: SYCL_PROPERTY_TYPE_UINT32, Uint32: 5},
				{Name: "b", Type: SYCL_PROPERTY_TYPE_BYTE_ARRAY, Bytes: []byte{8, 0, 0, 0, 0, 0, 0, 0, 0xAB}},
			}}},
		},
		{Kind: OFK_SYCL, Target: "spir64_gen", Format: SYCL_DEVICE_BINARY_TYPE_NATIVE, File: filepath.Join(dir, "b.bin")},
	}
}

var sampleFiles = map[string]string{"a.spv": "spirv bytes", "a.mnf": "manifest", "b.bin": "native bytes, longer"}

// rela is one relocation read back from an object.
type rela struct {
	section string // the relocated section
	off     uint64
	typ     uint32
	sym     string // symbol name (section name for STT_SECTION)
	addend  int64
}

// readRelocs returns every relocation of f.
func readRelocs(t *testing.T, f *elf.File) []rela {
	t.Helper()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	var out []rela
	for _, s := range f.Sections {
		if s.Type != elf.SHT_RELA {
			continue
		}
		data, err := s.Data()
		if err != nil {
			t.Fatal(err)
		}
		for len(data) > 0 {
			info := binary.LittleEndian.Uint64(data[8:])
			sym := syms[elf.R_SYM64(info)-1] // Symbols() omits the null symbol
			name := sym.Name
			if elf.ST_TYPE(sym.Info) == elf.STT_SECTION {
				name = f.Sections[sym.Section].Name
			}
			out = append(out, rela{
				section: f.Sections[s.Info].Name,
				off:     binary.LittleEndian.Uint64(data),
				typ:     elf.R_TYPE64(info),
				sym:     name,
				addend:  int64(binary.LittleEndian.Uint64(data[16:])),
			})
			data = data[24:]
		}
	}
	return out
}

func TestObjectStructure(t *testing.T) {
	for _, c := range []struct {
		host    string
		machine elf.Machine
		abs64   uint32
		code    []uint32 // relocation types in .text.startup, in order
	}{
		{"x86_64-unknown-linux-gnu", elf.EM_X86_64, uint32(elf.R_X86_64_64),
			[]uint32{uint32(elf.R_X86_64_PC32), uint32(elf.R_X86_64_PLT32), uint32(elf.R_X86_64_PC32), uint32(elf.R_X86_64_PLT32)}},
		{"aarch64-unknown-linux-gnu", elf.EM_AARCH64, uint32(elf.R_AARCH64_ABS64),
			[]uint32{uint32(elf.R_AARCH64_ADR_PREL_PG_HI21), uint32(elf.R_AARCH64_ADD_ABS_LO12_NC), uint32(elf.R_AARCH64_JUMP26),
				uint32(elf.R_AARCH64_ADR_PREL_PG_HI21), uint32(elf.R_AARCH64_ADD_ABS_LO12_NC), uint32(elf.R_AARCH64_JUMP26)}},
	} {
		t.Run(c.host, func(t *testing.T) {
			dir := t.TempDir()
			writeInputs(t, dir, sampleFiles)
			var buf bytes.Buffer
			if err := Write(&buf, sampleImages(dir), Options{Host: c.host}); err != nil {
				t.Fatal(err)
			}
			f, err := elf.NewFile(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if f.Type != elf.ET_REL || f.Machine != c.machine || f.Class != elf.ELFCLASS64 || f.Data != elf.ELFDATA2LSB {
				t.Errorf("header: %v %v %v %v", f.Type, f.Machine, f.Class, f.Data)
			}
			var names []string
			flags := map[string]elf.SectionFlag{}
			for _, s := range f.Sections[1:] {
				names = append(names, s.Name)
				flags[s.Name] = s.Flags
			}
			want := []string{
				".text.startup", ".rela.text.startup", ".rodata", ".data.rel.ro", ".rela.data.rel.ro",
				".tgtimg", ".rela.tgtimg", ".init_array.00001", ".rela.init_array.00001",
				".fini_array.00001", ".rela.fini_array.00001",
				"__CLANG_OFFLOAD_BUNDLE__sycl-spir64", "__CLANG_OFFLOAD_BUNDLE__sycl-spir64_gen",
				".note.GNU-stack", ".symtab", ".strtab", ".shstrtab",
			}
			if !reflect.DeepEqual(names, want) {
				t.Errorf("sections:\n%q\nwant\n%q", names, want)
			}
			if flags[".note.GNU-stack"] != 0 || flags[".data.rel.ro"] != elf.SHF_ALLOC|elf.SHF_WRITE ||
				flags["__CLANG_OFFLOAD_BUNDLE__sycl-spir64"] != elf.SHF_ALLOC || flags[".text.startup"] != elf.SHF_ALLOC|elf.SHF_EXECINSTR {
				t.Errorf("section flags: %v", flags)
			}
			if s := f.Section(".init_array.00001"); s.Type != elf.SHT_INIT_ARRAY || s.Size != 8 {
				t.Errorf(".init_array.00001: %v size %d", s.Type, s.Size)
			}
			if s := f.Section(".fini_array.00001"); s.Type != elf.SHT_FINI_ARRAY || s.Size != 8 {
				t.Errorf(".fini_array.00001: %v size %d", s.Type, s.Size)
			}
			for i, name := range []string{"__CLANG_OFFLOAD_BUNDLE__sycl-spir64", "__CLANG_OFFLOAD_BUNDLE__sycl-spir64_gen"} {
				got, _ := f.Section(name).Data()
				if string(got) != sampleFiles[[]string{"a.spv", "b.bin"}[i]] {
					t.Errorf("%s holds %q", name, got)
				}
			}

			var code []uint32
			for _, r := range readRelocs(t, f) {
				switch {
				case r.section == ".text.startup":
					code = append(code, r.typ)
				case r.typ != c.abs64:
					t.Errorf("relocation %+v in data is not a 64-bit absolute one", r)
				}
				if strings.HasPrefix(r.sym, bundleSecPrefix) && (r.typ != c.abs64 || r.section == ".text.startup") {
					t.Errorf("image data reached by %+v", r)
				}
			}
			if !reflect.DeepEqual(code, c.code) {
				t.Errorf(".text.startup relocation types %v, want %v", code, c.code)
			}

			syms, _ := f.Symbols()
			undef := map[string]bool{}
			for _, s := range syms {
				if s.Section == elf.SHN_UNDEF {
					undef[s.Name] = elf.ST_BIND(s.Info) == elf.STB_GLOBAL
				}
				if s.Name == ".sycl_offloading.descriptor" && elf.ST_BIND(s.Info) != elf.STB_LOCAL {
					t.Errorf("the default descriptor is not local")
				}
			}
			if !reflect.DeepEqual(undef, map[string]bool{"__sycl_register_lib": true, "__sycl_unregister_lib": true}) {
				t.Errorf("undefined symbols %v", undef)
			}
		})
	}
}

// TestLargeImage lays out (without writing) an object for a sparse 5 GiB
// image: the image end is a 64-bit addend past 4 GiB, reached only by 64-bit
// absolute relocations, and the section headers sit past it.
func TestLargeImage(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	const size = 5 << 30
	if err := f.Truncate(size); err != nil {
		testenv.SkipNotChecked(t, "an image of 5 GiB: cannot make a sparse file: "+err.Error())
	}
	f.Close()
	prep, cleanup, err := prepare([]Image{{Kind: OFK_SYCL, Target: "spir64", File: big}}, Options{})
	defer cleanup()
	if err != nil {
		t.Fatal(err)
	}
	obj, err := build(x86_64, layOut(prep, Options{}))
	if err != nil {
		t.Fatal(err)
	}
	l, err := obj.layout()
	if err != nil {
		t.Fatal(err)
	}
	var img *section
	for _, s := range obj.sections {
		if s.name == "__CLANG_OFFLOAD_BUNDLE__sycl-spir64" {
			img = s
		}
	}
	if img == nil || img.size != size || l.shoff < size {
		t.Fatalf("image section %+v, section headers at %d", img, l.shoff)
	}
	var addends []int64
	for _, s := range obj.sections {
		for _, r := range s.relocs {
			if r.sym.sect == img {
				if r.typ != uint32(elf.R_X86_64_64) {
					t.Errorf("image reached by relocation type %d from %s", r.typ, s.name)
				}
				addends = append(addends, r.addend)
			}
		}
	}
	if want := []int64{0, size, 0}; !reflect.DeepEqual(addends, want) { // start, end, .tgtimg
		t.Errorf("addends into the image %v, want %v", addends, want)
	}
}

func TestDeterministic(t *testing.T) {
	dir1, dir2 := t.TempDir(), t.TempDir()
	writeInputs(t, dir1, sampleFiles)
	writeInputs(t, dir2, sampleFiles)
	for _, opt := range []Options{{}, {Compress: true, CompressionLevel: 19, CompressionThreshold: 1}, {Host: "aarch64-linux-gnu", DescName: "d"}} {
		o1, o2 := filepath.Join(dir1, "w.o"), filepath.Join(dir1, "w2.o")
		if err := WriteFile(o1, sampleImages(dir1), opt); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(o2, sampleImages(dir1), opt); err != nil {
			t.Fatal(err)
		}
		var other bytes.Buffer // same contents elsewhere, written to a non-file
		if err := Write(&other, sampleImages(dir2), opt); err != nil {
			t.Fatal(err)
		}
		b1, _ := os.ReadFile(o1)
		b2, _ := os.ReadFile(o2)
		if !bytes.Equal(b1, b2) || !bytes.Equal(b1, other.Bytes()) {
			t.Errorf("%+v: outputs differ (%d, %d, %d bytes)", opt, len(b1), len(b2), other.Len())
		}
	}
}

// TestReadelfClean checks that binutils' readelf reads every part of the
// objects without a warning.
func TestReadelfClean(t *testing.T) {
	readelf := testenv.Tool(t, "readelf")
	dir := t.TempDir()
	writeInputs(t, dir, sampleFiles)
	for _, opt := range []Options{
		{Host: "x86_64-unknown-linux-gnu"},
		{Host: "aarch64-unknown-linux-gnu"},
		{Host: "x86_64-pc-linux-gnu", NoRegFuncs: true, DescName: "lalala"},
		{Host: "aarch64-linux-gnu", Compress: true, CompressionLevel: 3},
	} {
		obj := filepath.Join(dir, "w.o")
		if err := WriteFile(obj, sampleImages(dir), opt); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(readelf, "-a", "-W", obj)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || stderr.Len() > 0 || bytes.Contains(bytes.ToLower(out), []byte("warning")) {
			t.Errorf("%+v: readelf -a: %v\nstderr: %s\nstdout:\n%s", opt, err, stderr.Bytes(), out)
		}
		if !bytes.Contains(out, []byte("R_")) || !bytes.Contains(out, []byte(".sycl_offloading.device_images")) {
			t.Errorf("%+v: readelf shows no relocations or symbols:\n%s", opt, out)
		}
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	writeInputs(t, dir, sampleFiles)
	good := sampleImages(dir)
	with := func(edit func(*Image)) []Image {
		imgs := sampleImages(dir)
		edit(&imgs[0])
		return imgs
	}
	cases := []struct {
		name   string
		images []Image
		opt    Options
		want   string
	}{
		{"unknown arch", good, Options{Host: "mips64-linux-gnu"}, "'mips64-linux-gnu': unsupported target triple"},
		{"not ELF", good, Options{Host: "x86_64-pc-windows-msvc"}, "'x86_64-pc-windows-msvc': unsupported target triple: only ELF hosts are supported"},
		{"no images", nil, Options{}, "no device images to wrap"},
		{"openmp", with(func(i *Image) { i.Kind = OFK_OpenMP }), Options{}, "offload kind 'openmp' is not supported: only -kind=sycl images can be wrapped"},
		{"missing image", with(func(i *Image) { i.File = filepath.Join(dir, "nope") }), Options{}, "nope: no such file or directory"},
		{"directory image", with(func(i *Image) { i.File = dir }), Options{}, dir + ": not a regular file"},
		{"missing manifest", with(func(i *Image) { i.Manifest = filepath.Join(dir, "nomf") }), Options{}, "nomf: no such file or directory"},
		{"bad property type", with(func(i *Image) { i.PropertySets[0].Properties[0].Type = 7 }), Options{}, "property S/u: unsupported property type: 7"},
		{"short byte array", with(func(i *Image) { i.PropertySets[0].Properties[1].Bytes = []byte{1} }), Options{}, "property S/b: a byte array needs its 8-byte size prefix (1 bytes given)"},
		{"too many images", make([]Image, descMaxImages+1), Options{}, "65536 device images: one descriptor holds at most 65535"},
	}
	for _, c := range cases {
		out := filepath.Join(dir, "out", "w.o")
		os.MkdirAll(filepath.Dir(out), 0o755)
		err := WriteFile(out, c.images, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
		if left, _ := os.ReadDir(filepath.Dir(out)); len(left) != 0 {
			t.Errorf("%s: left %v behind", c.name, left)
		}
	}
}

// TestStructLayouts checks the offsets and sizes the descriptor's struct
// types compute against the runtime's structs on LP64 hosts (the harness's
// static assertions pin the same).
func TestStructLayouts(t *testing.T) {
	for _, c := range []struct {
		st      *structType
		offsets []int
		size    int
	}{
		{entryStruct, []int{0, 8, 16, 24, 28}, 32},
		{propStruct, []int{0, 8, 16, 24}, 32},
		{propSetStruct, []int{0, 8, 16}, 24},
		{imageStruct, []int{0, 2, 3, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88}, 96},
		{descStruct, []int{0, 2, 8, 16, 24}, 32},
	} {
		if !reflect.DeepEqual(c.st.offsets, c.offsets) || c.st.size != c.size {
			t.Errorf("%s: offsets %v size %d, want %v size %d", c.st.name, c.st.offsets, c.st.size, c.offsets, c.size)
		}
	}
}
