package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/postlink"
)

// BenchmarkSplitKernel runs the timed sycl-post-link (splitArgs) in-process
// on a generated module (SYCBUILD_BENCH_KERNELS kernels, 5000 by default;
// SYCBUILD_BENCH_SHAPE=quadratic for irgen.Quadratic), for profiling:
//
//	go test ./bench/postlinkbench -run - -bench SplitKernel -benchtime 1x -cpuprofile cpu.out
func BenchmarkSplitKernel(b *testing.B) {
	dir := b.TempDir()
	in := filepath.Join(dir, "big.ll")
	c := irgen.Scaled(benchKernels())
	if os.Getenv("SYCBUILD_BENCH_SHAPE") == "quadratic" {
		c = irgen.Quadratic(benchKernels())
	}
	if err := irgen.WriteFile(in, c); err != nil {
		b.Fatal(err)
	}
	info, _ := os.Stat(in)
	b.SetBytes(info.Size())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out := filepath.Join(dir, "out")
		os.RemoveAll(out)
		if err := os.Mkdir(out, 0o755); err != nil {
			b.Fatal(err)
		}
		o := benchOptions(in, filepath.Join(out, "out.table"))
		var stderr bytes.Buffer
		if err := postlink.Run(&o, postlink.IO{Stdout: &stderr, Stderr: &stderr, Argv0: "sycl-post-link"}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchKernels is the module size of the in-process benchmark:
// SYCBUILD_BENCH_KERNELS, 5000 by default.
func benchKernels() int {
	if n, err := strconv.Atoi(os.Getenv("SYCBUILD_BENCH_KERNELS")); err == nil && n > 0 {
		return n
	}
	return 5000
}
