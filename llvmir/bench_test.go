package llvmir

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
)

// BenchmarkParse loads the generated benchmark module (5000 kernels, about
// 65 MB; SYCBUILD_BENCH_KERNELS overrides the count) from memory, with
// every reference resolved, for profiling:
//
//	go test ./llvmir -run '^$' -bench Parse -benchtime 5x -cpuprofile cpu.out
//
// The comparison with LLVM is bench/llvmirbench.
func BenchmarkParse(b *testing.B) {
	c := irgen.Big()
	if n, err := strconv.Atoi(os.Getenv("SYCBUILD_BENCH_KERNELS")); err == nil && n > 0 {
		c.Kernels = n
	}
	var src bytes.Buffer
	if err := irgen.Write(&src, c); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(src.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Parse("big.ll", src.Bytes()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteSplit writes one kernel's closure of the benchmark module
// (every other entity dropped, metadata pruned, unnamed globals
// renumbered).
func BenchmarkWriteSplit(b *testing.B) {
	var src bytes.Buffer
	if err := irgen.Write(&src, irgen.Big()); err != nil {
		b.Fatal(err)
	}
	m, err := Parse("big.ll", src.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	keep := closure([]*Entity{m.Global(irgen.KernelName(3))}, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := m.NewPlan()
		p.KeepOnly(func(e *Entity) bool { return keep[e] })
		var out bytes.Buffer
		if err := p.Write(&out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAssembleBitcode writes the benchmark module (1000 kernels by
// default; SYCBUILD_BENCH_KERNELS overrides the count) as LLVM 22 bitcode,
// the module already parsed, for profiling:
//
//	go test ./llvmir -run '^$' -bench AssembleBitcode -benchtime 5x -cpuprofile cpu.out
//
// The comparison with llvm-as is bench/bcwbench.
func BenchmarkAssembleBitcode(b *testing.B) {
	src := bitcodeBenchText(b)
	m, err := Parse("big.ll", src)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.AssembleBitcode(BitcodeOptions{LLVM: 22}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAssembleBitcodeCold assembles the benchmark module's text as
// LLVM 22 bitcode, parse included, each time after two collections that
// empty the writer's pool of slabs, as one sycl-post-link process starts
// (1000 kernels by default; SYCBUILD_BENCH_KERNELS overrides the count).
// The collector is the test binary's: GOGC sets it.
//
//	go test ./llvmir -run '^$' -bench AssembleBitcodeCold -benchtime 10x
func BenchmarkAssembleBitcodeCold(b *testing.B) {
	src := bitcodeBenchText(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runtime.GC()
		runtime.GC()
		b.StartTimer()
		if _, err := AssembleBitcode("big.ll", src, BitcodeOptions{LLVM: 22}); err != nil {
			b.Fatal(err)
		}
	}
}

// bitcodeBenchText is the text of the writer's benchmarks: 1000 kernels,
// or SYCBUILD_BENCH_KERNELS.
func bitcodeBenchText(b testing.TB) []byte {
	c := irgen.Scaled(1000)
	if n, err := strconv.Atoi(os.Getenv("SYCBUILD_BENCH_KERNELS")); err == nil && n > 0 {
		c = irgen.Scaled(n)
	}
	var src bytes.Buffer
	if err := irgen.Write(&src, c); err != nil {
		b.Fatal(err)
	}
	return src.Bytes()
}
