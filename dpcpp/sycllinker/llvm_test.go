package sycllinker

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestMessagesLikeLLVM runs clang-sycl-linker-22 and this tool with the
// same command lines in the same directory and compares what they print:
// with -v (and --dry-run) the lines LLVM 22's tool writes for its link and
// its SPIR-V backend and the ahead-of-time commands it runs, quoted as it
// quotes them (ocloc for bmg_g21, opencl-aot for graniterapids, the only
// Intel architectures LLVM 22 compiles ahead of time); the errors for a
// missing output, triple or device library, an empty --device-libs= and an
// input that is not bitcode. The linked file's name is the one difference
// allowed (LLVM's is a fresh temporary file), and an error may say more
// (this tool names the input it refuses).
func TestMessagesLikeLLVM(t *testing.T) {
	llvm := testenv.Tool(t, "clang-sycl-linker-22")
	needLLVM22(t)
	dir := t.TempDir()
	for i, k := range []string{"k1", "k2"} {
		cmd := exec.Command(testenv.Tool(t, "llvm-as-22"), "-o", filepath.Join(dir, "t_"+string(rune('1'+i))+".bc"))
		cmd.Stdin = strings.NewReader("target triple = \"spirv64\"\ndefine spir_kernel void @" + k + "() {\n  ret void\n}\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("llvm-as-22: %v\n%s", err, out)
		}
	}
	for _, f := range []string{"lib1.bc", "lib2.bc", "t.o"} {
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	linked := regexp.MustCompile(`(output|input): \S+\.bc\b`)
	prog := regexp.MustCompile(`(?m)^\S*clang-sycl-linker-22: `)
	for _, args := range [][]string{
		{"--dry-run", "-v", "-triple=spirv64", "t_1.bc", "t_2.bc", "-o", "a.spv"},
		{"--dry-run", "-v", "-triple=spirv64", "t_1.bc", "t_2.bc", "--library-path=.", "--device-libs=lib1.bc,lib2.bc", "-o", "a.spv"},
		{"--dry-run", "-v", "-triple=spirv64", "-arch=bmg_g21", "t_1.bc", "t_2.bc", "-o", "a.out", "--ocloc-options=-a -b"},
		{"--dry-run", "-v", "-triple=spirv64", "-arch=graniterapids", "t_1.bc", "t_2.bc", "-o", "a.out", "--opencl-aot-options=-a -b"},
		{"--dry-run", "-v", "-triple=spirv64", "-arch=pvc", "t_1.bc", "-o", "a.out"},
		{"-v", "-triple=spirv64", "t_1.bc", "t_2.bc", "-o", "a.spv"},
		{"-triple=spirv64", "t.o", "-o", "a.spv"},
		{"--dry-run", "-triple=spirv64", "t_1.bc", "--library-path=.", "--device-libs=", "-o", "a.spv"},
		{"--dry-run", "-triple=spirv64", "t_1.bc", "--library-path=.", "--device-libs=lib1.bc,lib3.bc", "-o", "a.spv"},
		{"--dry-run", "t_1.bc"},
		{"--dry-run", "t_1.bc", "-o", "a.out"},
	} {
		name := strings.Join(args, " ")
		c := exec.Command(llvm, args...)
		c.Dir = dir
		want, err := c.CombinedOutput()
		wantRC := 0
		if err != nil {
			wantRC = 1
		}
		var out, errb bytes.Buffer
		rc := 1
		o, perr := Parse("clang-sycl-linker-22", args, func(string) string { return "" }, &out)
		if perr == nil {
			rc = Run("clang-sycl-linker-22", dir, o, clopt.Stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
		} else {
			errb.WriteString(perr.Error() + "\n")
		}
		got := prog.ReplaceAllString(linked.ReplaceAllString(out.String()+errb.String(), "$1: LINKED.bc"), "")
		w := prog.ReplaceAllString(linked.ReplaceAllString(string(want), "$1: LINKED.bc"), "")
		switch {
		case rc != wantRC:
			t.Errorf("%s: exit %d, clang-sycl-linker-22 %d\n%s\nclang-sycl-linker-22:\n%s", name, rc, wantRC, got, w)
		case rc == 0 && got != w:
			t.Errorf("%s: prints\n%s\nclang-sycl-linker-22 prints\n%s", name, got, w)
		case rc != 0 && !strings.Contains(got, strings.TrimSpace(strings.TrimPrefix(w, "error: "))):
			t.Errorf("%s: error\n%s\nclang-sycl-linker-22's\n%s", name, got, w)
		}
	}
}
