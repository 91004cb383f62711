package syclpostlink

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/sycbuild/sycbuild/bitcode"
	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// Without -S the modules are bitcode that the tools the DPC++ driver runs
// next read, written by sycbuild itself: llvm-dis-15 of each is llvm-dis-15
// of what llvm-as-15 makes of the module -S writes (only the ModuleID line
// differs), and llvm-spirv-15, which reads nothing but bitcode, translates
// it.
func TestBitcodeModules(t *testing.T) {
	as := testenv.Tool(t, "llvm-as-15")
	dis := testenv.Tool(t, "llvm-dis-15")
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
		if stderr.Len() > 0 {
			t.Errorf("sycl-post-link %q wrote:\n%s", args, stderr.String())
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
	disasm := func(bc []byte) string {
		t.Helper()
		cmd := exec.Command(dis, "-", "-o", "-")
		cmd.Stdin = bytes.NewReader(bc)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", dis, err)
		}
		return moduleID.ReplaceAllString(string(out), "")
	}
	for i, f := range bcCode {
		if filepath.Ext(f) != ".bc" {
			t.Errorf("module %s: want a .bc name", f)
		}
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(textCode[i])
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(as, "-", "-o", "-")
		cmd.Stdin = bytes.NewReader(src)
		want, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %s: %v", as, textCode[i], err)
		}
		if g, w := disasm(got), disasm(want); g != w {
			t.Errorf("%s: llvm-dis-15 differs from that of %s assembled by %s:\n%s\n----\n%s", f, textCode[i], as, g, w)
		}
		if out, err := exec.Command(spirv, f, "-o", f+".spv").CombinedOutput(); err != nil {
			t.Errorf("%s %s: %v\n%s", spirv, f, err, out)
		}
	}
}

var moduleID = regexp.MustCompile(`(?m)^; ModuleID = .*\n`)

// With no LLVM tool on PATH the modules are still written as bitcode,
// which sycbuild's own reader reads back to the module -S writes.
func TestBitcodeWithoutAssembler(t *testing.T) {
	input := filepath.Join(testenv.RepoRoot(t), "examples", "quickstart", "device.ll")
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	var stderr bytes.Buffer
	out := filepath.Join(dir, "out.table")
	if code := Main("sycl-post-link", []string{"-split=kernel", "-o", out, input}, clopt.Stdio{Out: &stderr, Err: &stderr}); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("unexpected output:\n%s", stderr.String())
	}
	tb, err := filetable.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	code, _ := tb.Column("Code")
	if len(code) < 2 {
		t.Fatalf("%d modules", len(code))
	}
	for _, f := range code {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bitcode.Disassemble(f, b); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// A module the writer cannot write is an error naming the construct at
// its line in the module's text and suggesting -S; no external assembler
// runs (an llvm-as on PATH that would leave a mark is not started), and no
// module is left behind.
func TestBitcodeUnwritableModule(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "asm.ll")
	src := "target triple = \"spir64-unknown-unknown\"\n\n" +
		"define spir_kernel void @k() {\nentry:\n  ret void\n}\n\n^0 = module: (path: \"a.o\", hash: (0, 0, 0, 0, 0))\n^1 = gv: (name: \"k\")\n"
	if err := os.WriteFile(input, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	ran := filepath.Join(dir, "llvm-as-ran")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"llvm-as", "llvm-as-15", "llvm-as-19", "llvm-as-22"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\necho ran > "+ran+"\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	var stderr bytes.Buffer
	out := filepath.Join(dir, "out.table")
	if code := Main("sycl-post-link", []string{"-split=kernel", "-o", out, input}, clopt.Stdio{Out: &stderr, Err: &stderr}); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr.String())
	}
	want := "sycl-post-link: error writing the file '" + filepath.Join(dir, "out_0.bc") + "': line 8:1 of the module's text (as -S writes it): bitcode writer: summary entry is not supported; pass -S to write the modules as textual IR\n"
	if stderr.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("an llvm-as ran")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "out*")); len(left) > 0 {
		t.Errorf("a failed run left %v", left)
	}
}

// A module sycl-post-link wrote, split again, gets one
// !sycl-esimd-split-status holding both statuses, as the reference's
// getOrInsertNamedMetadata and addOperand make it (text defining that
// named metadata twice is refused by sycbuild's IR reader), and is written
// as bitcode.
func TestSplitAgain(t *testing.T) {
	input := filepath.Join(testenv.RepoRoot(t), "examples", "quickstart", "device.ll")
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		var stderr bytes.Buffer
		if code := Main("sycl-post-link", args, clopt.Stdio{Out: &stderr, Err: &stderr}); code != 0 {
			t.Fatalf("sycl-post-link %q: exit %d\n%s", args, code, stderr.String())
		}
	}
	run("-split=kernel", "-symbols", "-o", filepath.Join(dir, "a.table"), input)
	run("-split=kernel", "-symbols", "-o", filepath.Join(dir, "b.table"), filepath.Join(dir, "a_0.bc"))
	run("-split=kernel", "-symbols", "-S", "-o", filepath.Join(dir, "c.table"), filepath.Join(dir, "a_0.bc"))
	text, err := os.ReadFile(filepath.Join(dir, "c_0.ll"))
	if err != nil {
		t.Fatal(err)
	}
	if got := regexp.MustCompile(`(?m)^!sycl-esimd-split-status = !\{!\d+, !\d+\}$`).FindAll(text, -1); len(got) != 1 || bytes.Count(text, []byte("!sycl-esimd-split-status =")) != 1 {
		t.Errorf("want one !sycl-esimd-split-status of two operands:\n%s", text)
	}
	b, err := os.ReadFile(filepath.Join(dir, "b_0.bc"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bitcode.Disassemble("b_0.bc", b); err != nil {
		t.Error(err)
	}
}
