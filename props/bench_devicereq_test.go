package props

import (
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/llvmir"
)

// BenchmarkDeviceRequirements computes the device requirements of a whole
// benchmark-shaped module of 1000 kernels, every kernel an entry point.
func BenchmarkDeviceRequirements(b *testing.B) {
	c := irgen.Scaled(1000)
	c.Body = 1
	src, err := irgen.String(c)
	if err != nil {
		b.Fatal(err)
	}
	m, err := llvmir.Parse("big.ll", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	img := &Image{M: m}
	for _, e := range img.functions() {
		if e.Attachment("intel_reqd_sub_group_size") != nil {
			img.EntryPoints = append(img.EntryPoints, e)
		}
	}
	if len(img.EntryPoints) == 0 {
		b.Fatal("no entry points")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := DeviceRequirements(img); err != nil {
			b.Fatal(err)
		}
	}
}
