package llvmir

import (
	"strings"
	"sync"
	"testing"
)

// Readers of one parsed module may run in parallel (sycl-post-link lowers
// and writes split modules concurrently): the values built on demand must
// not race. Run under -race.
func TestConcurrentReaders(t *testing.T) {
	m, err := Parse("c.ll", []byte("define void @f(i32 %a) {\n  ret void\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Global("f").Func
	var wg sync.WaitGroup
	types := make([]*Type, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			types[i] = f.Type()
			if l, c := m.Position(5); l != 1 || c != 6 {
				t.Errorf("Position(5) = %d:%d", l, c)
			}
		}()
	}
	wg.Wait()
	for _, ty := range types {
		if ty != types[0] {
			t.Fatal("Type() built more than once")
		}
	}
}

// Plans of one module are written concurrently by sycl-post-link; an edit
// that names a struct type the module never mentions must not add it to the
// module's shared type table.
func TestConcurrentPlanWrites(t *testing.T) {
	m, err := Parse("c.ll", []byte("define void @f() {\n  ret void\n}\ndefine void @g() {\n  ret void\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := m.NewPlan()
			e := m.Global("f")
			if i%2 == 1 {
				e = m.Global("g")
			}
			p.ReplaceText(e, "define void @"+e.Name+"(ptr byval(%struct.New"+string(rune('A'+i))+") %p) {\n  ret void\n}\n")
			var b strings.Builder
			if err := p.Write(&b); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if m.NamedType("struct.NewA") != nil {
		t.Error("an edit added a type to the module")
	}
}

func TestAttrMatchesAttrs(t *testing.T) {
	m, err := Parse("a.ll", []byte("define void @f() #0 \"a\"=\"inline\" {\n  ret void\n}\n@g = global i32 0 #1\ndeclare void @h()\nattributes #0 = { \"a\"=\"group\" \"b\"=\"1\" }\nattributes #1 = { \"c\" }\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"f", "g", "h"} {
		e := m.Global(name)
		for _, key := range []string{"a", "b", "c", "d"} {
			v1, ok1 := m.Attr(e, key)
			v2, ok2 := m.Attrs(e).Get(key)
			if v1 != v2 || ok1 != ok2 {
				t.Errorf("@%s %q: Attr = %q,%v; Attrs().Get = %q,%v", name, key, v1, ok1, v2, ok2)
			}
		}
	}
	if v, _ := m.Attr(m.Global("f"), "a"); v != "inline" {
		t.Errorf("inline attribute must win, got %q", v)
	}
}

// Sparse plans of one module, written concurrently with comments left out
// and an added entity each (as sycl-post-link writes its split modules),
// share the module's comment-line index and the parse of the added
// entities without racing (run under -race), and all write the same.
func TestConcurrentSparseAppends(t *testing.T) {
	m := parsePlanSrc(t)
	write := func() string {
		p := m.NewSparsePlan([]*Entity{m.Global("k1"), m.Global("k2"), m.Global("_Z1hi"), m.Global("spec"),
			m.Global("str"), m.Global("g"), m.UnnamedGlobal(0), m.UnnamedGlobal(2)})
		p.Add(KindNamedMD, "!extra = !{!0}")
		text, err := p.Append(nil, WriteOptions{StripComments: true})
		if err != nil {
			t.Error(err)
		}
		return string(text)
	}
	got := make([]string, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = write()
		}()
	}
	wg.Wait()
	want := write()
	if !strings.Contains(want, "!extra = !{!0}") || strings.Contains(want, "; Function Attrs") {
		t.Errorf("unexpected module:\n%s", want)
	}
	for i, g := range got {
		if g != want {
			t.Errorf("writer %d: %q, want %q", i, g, want)
		}
	}
}

// Plans that change the linkage of the same entities, some the same way
// and some another, written concurrently (run under -race): each writes
// what a plan of a freshly parsed module writes, though the render of a
// linkage-only edit is kept in the module for the plans after.
func TestConcurrentLinkageEdits(t *testing.T) {
	const src = "define linkonce_odr dso_local void @f() comdat {\n  ret void\n}\n" +
		"@g = weak_odr dso_local global i32 0\n" +
		"define void @k() {\n  call void @f()\n  ret void\n}\n$f = comdat any\n"
	m, err := Parse("l.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	linkages := []Linkage{Internal, Internal, WeakODR, Internal, External, WeakODR}
	write := func(m *Module, l Linkage) string {
		p := m.NewSparsePlan([]*Entity{m.Global("f"), m.Global("g"), m.Global("k")})
		p.SetLinkage(m.Global("f"), l)
		p.SetLinkage(m.Global("g"), l)
		text, err := p.Append(nil, WriteOptions{StripComments: true})
		if err != nil {
			t.Error(err)
		}
		return string(text)
	}
	want := make([]string, len(linkages))
	for i, l := range linkages {
		fresh, err := Parse("l.ll", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		want[i] = write(fresh, l)
	}
	if !strings.Contains(want[0], "define internal void @f()") || !strings.Contains(want[2], "define weak_odr dso_local void @f()") {
		t.Fatalf("unexpected modules:\n%s\n%s", want[0], want[2])
	}
	for round := 0; round < 4; round++ {
		got := make([]string, len(linkages))
		var wg sync.WaitGroup
		for i, l := range linkages {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = write(m, l)
			}()
		}
		wg.Wait()
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("round %d, linkage %q: wrote\n%s\nwant\n%s", round, linkages[i], got[i], want[i])
			}
		}
	}
}
