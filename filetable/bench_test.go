package filetable

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// bigTable is a sycl-post-link-shaped table of n rows.
func bigTable(n int) []byte {
	var b strings.Builder
	b.WriteString("[Code|Properties|Symbols]\n")
	for i := range n {
		fmt.Fprintf(&b, "out/dir/main_%d.bc|out/dir/main_%d.prop|out/dir/main_%d.sym\n", i, i, i)
	}
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	data := bigTable(10000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("big", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	data := bigTable(10000)
	tb, err := Parse("big", data)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := tb.Write(io.Discard, true); err != nil {
			b.Fatal(err)
		}
	}
}
