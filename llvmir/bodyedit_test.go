package llvmir

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

const bodyEditSrc = `define i32 @f(i32 %0, i32 %x) {
  %2 = add i32 %0, 1
  %3 = call i32 @get(i32 %2)
  %4 = mul i32 %3, %3
  br label %5

5:                                                ; preds = %1
  %6 = phi i32 [ %4, %1 ]
  %7 = call i32 @get(i32 %6)
  ret i32 %7
}

declare i32 @get(i32)

declare i32 @other(i32)
`

// A body edit writes the function as LLVM prints it after the change:
// new unnamed values numbered in place, the later ones shifted, a removed
// one's number closed up, its uses replaced, new names made unique.
func TestBodyEdit(t *testing.T) {
	m, err := Parse("f.ll", []byte(bodyEditSrc))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Global("f")
	var calls []*Call
	for i := range f.Func.Calls {
		calls = append(calls, &f.Func.Calls[i])
	}
	if len(calls) != 2 {
		t.Fatalf("%d calls", len(calls))
	}
	b := m.EditBody(f)
	v1, v2 := b.NewValue(), b.NewValue()
	name := "%" + b.NewName("x")
	b.Replace(calls[0].Start, calls[0].End, calls[0].Result, name,
		v1+" = call i32 @other(i32 %2)", v2+" = add i32 "+v1+", 1", name+" = add i32 "+v2+", 2")
	b.Replace(calls[1].Start, calls[1].End, calls[1].Result, "42")
	p := m.NewPlan()
	globals, err := p.SetBody(b)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(globals, "get") || !slices.Contains(globals, "other") {
		t.Errorf("globals %q", globals)
	}
	out := writePlan(t, p)
	want := `define i32 @f(i32 %0, i32 %x) {
  %2 = add i32 %0, 1
  %3 = call i32 @other(i32 %2)
  %4 = add i32 %3, 1
  %x1 = add i32 %4, 2
  %5 = mul i32 %x1, %x1
  br label %6

6:                                                ; preds = %1
  %7 = phi i32 [ %5, %1 ]
  ret i32 42
}
`
	if !strings.HasPrefix(string(out), want) {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	// LLVM's assembler insists on numbers in sequence.
	assemble(t, "llvm-as-19", "body.ll", out)
}

// Input whose numbers are out of sequence cannot be renumbered: the error
// names the first one out of place.
func TestBodyEditOutOfSequence(t *testing.T) {
	src := strings.Replace(bodyEditSrc, "%4 = mul i32 %3, %3", "%9 = mul i32 %3, %3", 1)
	m, err := Parse("f.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Global("f")
	b := m.EditBody(f)
	c := &f.Func.Calls[0]
	b.Replace(c.Start, c.End, c.Result, "%2")
	_, err = m.NewPlan().SetBody(b)
	if want := "f.ll:4:3: unnamed value %9 of @f is out of sequence (expected %4); cannot renumber"; err == nil || err.Error() != want {
		t.Errorf("SetBody = %v, want %s", err, want)
	}
}

// Renumbering is the identity on what LLVM wrote: for every function
// definition of the repository's modules, a body edit without edits
// writes the function as it was.
func TestBodyEditIdentity(t *testing.T) {
	root := testenv.RepoRoot(t)
	var files []string
	for _, dir := range []string{"split/testdata", "specconst/testdata", "pipeline/testdata", "examples"} {
		filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".ll") {
				files = append(files, path)
			}
			return nil
		})
	}
	funcs := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(path, src)
		if err != nil {
			continue
		}
		for _, e := range m.Entities {
			if e.Func == nil || e.Func.Declaration {
				continue
			}
			inner, start, end, err := m.EditBody(e).render()
			if err != nil {
				t.Errorf("%s: @%s: %v", path, e.Name, err)
				continue
			}
			if inner != string(src[start:end]) {
				t.Errorf("%s: @%s renumbered differently:\n%s\nwas:\n%s", path, e.Name, inner, src[start:end])
			}
			funcs++
		}
	}
	if funcs < 100 {
		t.Errorf("only %d functions checked", funcs)
	}
	t.Logf("%d functions of %d modules", funcs, len(files))
}

// FuzzBodyEdit edits every function of a module that parses: each call
// is replaced by a new unnamed value and a named one (or removed, its
// uses replaced by a constant). It must never panic, and an error
// (numbers out of sequence, a rendered body that does not reparse) must be
// positioned or name the function.
//
//	go test ./llvmir -run '^$' -fuzz FuzzBodyEdit -parallel 1 -fuzztime 5m
func FuzzBodyEdit(f *testing.F) {
	for _, s := range []string{bodyEditSrc, richSrc, typedSrc, planSrc} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, remove bool) {
		m, err := Parse("f.ll", src)
		if err != nil {
			return
		}
		for _, e := range m.Entities {
			if e.Func == nil || e.Func.Declaration {
				continue
			}
			b := m.EditBody(e)
			for i := range e.Func.Calls {
				c := &e.Func.Calls[i]
				if remove {
					b.Replace(c.Start, c.End, c.Result, "0")
					continue
				}
				v, n := b.NewValue(), "%"+b.NewName("x")
				b.Replace(c.Start, c.End, c.Result, n, v+" = add i32 0, 1", n+" = add i32 "+v+", 1")
			}
			_, err := m.NewPlan().SetBody(b)
			if err != nil && !errPos.MatchString(err.Error()) && !strings.HasPrefix(err.Error(), "@") {
				t.Fatalf("@%s: error %q is neither positioned nor names the function", e.Name, err)
			}
		}
	})
}
