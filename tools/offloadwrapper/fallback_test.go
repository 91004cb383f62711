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
	if err := markFallbacks("", images); err != nil {
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
