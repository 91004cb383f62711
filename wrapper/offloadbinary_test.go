package wrapper

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/offloadbin"
)

// TestOffloadBinaryContainers writes images in the offload-binary form and
// reads the containers back from .llvm.offloading: kinds, strings
// (properties from the .prop file) and bytes; an empty image and an image
// whose size is not a multiple of 8 keep the containers aligned.
func TestOffloadBinaryContainers(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	prop := "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|0\n"
	images := []Image{
		{Kind: OFK_SYCL, Target: "spir64", Format: SYCL_DEVICE_BINARY_TYPE_SPIRV, File: write("a.spv", "\x03\x02\x23\x07 13 bytes"),
			Entries: []string{"_ZTS1A", "_ZTS1B"}, PropertiesFile: write("a.prop", prop),
			PropertySets: []PropertySet{{Name: "SYCL/devicelib req mask", Properties: []Property{{Name: "DeviceLibReqMask", Type: SYCL_PROPERTY_TYPE_UINT32}}}}},
		{Kind: OFK_SYCL, Target: "spir64_gen", Format: SYCL_DEVICE_BINARY_TYPE_NATIVE, File: write("b.bin", ""), Entries: []string{"_ZTS1A"}, Arch: "pvc"},
		{Kind: OFK_SYCL, Target: "llvm_spir64", Format: SYCL_DEVICE_BINARY_TYPE_NONE, File: write("c.ll", "; ModuleID = 'c'\n")},
	}
	out := filepath.Join(dir, "o.o")
	if err := WriteFile(out, images, Options{Host: "x86_64-unknown-linux-gnu", OffloadBinary: true}); err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Section(".tgtimg") != nil || f.Section(offloadEntrySection) == nil {
		t.Error("want no .tgtimg and an llvm_offload_entries section")
	}
	data, err := f.Section(offloadingSection).Data()
	if err != nil {
		t.Fatal(err)
	}
	got, err := offloadbin.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind                         offloadbin.ImageKind
		triple, arch, symbols, props string
	}{
		{offloadbin.ImageNone, "spirv64-unknown-unknown", "", "_ZTS1A\n_ZTS1B", prop},
		{offloadbin.ImageObject, "spir64_gen-unknown-unknown", "pvc", "_ZTS1A", ""},
		{offloadbin.ImageNone, "spir64-unknown-unknown", "", "", ""},
	}
	if len(got) != len(want) {
		t.Fatalf("%d containers, want %d", len(got), len(want))
	}
	for i, w := range want {
		im := got[i]
		sym, _ := im.Get(offloadbin.KeySymbols)
		p, hasProps := im.Get(offloadbin.KeyProperties)
		if im.ImageKind != w.kind || im.OffloadKind != offloadbin.OffloadSYCL || im.Triple() != w.triple || im.Arch() != w.arch || sym != w.symbols || p != w.props || hasProps != (w.props != "") {
			t.Errorf("container %d: kind %v/%v triple %q arch %q symbols %q properties %q", i, im.ImageKind, im.OffloadKind, im.Triple(), im.Arch(), sym, p)
		}
		b, _ := os.ReadFile(images[i].File)
		if !bytes.Equal(im.Data, b) {
			t.Errorf("container %d: image bytes %q, want %q", i, im.Data, b)
		}
	}
	syms, _ := f.Symbols()
	var weak []string
	for _, s := range syms {
		if elf.ST_BIND(s.Info) == elf.STB_WEAK {
			weak = append(weak, s.Name)
		}
	}
	// A repeated name gets the next number of the module-wide counter, as
	// LLVM names its globals (earlier repeated names took .1 to .3).
	if want := []string{".offloading.entry._ZTS1A", ".offloading.entry._ZTS1B", ".offloading.entry._ZTS1A.4"}; !slices.Equal(weak, want) {
		t.Errorf("weak entry symbols %q, want %q", weak, want)
	}
}

// TestOffloadBinaryRefused: the form has no bitcode writer and no
// compressed images.
func TestOffloadBinaryRefused(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "a.spv")
	if err := os.WriteFile(img, bytes.Repeat([]byte{1}, 64), 0o644); err != nil {
		t.Fatal(err)
	}
	images := []Image{{Kind: OFK_SYCL, Target: "spir64", Format: SYCL_DEVICE_BINARY_TYPE_SPIRV, File: img}}
	var b bytes.Buffer
	if err := Write(&b, images, Options{OffloadBinary: true, Output: Bitcode}); err == nil || !strings.Contains(err.Error(), "ELF object only") {
		t.Errorf("bitcode: error %v", err)
	}
	if err := Write(&b, images, Options{OffloadBinary: true, Compress: true, CompressionLevel: 3}); err == nil || !strings.Contains(err.Error(), "compressed") {
		t.Errorf("compressed: error %v", err)
	}
}

func TestTriple(t *testing.T) {
	for in, want := range map[string]string{
		"spir64": "spirv64-unknown-unknown", "spir64_gen": "spir64_gen-unknown-unknown", "nvptx64": "nvptx64-nvidia-cuda",
		"llvm_spir64": "spir64-unknown-unknown", "spirv64-intel": "spirv64-intel", "amdgcn": "amdgcn-unknown-unknown",
	} {
		if got := Triple(in); got != want {
			t.Errorf("Triple(%q) = %q, want %q", in, got, want)
		}
	}
}
