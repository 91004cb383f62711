package moduleid

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

const tu = `source_filename = "src/a.cpp"
target triple = "spir64-unknown-unknown"

define weak_odr spir_kernel void @k() #0 {
  call void @helper()
  ret void
}

define void @helper() {
  call void @local()
  ret void
}

define internal void @local() {
  ret void
}

define linkonce_odr void @tmpl() {
  ret void
}

declare void @ext()

attributes #0 = { nounwind }
`

func run(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	rc := Main("sycl-module-id", args, clopt.Stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
	return rc, out.String() + errb.String()
}

// TestAnnotate gives the kernel and the external helper the module id,
// and nothing else; LLVM must read the result (llvm-as-19), and an input
// that already has the attribute comes out unchanged.
func TestAnnotate(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.ll")
	if err := os.WriteFile(in, []byte(tu), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.ll")
	if rc, msg := run(t, "-o", out, in); rc != 0 {
		t.Fatalf("exit %d: %s", rc, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{
		// The attribute joins the function's group (a new one for a
		// function without), as LLVM prints a function's attributes.
		`define weak_odr spir_kernel void @k() #0 {`,
		`define void @helper() #1 {`,
		`attributes #0 = { nounwind "sycl-module-id"="src/a.cpp" }`,
		`attributes #1 = { "sycl-module-id"="src/a.cpp" }`,
		"define internal void @local() {",
		"define linkonce_odr void @tmpl() {",
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, `"sycl-module-id"`) != 2 {
		t.Errorf("want the attribute twice:\n%s", got)
	}
	if testenv.HaveTool("llvm-as-19") || testenv.InCI() {
		if msg, err := exec.Command(testenv.Tool(t, "llvm-as-19"), out, "-o", os.DevNull).CombinedOutput(); err != nil {
			t.Errorf("llvm-as-19 rejects the output: %v\n%s", err, msg)
		}
	}

	// Annotated input: written as it is.
	again := filepath.Join(dir, "again.ll")
	if rc, msg := run(t, "-o", again, out); rc != 0 {
		t.Fatalf("exit %d: %s", rc, msg)
	}
	if b2, _ := os.ReadFile(again); !bytes.Equal(b, b2) {
		t.Errorf("an annotated input changed:\n%s", b2)
	}
}

// TestNoSourceFilename uses the input's name as the module id.
func TestNoSourceFilename(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "b.ll")
	if err := os.WriteFile(in, []byte("define spir_kernel void @k() {\n  ret void\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.ll")
	if rc, msg := run(t, "-o", out, in); rc != 0 {
		t.Fatalf("exit %d: %s", rc, msg)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), `"sycl-module-id"="`+in+`"`) {
		t.Errorf("output:\n%s", b)
	}
}

// TestBitcode reads bitcode (llvm-as-19's) natively.
func TestBitcode(t *testing.T) {
	as := testenv.Tool(t, "llvm-as-19")
	dir := t.TempDir()
	in := filepath.Join(dir, "a.ll")
	if err := os.WriteFile(in, []byte(tu), 0o644); err != nil {
		t.Fatal(err)
	}
	bc := filepath.Join(dir, "a.bc")
	if msg, err := exec.Command(as, in, "-o", bc).CombinedOutput(); err != nil {
		t.Fatalf("llvm-as-19: %v\n%s", err, msg)
	}
	out := filepath.Join(dir, "out.ll")
	if rc, msg := run(t, "-o", out, bc); rc != 0 {
		t.Fatalf("exit %d: %s", rc, msg)
	}
	b, _ := os.ReadFile(out)
	if strings.Count(string(b), `"sycl-module-id"="src/a.cpp"`) != 2 {
		t.Errorf("output:\n%s", b)
	}
}

// TestErrors: bad input is an error naming the file and position, bad
// usage an error; nothing is written.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "bad.ll")
	if err := os.WriteFile(in, []byte("define void @f( {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.ll")
	rc, msg := run(t, "-o", out, in)
	if rc == 0 || !strings.Contains(msg, in+":2:1: ") {
		t.Errorf("exit %d, message %q; want an error at %s:2:1", rc, msg, in)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an output was written for bad input")
	}
	if rc, _ := run(t, in); rc == 0 {
		t.Error("no -o: exit 0")
	}
}
