package offloadwrapper

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sycbuild/sycbuild/wrapper"
)

// TestSPIRVFallback: with --spirv-fallback, a native image holding SPIR-V
// (little-endian magic 0x07230203) is wrapped as SPIR-V; other images keep
// their format.
func TestSPIRVFallback(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	spv := write("m.spv", []byte{0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0})
	bin := write("m.bin", []byte("\x7fELF...."))
	short := write("s.bin", []byte{0x03})
	images := []wrapper.Image{
		{Format: wrapper.SYCL_DEVICE_BINARY_TYPE_NATIVE, File: spv},
		{Format: wrapper.SYCL_DEVICE_BINARY_TYPE_NATIVE, File: bin},
		{Format: wrapper.SYCL_DEVICE_BINARY_TYPE_NATIVE, File: short},
		{Format: wrapper.SYCL_DEVICE_BINARY_TYPE_NONE, File: spv},
	}
	images, err := markFallbacks("", images)
	if err != nil {
		t.Fatal(err)
	}
	want := []wrapper.BinaryFormat{wrapper.SYCL_DEVICE_BINARY_TYPE_SPIRV, wrapper.SYCL_DEVICE_BINARY_TYPE_NATIVE,
		wrapper.SYCL_DEVICE_BINARY_TYPE_NATIVE, wrapper.SYCL_DEVICE_BINARY_TYPE_NONE}
	for i, img := range images {
		if img.Format != want[i] {
			t.Errorf("image %d (%s): format %v, want %v", i, filepath.Base(img.File), img.Format, want[i])
		}
	}
}

// TestKernelImages: a native image that is a table of kernel images (a
// module that fell back by kernel) becomes one image per row, each with
// its own entries, SPIR-V marked as such, and the module's properties.
func TestKernelImages(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("m.k0.bin", "\x7fELF....")
	write("m.k1.spv", "\x03\x02\x23\x07\x00\x00\x01\x00")
	write("m.k0.sym", "k3\n")
	write("m.k1.sym", "BADk4\n")
	write("m.bin", "[Code|Symbols]\nm.k0.bin|m.k0.sym\nm.k1.spv|m.k1.sym\n")
	sets := []wrapper.PropertySet{{Name: "SYCL/misc properties"}}
	images, err := markFallbacks(dir, []wrapper.Image{{Format: wrapper.SYCL_DEVICE_BINARY_TYPE_NATIVE, File: "m.bin", Entries: []string{"k3", "BADk4"}, PropertySets: sets}})
	if err != nil {
		t.Fatal(err)
	}
	if len(images) != 2 {
		t.Fatalf("%d images, want 2: %+v", len(images), images)
	}
	for i, want := range []struct {
		file   string
		format wrapper.BinaryFormat
		entry  string
	}{{"m.k0.bin", wrapper.SYCL_DEVICE_BINARY_TYPE_NATIVE, "k3"}, {"m.k1.spv", wrapper.SYCL_DEVICE_BINARY_TYPE_SPIRV, "BADk4"}} {
		img := images[i]
		if img.File != want.file || img.Format != want.format || len(img.Entries) != 1 || img.Entries[0] != want.entry || len(img.PropertySets) != 1 {
			t.Errorf("image %d: %+v, want %s %v [%s] with the module's properties", i, img, want.file, want.format, want.entry)
		}
	}
}
