package syclpostlink

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/tools/clopt"
)

// Without -S the modules are bitcode that the tools the DPC++ driver runs
// next read: each is what llvm-as-15 makes of the module -S writes, and
// llvm-spirv-15, which reads nothing but bitcode, translates it.
func TestBitcodeModules(t *testing.T) {
	as := testenv.Tool(t, "llvm-as-15")
	spirv := testenv.Tool(t, "llvm-spirv-15")
	input := filepath.Join(testenv.RepoRoot(t), "examples", "quickstart", "device.ll")
	dir := t.TempDir()
	run := func(args ...string) *filetable.Table {
		t.Helper()
		var stderr bytes.Buffer
		args = append([]string{"-split=kernel", "-symbols", "-spec-const=native"}, args...)
		if code := Main("sycl-post-link", append(args, input), clopt.Stdio{Out: &stderr, Err: &stderr}); code != 0 {
			t.Fatalf("sycl-post-link %q: exit %d\n%s", args, code, stderr.String())
		}
		tb, err := filetable.ReadFile(args[len(args)-1])
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	text := run("-S", "-o", filepath.Join(dir, "text.table"))
	bc := run("-o", filepath.Join(dir, "bc.table"))
	textCode, _ := text.Column("Code")
	bcCode, _ := bc.Column("Code")
	if len(bcCode) != len(textCode) || len(bcCode) < 2 {
		t.Fatalf("%d bitcode and %d text modules", len(bcCode), len(textCode))
	}
	for i, f := range bcCode {
		if filepath.Ext(f) != ".bc" {
			t.Errorf("module %s: want a .bc name", f)
		}
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := exec.Command(as, textCode[i], "-o", "-").Output()
		if err != nil {
			t.Fatalf("%s %s: %v", as, textCode[i], err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s assembled by %s", f, textCode[i], as)
		}
		if out, err := exec.Command(spirv, f, "-o", f+".spv").CombinedOutput(); err != nil {
			t.Errorf("%s %s: %v\n%s", spirv, f, err, out)
		}
	}
}

// Without llvm-as the run fails, says what to install or to pass -S, and
// leaves no module behind.
func TestBitcodeNeedsAssembler(t *testing.T) {
	input := filepath.Join(testenv.RepoRoot(t), "examples", "quickstart", "device.ll")
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	var stderr bytes.Buffer
	out := filepath.Join(dir, "out.table")
	if code := Main("sycl-post-link", []string{"-split=kernel", "-o", out, input}, clopt.Stdio{Out: &stderr, Err: &stderr}); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	for _, want := range []string{"needs llvm-as of LLVM 15", "install the Debian package llvm-15", "pass -S"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("message lacks %q:\n%s", want, stderr.String())
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "out*")); len(left) > 0 {
		t.Errorf("a failed run left %v", left)
	}
}
