package split

import (
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

func TestSymbolTableRefusesLineBreaks(t *testing.T) {
	for _, name := range []string{"k\nfake_kernel", "k\r", "k\x00fake"} {
		p := &Part{Entries: []*llvmir.Entity{{Name: "good"}, {Name: name}}}
		syms, err := p.SymbolTable()
		if err == nil || !strings.Contains(err.Error(), "cannot be written in a .sym file") {
			t.Errorf("SymbolTable with kernel %q = %q, %v; want an error", name, syms, err)
		}
	}
	p := &Part{Entries: []*llvmir.Entity{{Name: "a"}, {Name: "b c"}}}
	if syms, err := p.SymbolTable(); err != nil || syms != "a\nb c\n" {
		t.Errorf("SymbolTable = %q, %v", syms, err)
	}
}
