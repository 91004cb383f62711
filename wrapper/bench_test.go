package wrapper_test

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/wrapper"
	"github.com/sycbuild/sycbuild/wrapper/wrappertest"
)

// hugeLinkerScript places the image section after .bss, in a read-only
// segment of its own, so that more than 2 GiB of image data does not sit
// between the program's code and its data, where 32-bit PC-relative
// references (in crt files, .eh_frame, any code) would overflow. This is
// what DPC++ does for -fsycl-link-huge-device-code; a wrapper object made
// by LLVM needs it just the same.
const hugeLinkerScript = `SECTIONS
{
  . = ALIGN(CONSTANT(MAXPAGESIZE));
  __CLANG_OFFLOAD_BUNDLE__sycl-spir64 : { *(__CLANG_OFFLOAD_BUNDLE__sycl-spir64) }
}
INSERT AFTER .bss;
`

// BenchmarkLargeImage wraps a 2.5 GiB image with the sycbuild binary
// (clang-offload-wrapper), then links the harness with the object and runs
// it, checking the image's hash. It reports the wall time and peak RSS of
// each step. It writes about 7.5 GiB of files; it runs only with -bench
// (never in CI). SYCBUILD_BENCH_IMAGE_MIB sets another image size.
//
//	go test ./wrapper -run '^$' -bench LargeImage -benchtime 1x
func BenchmarkLargeImage(b *testing.B) {
	mib := 2560
	if s := os.Getenv("SYCBUILD_BENCH_IMAGE_MIB"); s != "" {
		var err error
		if mib, err = strconv.Atoi(s); err != nil || mib <= 0 {
			b.Fatalf("SYCBUILD_BENCH_IMAGE_MIB=%q: want a positive number of MiB", s)
		}
	}
	cc := testenv.Tool(b, "cc")
	bin := testenv.Sycbuild(b)
	dir := b.TempDir()
	image := filepath.Join(dir, "big.spv")
	makeImage(b, image, mib)
	size, hash := wrappertest.HashFile(b, image)
	obj := filepath.Join(dir, "big.o")

	b.SetBytes(size)
	b.ResetTimer()
	var wrap measurement
	for range b.N {
		wrap = measure(b, bin, "clang-offload-wrapper", "-kind=sycl", "-target=spir64", "-format=spirv",
			"-host=x86_64-unknown-linux-gnu", "-o", obj, image)
	}
	b.StopTimer()

	script := filepath.Join(dir, "huge.ld")
	if err := os.WriteFile(script, []byte(hugeLinkerScript), 0o644); err != nil {
		b.Fatal(err)
	}
	exe := filepath.Join(dir, "harness")
	link := measure(b, cc, "-O1", "-fPIE", "-pie", "-o", exe, wrappertest.HarnessSource(b), obj, "-Wl,-T,"+script)
	run := measure(b, exe)
	want := fmt.Sprintf(" data size=%d fnv1a64=%016x\n", size, hash)
	if !strings.Contains(run.stdout, want) || !strings.Contains(run.stdout, "main\nunregister 0 same_descriptor=1\n") {
		b.Fatalf("the harness printed:\n%s\nwant a line %q", run.stdout, want)
	}

	b.ReportMetric(float64(size)/(1<<20), "image-MiB")
	b.ReportMetric(wrap.wall.Seconds(), "wrap-s")
	b.ReportMetric(wrap.maxRSS, "wrap-maxRSS-MiB")
	b.ReportMetric(link.wall.Seconds(), "link-s")
	b.ReportMetric(link.maxRSS, "link-maxRSS-MiB")
	b.ReportMetric(run.wall.Seconds(), "run-s")
	b.ReportMetric(run.maxRSS, "run-maxRSS-MiB")
}

// measurement is one command's wall time, peak RSS (MiB) and output.
type measurement struct {
	wall   time.Duration
	maxRSS float64
	stdout string
}

// measure runs a command and returns what it used (peak RSS of the command
// and the children it waited for).
func measure(b *testing.B, name string, args ...string) measurement {
	b.Helper()
	cmd := exec.Command(name, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return measurement{wall: wall, maxRSS: float64(ru.Maxrss) / 1024, stdout: string(out)}
}

// makeImage writes mib MiB of incompressible bytes (a random 1 MiB block,
// its first 8 bytes numbering each copy).
func makeImage(b *testing.B, name string, mib int) {
	b.Helper()
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 4<<20)
	block := make([]byte, 1<<20)
	r := rand.NewChaCha8([32]byte{'s', 'y', 'c', 'b', 'u', 'i', 'l', 'd'})
	r.Read(block)
	for i := range mib {
		copy(block, strconv.AppendInt(nil, int64(i), 16))
		if _, err := w.Write(block); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkManyImages writes, to io.Discard, the object for 256 images of
// 64 KiB, each with 100 entries and two property sets: the per-image cost of
// a per-kernel split.
func BenchmarkManyImages(b *testing.B) {
	benchmarkManyImages(b, wrapper.ELFObject)
}

// BenchmarkManyImagesBitcode writes the same as LLVM bitcode.
func BenchmarkManyImagesBitcode(b *testing.B) {
	benchmarkManyImages(b, wrapper.Bitcode)
}

func benchmarkManyImages(b *testing.B, output wrapper.Output) {
	dir := b.TempDir()
	var images []wrapper.Image
	for i := range 256 {
		name := filepath.Join(dir, fmt.Sprintf("img%d.spv", i))
		if err := os.WriteFile(name, make([]byte, 64<<10), 0o644); err != nil {
			b.Fatal(err)
		}
		img := wrapper.Image{Kind: wrapper.OFK_SYCL, Target: "spir64", Format: wrapper.SYCL_DEVICE_BINARY_TYPE_SPIRV, File: name}
		for e := range 100 {
			img.Entries = append(img.Entries, fmt.Sprintf("_ZTSZ4mainE10kernel_%d_%d", i, e))
		}
		img.PropertySets = []wrapper.PropertySet{
			{Name: "SYCL/devicelib req mask", Properties: []wrapper.Property{{Name: "DeviceLibReqMask", Type: wrapper.SYCL_PROPERTY_TYPE_UINT32}}},
			{Name: "SYCL/device requirements", Properties: []wrapper.Property{{Name: "aspects", Type: wrapper.SYCL_PROPERTY_TYPE_BYTE_ARRAY, Bytes: rawByteArray([]byte{1, 0, 0, 0})}}},
		}
		images = append(images, img)
	}
	b.SetBytes(256 * 64 << 10)
	b.ReportAllocs()
	for b.Loop() {
		if err := wrapper.Write(io.Discard, images, wrapper.Options{Host: "x86_64-unknown-linux-gnu", Output: output}); err != nil {
			b.Fatal(err)
		}
	}
}
