package llvmir

import (
	"strings"
	"testing"
)

// TestAddParamAttr: added parameter attributes go after the parameter's
// own, before its name, for named and unnamed parameters alike.
func TestAddParamAttr(t *testing.T) {
	m, err := Parse("a.ll", []byte("define void @f(ptr noundef %p, i32 %n, float) {\n  ret void\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := m.NewPlan()
	f := m.Global("f")
	p.AddParamAttr(f, 0, Attr{Key: "k", Value: "v", HasValue: true, String: true})
	p.AddParamAttr(f, 2, Attr{Key: "noundef"})
	p.AddParamAttr(f, 2, Attr{Key: "x", String: true})
	var b strings.Builder
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	const want = `define void @f(ptr noundef "k"="v" %p, i32 %n, float noundef "x") {`
	if !strings.Contains(b.String(), want) {
		t.Errorf("got\n%s\nwant %s", b.String(), want)
	}
	p.AddParamAttr(f, 3, Attr{Key: "noundef"})
	if err := p.Write(&b); err == nil {
		t.Error("an attribute of parameter 3 of 3 was written")
	}
}
