package examples

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// bazel runs one Bazel command in the workspace with its own output base,
// in batch mode (no server stays behind) and without the user's bazelrc
// (Debian's system bazelrc is needed: it points Bazel at its install base).
func bazel(t *testing.T, ws, outputBase string, args ...string) string {
	t.Helper()
	all := append([]string{"--batch", "--nohome_rc", "--output_base=" + outputBase}, args...)
	return run(t, ws, nil, "bazel", all...)
}

// writableTempDir is t.TempDir, made writable again before it is removed:
// Bazel leaves its outputs read-only.
func writableTempDir(t *testing.T) string {
	dir := t.TempDir()
	t.Cleanup(func() { exec.Command("chmod", "-R", "u+w", dir).Run() })
	return dir
}

// bazelOutputs reads every file of the app package's outputs (bazel-bin/app,
// links followed), by path relative to it.
func bazelOutputs(t *testing.T, ws string) map[string][]byte {
	t.Helper()
	root, err := filepath.EvalSymlinks(filepath.Join(ws, "bazel-bin", "app"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(p, ".runfiles") || strings.HasSuffix(p, ".runfiles_manifest") {
			return nil
		}
		r, _ := filepath.Rel(root, p)
		out[r], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var processes = regexp.MustCompile(`INFO: \d+ process(es)?: ([^\n]*)`)

// TestBazelExample builds examples/bazel offline with Debian's Bazel: the
// sycl_device_link rule's object and build directory, and the program
// linked from it, which must show the device images. A second build must
// run no action (fully cached: only Bazel's internal ones), and a build in
// a second clean output base must write byte-identical outputs, none of
// which holds an absolute path. Three Bazel runs in all.
func TestBazelExample(t *testing.T) {
	testenv.Tool(t, "bazel")
	testenv.Tool(t, "cc")
	ws := fresh(t, "bazel")
	// The workspace's tools/sycbuild links to the repository's bin/; the
	// copy gets the binary under test.
	if err := copyFile(testenv.Sycbuild(t), filepath.Join(ws, "tools", "sycbuild")); err != nil {
		t.Fatal(err)
	}
	bases := writableTempDir(t)
	ob1, ob2 := filepath.Join(bases, "ob1"), filepath.Join(bases, "ob2")

	out := bazel(t, ws, ob1, "build", "//app:all")
	if !strings.Contains(out, "SyclDeviceLink") && !strings.Contains(out, "Linking SYCL device code //app:device") {
		t.Errorf("the first build did not run sycl_device_link:\n%s", out)
	}
	app := run(t, ws, nil, filepath.Join(ws, "bazel-bin", "app", "app"))
	if !strings.Contains(app, "2 device images") || len(lines(app, "llvm_spir64: _ZTSZ4mainE")) != 2 {
		t.Fatalf("the program does not show the two LLVM IR images:\n%s", app)
	}
	first := bazelOutputs(t, ws)
	for _, want := range []string{"device.o", "app", "device.sycbuild/llvm_ir/module.table", "device.sycbuild/llvm_ir/module_1.bc"} {
		if first[want] == nil {
			t.Errorf("bazel-bin/app/%s is missing", want)
		}
	}
	for name, data := range first {
		if strings.Contains(name, ".sycbuild/.sycbuild") {
			t.Errorf("sycbuild kept state in a Bazel output: %s", name)
		}
		for _, abs := range []string{ws, bases, filepath.Dir(testenv.Sycbuild(t))} {
			if bytes.Contains(data, []byte(abs)) {
				t.Errorf("bazel-bin/app/%s holds the absolute path %s", name, abs)
			}
		}
	}

	out = bazel(t, ws, ob1, "build", "//app:all")
	m := processes.FindStringSubmatch(out)
	if m == nil || strings.TrimSpace(strings.TrimSuffix(m[2], ".")) != "1 internal" {
		t.Errorf("the second build was not fully cached (want only Bazel's internal process):\n%s", out)
	}

	bazel(t, ws, ob2, "build", "//app:all")
	second := bazelOutputs(t, ws)
	if len(second) != len(first) {
		t.Errorf("the second output base has %d files, the first %d", len(second), len(first))
	}
	for name, data := range first {
		if !bytes.Equal(data, second[name]) {
			t.Errorf("bazel-bin/app/%s differs between two clean output bases", name)
		}
	}
}
