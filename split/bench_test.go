package split

import (
	"testing"

	"github.com/sycbuild/sycbuild/bench/gen"
	"github.com/sycbuild/sycbuild/llvmir"
)

// benchSplitter is a splitter of the benchmark module scaled to n kernels,
// with short bodies (the per-part work does not depend on them).
func benchSplitter(b *testing.B, n int) *Splitter {
	b.Helper()
	c := gen.Scaled(n)
	c.Body = 2
	src, err := gen.String(c)
	if err != nil {
		b.Fatal(err)
	}
	m, err := llvmir.Parse("bench.ll", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	return New(m, Config{Scope: ScopePerKernel, ModuleName: "bench.ll"})
}

// BenchmarkPart makes every per-kernel part of a 2000-kernel module (one
// op is all of them), releasing each before the next.
func BenchmarkPart(b *testing.B) {
	s := benchSplitter(b, 2000)
	b.ReportAllocs()
	for b.Loop() {
		for i := range s.Groups() {
			s.Part(i).Release()
		}
	}
}

// BenchmarkPartPlan is BenchmarkPart with each part's plan made as well.
func BenchmarkPartPlan(b *testing.B) {
	s := benchSplitter(b, 2000)
	b.ReportAllocs()
	for b.Loop() {
		for i := range s.Groups() {
			p := s.Part(i)
			p.Plan()
			p.Release()
		}
	}
}
