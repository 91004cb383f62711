package llvmir

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
)

// parseBoth parses src the ordinary way and with workers scanning the
// function bodies, and fails the test unless both give the same module (or
// the same errors). It returns whether the workers' parse stood, i.e. did
// not fall back to the ordinary one.
func parseBoth(t *testing.T, name string, src []byte) bool {
	t.Helper()
	defer func(old int) { parallelMin = old }(parallelMin)
	parallelMin = len(src) + 1
	want, wantErr := Parse(name, src)
	parallelMin = 0
	got, gotErr := ParseWith(name, src, 4)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("%s: errors differ:\n%v\nwant:\n%v", name, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		for i := range min(len(got.Entities), len(want.Entities)) {
			if !reflect.DeepEqual(got.Entities[i], want.Entities[i]) {
				t.Fatalf("%s: entity %d differs:\n%#v\nwant:\n%#v", name, i, got.Entities[i], want.Entities[i])
			}
		}
		t.Fatalf("%s: the modules differ", name)
	}
	_, stood := parseParallel(name, src, 4)
	return stood
}

// The workers' parse gives the ordinary parse's module, entity for entity,
// on every conformance module and on generated ones.
func TestParallelBodies(t *testing.T) {
	stood := 0
	files := conformanceIR(t)
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if parseBoth(t, path, src) {
			stood++
		}
	}
	// Most modules are printed by LLVM, and the guesses hold for them.
	if stood < len(files)/2 {
		t.Errorf("the workers' parse stood for %d of %d conformance modules", stood, len(files))
	}
	for _, c := range []irgen.Config{irgen.Small(), irgen.Scaled(300), irgen.Quadratic(200)} {
		var b bytes.Buffer
		if err := irgen.Write(&b, c); err != nil {
			t.Fatal(err)
		}
		if !parseBoth(t, "irgen.ll", b.Bytes()) {
			t.Errorf("the workers' parse fell back on a generated module (%d kernels)", c.Kernels)
		}
	}
}

// Where LLVM's printer would not have put a line, the guess is wrong or
// missing, and the module is what the ordinary parse gives, errors
// included.
func TestParallelBodiesGuessWrong(t *testing.T) {
	const head = "%T = type { i32, i32 }\n\ndeclare void @g(%T)\n\n"
	const tail = "\ndefine void @h() {\n  call void @g(%T zeroinitializer)\n  ret void\n}\n"
	for _, tc := range []struct {
		name, body string
		stands     bool
	}{
		{"printed", "define void @f() {\nentry:\n  call void @g(%T zeroinitializer)\n  ret void\n}\n", true},
		{"crlf", "define void @f() {\r\nentry:\r\n  ret void\r\n}\r\n", true},
		{"brace line inside", "define void @f() {\n  %a = insertvalue %T {\n  i32 1, i32 2\n}\n, i32 3, 0\n  ret void\n}\n", false},
		{"one line", "define void @f() { ret void }\n", false},
		{"comment after", "define void @f() {\n  ret void\n} ; end of f\n", false},
		{"brace in string", "define void @f() {\n  call void @g(%T zeroinitializer) \"x\n}\n\"\n  ret void\n}\n", false},
		{"error in body", "define void @f() {\n  call void @nosuch(\n  ret void\n}\n", false},
		{"unclosed body", "define void @f() {\n  ret void\n", false},
		{"type after use", "define void @f() {\n  call void @k(%U zeroinitializer)\n  ret void\n}\n%U = type { i8 }\ndeclare void @k(%U)\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(head + tc.body + tail)
			if stood := parseBoth(t, tc.name+".ll", src); stood != tc.stands {
				t.Errorf("the workers' parse stood: %v, want %v", stood, tc.stands)
			}
		})
	}
}

// Many bodies, with more tasks than the channel holds, and an error far
// into the module: the same errors as the ordinary parse.
func TestParallelBodiesManyWithError(t *testing.T) {
	var b strings.Builder
	b.WriteString("declare void @g(i32)\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "\ndefine void @f%d() {\n  call void @g(i32 %d)\n  ret void\n}\n", i, i)
		if i == 1500 {
			b.WriteString("\ndefine void @bad() {\n  call void @g(i32 %x\n  ret void\n}\n")
		}
	}
	if parseBoth(t, "many.ll", []byte(b.String())) {
		t.Error("the workers' parse stood on a module with an error")
	}
}

// TestParseWorkers: ParseWith starts as many workers as it is given, and
// none for 1: a build's -j 1 never has two goroutines reading one module.
func TestParseWorkers(t *testing.T) {
	defer func(old int) { parallelMin = old }(parallelMin)
	parallelMin = 0
	var started atomic.Int32
	defer func(old func()) { workerStarted = old }(workerStarted)
	workerStarted = func() { started.Add(1) }
	src := []byte("define void @f() {\n  ret void\n}\n\ndefine void @g() {\n  call void @f()\n  ret void\n}\n")
	for _, n := range []int{0, 1, 2, 3} {
		started.Store(0)
		if _, err := ParseWith("w.ll", src, n); err != nil {
			t.Fatal(err)
		}
		want := int32(n)
		if n < 2 {
			want = 0
		}
		if got := started.Load(); got != want {
			t.Errorf("ParseWith(…, %d) started %d workers, want %d", n, got, want)
		}
	}
}
