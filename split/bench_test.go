package split

import (
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/llvmir"
)

// scaledModule parses the benchmark module scaled to n kernels, with short
// bodies (the per-part work does not depend on them).
func scaledModule(tb testing.TB, n int) *llvmir.Module {
	tb.Helper()
	c := irgen.Scaled(n)
	c.Body = 2
	src, err := irgen.String(c)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := llvmir.Parse("bench.ll", []byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// benchSplitter is a per-kernel splitter of scaledModule(n).
func benchSplitter(b *testing.B, n int) *Splitter {
	return New(scaledModule(b, n), Config{Scope: ScopePerKernel, ModuleName: "bench.ll"})
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
