package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestFromCaller(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"proj/sub", "real/deep/proj", "gen"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	// link/proj is real/deep/proj: its ".." is real/deep, not link.
	os.Mkdir(filepath.Join(root, "link"), 0o755)
	os.Symlink(filepath.Join(root, "real/deep/proj"), filepath.Join(root, "link/proj"))
	t.Chdir(root)
	for _, tc := range []struct{ dir, path, want string }{
		{".", "./a/../b.ll", "b.ll"},
		{"proj", "proj/sub/k.ll", "sub/k.ll"},
		{"proj", "gen/out.o", "../gen/out.o"},
		{"proj/sub", "gen/out.o", "../../gen/out.o"},
		{"proj", "/abs/x.ll", "/abs/x.ll"},
		{"link/proj", "link/proj/k.ll", "k.ll"},
		{"link/proj", "gen/out.o", "../../../gen/out.o"},
	} {
		got, err := fromCaller(tc.dir, tc.path)
		if err != nil || got != tc.want {
			t.Errorf("fromCaller(%q, %q) = %q, %v; want %q", tc.dir, tc.path, got, err, tc.want)
			continue
		}
		// The result names the same place when taken from dir.
		if !filepath.IsAbs(got) {
			realDir, _ := filepath.EvalSymlinks(tc.dir)
			a, _ := filepath.Abs(filepath.Join(realDir, filepath.Dir(got)))
			a, _ = filepath.EvalSymlinks(a)
			b, _ := filepath.Abs(filepath.Dir(tc.path))
			b, _ = filepath.EvalSymlinks(b)
			if a != b || a == "" {
				t.Errorf("fromCaller(%q, %q) = %q leads to %q, not %q", tc.dir, tc.path, got, a, b)
			}
		}
	}
}

// project lays out a project in a temporary directory: proj/t.yaml with an
// llvm_ir target (no external tool needed) and proj/device.ll, plus
// other/k.ll, a second device input outside the project. It returns the
// temporary directory.
func project(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	ir := readFile(t, filepath.Join(testenv.RepoRoot(t), "examples", "make", "device", "scale.ll"))
	write(t, filepath.Join(root, "proj", "device.ll"), ir)
	write(t, filepath.Join(root, "other", "k.ll"), ir)
	write(t, filepath.Join(root, "proj", "t.yaml"), []byte("inputs: [device.ll]\nsplit: per_kernel\ntargets: [{kind: llvm_ir}]\n"))
	return root
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sycbuild runs the sycbuild binary in dir and returns its exit status and
// combined output.
func sycbuild(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(testenv.Sycbuild(t), args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.String()
}

func mustBuild(t *testing.T, dir string, args ...string) string {
	t.Helper()
	code, out := sycbuild(t, dir, args...)
	if code != 0 {
		t.Fatalf("sycbuild %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// files lists the regular files under dir, relative to it.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			r, _ := filepath.Rel(dir, p)
			out = append(out, r)
		}
		return err
	})
	sort.Strings(out)
	return out
}

func TestDepfile(t *testing.T) {
	root := project(t)
	dep := filepath.Join(root, "dep.d")
	want := "proj/out/device_images.o: \\\n  proj/t.yaml \\\n  proj/device.ll\n"
	for i, what := range []string{"build", "no-op build"} {
		os.Remove(dep)
		out := mustBuild(t, root, "-config", "proj/t.yaml", "-M", "dep.d")
		if i == 1 && !strings.Contains(out, "0 actions run") {
			t.Errorf("the second build ran actions:\n%s", out)
		}
		if got := string(readFile(t, dep)); got != want {
			t.Errorf("%s: depfile %q, want %q", what, got, want)
		}
	}
	mustBuild(t, filepath.Join(root, "proj"), "-config", "t.yaml", "--depfile", "../dep.d", "-MP")
	if got, want := string(readFile(t, dep)), "out/device_images.o: \\\n  t.yaml \\\n  device.ll\n\nt.yaml:\n\ndevice.ll:\n"; got != want {
		t.Errorf("from the config's directory with -MP: depfile %q, want %q", got, want)
	}
	// A failed build leaves the last depfile alone.
	os.WriteFile(filepath.Join(root, "proj", "device.ll"), []byte("define broken"), 0o644)
	if code, _ := sycbuild(t, root, "-config", "proj/t.yaml", "-M", "dep.d"); code == 0 {
		t.Fatal("a broken input built")
	}
	if got := string(readFile(t, dep)); !strings.HasPrefix(got, "out/device_images.o:") {
		t.Errorf("a failed build rewrote the depfile: %q", got)
	}
}

// TestOverridesAndNoCache builds with every path on the command line and
// --no-cache, as a Bazel rule does: only the output and the build
// directory are written, nothing holds an absolute path, and a second
// build runs everything again and writes the same bytes.
func TestOverridesAndNoCache(t *testing.T) {
	root := project(t)
	args := []string{"-config", "proj/t.yaml", "--no-cache", "-o", "gen/dev.o", "-build-dir", "gen/dev.tmp", "-M", "gen/dev.d", "other/k.ll"}
	mustBuild(t, root, args...)
	got := files(t, root)
	var written []string
	for _, f := range got {
		if strings.HasPrefix(f, "gen/") {
			written = append(written, f)
		}
	}
	if len(written) != len(got)-3 { // proj/t.yaml, proj/device.ll, other/k.ll
		t.Errorf("files after the build: %q; only gen/ should be new", got)
	}
	for _, f := range written {
		if strings.Contains(f, ".sycbuild") {
			t.Errorf("--no-cache kept state: %s", f)
		}
		b := readFile(t, filepath.Join(root, f))
		if bytes.Contains(b, []byte(root)) || bytes.Contains(b, []byte(filepath.Dir(testenv.Sycbuild(t)))) {
			t.Errorf("%s holds an absolute path", f)
		}
	}
	if !contains(got, "gen/dev.o") || !contains(got, "gen/dev.tmp/llvm_ir/module.table") {
		t.Fatalf("the output or the build directory's tables are missing: %q", got)
	}
	if d, want := string(readFile(t, filepath.Join(root, "gen/dev.d"))), "gen/dev.o: \\\n  proj/t.yaml \\\n  other/k.ll\n"; d != want {
		t.Errorf("depfile %q, want %q", d, want)
	}
	first := readFile(t, filepath.Join(root, "gen/dev.o"))
	out := mustBuild(t, root, args...)
	if strings.Contains(out, " 0 actions run") {
		t.Errorf("--no-cache reused earlier work:\n%s", out)
	}
	if !bytes.Equal(first, readFile(t, filepath.Join(root, "gen/dev.o"))) {
		t.Error("two --no-cache builds wrote different objects")
	}
	// The same build from the config's directory, with the cache: same bytes.
	mustBuild(t, filepath.Join(root, "proj"), "-config", "t.yaml", "-o", "../gen/again.o", "-build-dir", "../gen/again.tmp", "../other/k.ll")
	if !bytes.Equal(first, readFile(t, filepath.Join(root, "gen/again.o"))) {
		t.Error("the object depends on the directory sycbuild ran in")
	}
}

func TestHostFlagErrors(t *testing.T) {
	root := project(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-config", "proj/t.yaml", "a.o"}, `command line: input "a.o" is not LLVM IR (expected a .ll or .bc file)`},
		{[]string{"-config", "proj/t.yaml", "-split", "kernel"}, `command line: unknown split mode "kernel" (want off, per_source, per_kernel or auto; did you mean "per_kernel"? (DPC++'s -split=kernel))`},
		{[]string{"-config", "proj/t.yaml", "-targets", "spir64"}, `command line: proj/t.yaml names no target "spir64" (its targets: llvm_ir)`},
		{[]string{"-config", "proj/t.yaml", "missing.ll"}, "missing.ll"},
	} {
		code, out := sycbuild(t, root, tc.args...)
		if code != 2 || !strings.Contains(out, tc.want) {
			t.Errorf("sycbuild %s: exit %d, output %q; want exit 2 and %q", strings.Join(tc.args, " "), code, out, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "proj", "out", "device_images.o")); err == nil {
		t.Error("a rejected command line wrote an output")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
