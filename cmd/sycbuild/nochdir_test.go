package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// The build runs in the config's directory without moving the process
// there: graph.Options.Dir is the config's directory, external commands
// get it as their working directory and the in-process tools resolve their
// paths against it.

// dirProject lays out a project at root/name: two translation units split
// per source (so sycl-module-id and llvm-link run), an llvm_ir target and,
// when its tools are here, a spir64 one (llvm-as, llvm-spirv and spirv-val
// through llvm-foreach).
func dirProject(t *testing.T, root, name string, spir64 bool) string {
	t.Helper()
	dir := filepath.Join(root, name)
	for _, tu := range []string{"vector_ops.ll", "image_ops.ll"} {
		write(t, filepath.Join(dir, "tu", tu), readFile(t, filepath.Join(testenv.RepoRoot(t), "examples", "upstream", "tu", tu)))
	}
	config := "inputs: [tu/vector_ops.ll, tu/image_ops.ll]\nsplit: per_source\ntargets:\n  - kind: llvm_ir\n"
	if spir64 {
		config += "  - kind: spir64\n"
	}
	write(t, filepath.Join(dir, "t.yaml"), []byte(config))
	return dir
}

// outFiles returns the files of dir's build directory with their contents,
// without sycbuild's state.
func outFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range files(t, filepath.Join(dir, "out")) {
		if strings.HasPrefix(f, ".sycbuild/") {
			continue
		}
		out[f] = string(readFile(t, filepath.Join(dir, "out", f)))
	}
	return out
}

func sameOutputs(t *testing.T, what string, a, b map[string]string) {
	t.Helper()
	if len(a) == 0 {
		t.Fatalf("%s: no outputs", what)
	}
	for f, ca := range a {
		if cb, ok := b[f]; !ok {
			t.Errorf("%s: %s is missing", what, f)
		} else if ca != cb {
			t.Errorf("%s: %s differs", what, f)
		}
	}
	for f := range b {
		if _, ok := a[f]; !ok {
			t.Errorf("%s: %s is extra", what, f)
		}
	}
}

// TestBuildFromAnotherDirectory: a build started from the config's parent
// directory (-config b/t.yaml) writes the same files, byte for byte, as
// one started in the config's directory; so does one run inside this
// process, during which the process's working directory stays where it
// was.
func TestBuildFromAnotherDirectory(t *testing.T) {
	testenv.Tool(t, "llvm-link-15")
	spir64 := testenv.Want(t, "the spir64 target's external commands run from another directory", "llvm-as-15", "llvm-spirv-15", "spirv-val")
	root := t.TempDir()
	a := dirProject(t, root, "a", spir64)
	dirProject(t, root, "b", spir64)
	c := dirProject(t, root, "c", spir64)

	mustBuild(t, a, "-config", "t.yaml")
	want := outFiles(t, a)
	mustBuild(t, root, "-config", "b/t.yaml")
	sameOutputs(t, "built from the parent directory", want, outFiles(t, filepath.Join(root, "b")))
	if out := mustBuild(t, root, "-config", "b/t.yaml"); !strings.Contains(out, " 0 actions run") {
		t.Errorf("the second build from the parent directory is not a no-op:\n%s", out)
	}

	// In this process, from the parent directory.
	t.Chdir(root)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	stdio := clopt.Stdio{In: strings.NewReader(""), Out: &stdout, Err: &stderr}
	f, err := parseBuildFlags("sycbuild", []string{"-config", "c/t.yaml", "-j", "2"}, &stderr, false)
	if err != nil {
		t.Fatal(err)
	}
	s, code := setUp(context.Background(), f, stdio)
	if s == nil {
		t.Fatalf("setUp: exit %d\n%s", code, stderr.String())
	}
	checkWd := func(when string) {
		t.Helper()
		if now, err := os.Getwd(); err != nil || now != wd {
			t.Errorf("%s, the working directory is %s (%v), not %s", when, now, err, wd)
		}
	}
	checkWd("after planning")
	_, err = s.plan.Graph.Build(context.Background(), s.opt)
	checkWd("after the build")
	s.restore()
	checkWd("after restore")
	if err != nil {
		t.Fatalf("in-process build: %v\n%s", err, stderr.String())
	}
	sameOutputs(t, "built in this process from the parent directory", want, outFiles(t, c))
	if _, err := os.Stat(filepath.Join(root, "out")); err == nil {
		t.Errorf("the build wrote %s", filepath.Join(root, "out"))
	}
}
