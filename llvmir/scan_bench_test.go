package llvmir

import (
	"bytes"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
)

// BenchmarkScan scans the function bodies of a generated module (the
// benchmark module at 200 kernels), as the workers of a parse do:
//
//	go test ./llvmir -run '^$' -bench Scan -cpuprofile cpu.out
func BenchmarkScan(b *testing.B) {
	var src bytes.Buffer
	if err := irgen.Write(&src, irgen.Scaled(200)); err != nil {
		b.Fatal(err)
	}
	m, err := Parse("irgen.ll", src.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	var bodies []span
	size := 0
	for _, e := range m.Entities {
		if f := e.Func; f != nil && !f.Declaration {
			bodies = append(bodies, f.body)
			size += int(f.body.End - f.body.Start)
		}
	}
	p := &parser{m: m, file: "irgen.ll", src: src.Bytes(), lx: lexer{src: src.Bytes(), end: src.Len()}, lines: new([]int)}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, s := range bodies {
			var f Function
			p.refs, p.mdRefs, p.groups = p.refs[:0], p.mdRefs[:0], p.groups[:0]
			p.selfAt, p.calleeAt = -1, -1
			if end := p.scan(int(s.Start), int(s.End), &f); end != int(s.End) {
				b.Fatalf("body [%d:%d] ends at %d", s.Start, s.End, end)
			}
		}
	}
}
