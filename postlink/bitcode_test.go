package postlink

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestBitcodeInput: sycl-post-link -split=kernel -symbols -properties on
// a .bc writes the same table and the same files, byte for byte, as on
// the .ll it was assembled from (the .ll being llvm-dis's text of the .bc,
// which is what sycbuild reproduces).
func TestBitcodeInput(t *testing.T) {
	root := testenv.RepoRoot(t)
	tmp := t.TempDir()
	type module struct{ name, bc, v string }
	var mods []module
	// Device code of clang-22 (what DPC++ writes), and LLVM 19 bitcode of
	// the conformance modules.
	bc := filepath.Join(tmp, "sycl.bc")
	if out, err := exec.Command(testenv.Tool(t, "clang-22"), "-cc1", "-triple", "spir64-unknown-unknown", "-fsycl-is-device",
		"-std=c++17", "-O2", "-emit-llvm-bc", filepath.Join(root, "bitcode", "testdata", "src", "sycl.cpp"), "-o", bc).CombinedOutput(); err != nil {
		t.Fatalf("clang-22: %v\n%s", err, out)
	}
	mods = append(mods, module{"sycl.cpp", bc, "22"})
	lls, _ := filepath.Glob(filepath.Join(testenv.ConformanceDir(t), "sycl-post-link", "device-code-split", "*.ll"))
	for i, ll := range lls {
		// Assembled twice, the second time from llvm-dis's text of the
		// first, so that LLVM's reader upgrades (a SPIR data layout gains
		// "-G1") are in the bitcode itself.
		bc0 := filepath.Join(tmp, "c"+itoa(i)+".0.bc")
		bc := filepath.Join(tmp, "c"+itoa(i)+".bc")
		if exec.Command(testenv.Tool(t, "llvm-as-19"), ll, "-o", bc0).Run() != nil {
			continue
		}
		text, err := exec.Command(testenv.Tool(t, "llvm-dis-19"), bc0, "-o", "-").Output()
		if err != nil {
			t.Fatalf("llvm-dis-19 %s: %v", ll, err)
		}
		as := exec.Command(testenv.Tool(t, "llvm-as-19"), "-", "-o", bc)
		as.Stdin = bytes.NewReader(text)
		if out, err := as.CombinedOutput(); err != nil {
			t.Fatalf("llvm-as-19 of llvm-dis-19's text of %s: %v\n%s", ll, err, out)
		}
		mods = append(mods, module{filepath.Base(ll), bc, "19"})
	}
	compared := 0
	for i, m := range mods {
		dir := filepath.Join(tmp, "m"+itoa(i))
		text, err := exec.Command(testenv.Tool(t, "llvm-dis-"+m.v), m.bc, "-o", "-").Output()
		if err != nil {
			t.Fatalf("llvm-dis-%s %s: %v", m.v, m.name, err)
		}
		for _, sub := range []string{"ll", "bc"} {
			if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "in.ll"), text, 0o644); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(m.bc)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "in.bc"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"-split=kernel", "-symbols", "-properties", "-S", "-o", "out.table"}
		if _, err := runTool(t, filepath.Join(dir, "ll"), "", append(args, "../in.ll")...); err != nil {
			continue // not a module this split handles; nothing to compare
		}
		if msgs, err := runTool(t, filepath.Join(dir, "bc"), "", append(args, "../in.bc")...); err != nil {
			t.Errorf("%s: the .ll splits, the .bc fails: %v\n%s", m.name, err, msgs)
			continue
		}
		a, b := files(t, filepath.Join(dir, "ll")), files(t, filepath.Join(dir, "bc"))
		if !slices.Equal(a, b) {
			t.Errorf("%s: files %v from the .ll, %v from the .bc", m.name, a, b)
			continue
		}
		for _, f := range a {
			x := readFile(t, filepath.Join(dir, "ll", f))
			y := readFile(t, filepath.Join(dir, "bc", f))
			if !bytes.Equal([]byte(x), []byte(y)) {
				t.Errorf("%s: %s differs:\n--- from the .ll\n%s\n--- from the .bc\n%s", m.name, f, x, y)
			}
		}
		compared++
	}
	if compared < 2 {
		t.Errorf("only %d modules compared", compared)
	}
	t.Logf("%d modules split from .ll and .bc alike", compared)
}
