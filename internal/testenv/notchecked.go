package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// NotCheckedEnv names the environment variable holding the file where
// NotChecked and SkipNotChecked append one line per thing a test did not
// check; make test sets it and prints the file after the tests, so that
// CI's summary lists them.
const NotCheckedEnv = "SYCBUILD_NOT_CHECKED"

// NotChecked says plainly what the test does not check on this machine,
// and why ("the spir64_gen image: no ocloc here"), and lets the test go on
// with what it can check. Use it for what a machine may lack even in CI (a
// GPU, root); a tool that CI installs is Tool's or Want's business.
func NotChecked(t testing.TB, what string) {
	t.Helper()
	t.Logf("not checked here: %s", what)
	record(t, what)
}

// SkipNotChecked is NotChecked for a test that can check nothing more: it
// ends the test as skipped.
func SkipNotChecked(t testing.TB, what string) {
	t.Helper()
	record(t, what)
	t.Skipf("not checked here: %s", what)
}

// Want reports whether every named tool is on PATH. In CI a missing one
// fails the test, since CI installs them all; elsewhere the test goes on
// without them, and what it could not check, what, is reported as by
// NotChecked.
func Want(t testing.TB, what string, tools ...string) bool {
	t.Helper()
	var missing []string
	for _, tool := range tools {
		if !HaveTool(tool) {
			missing = append(missing, tool)
		}
	}
	if len(missing) == 0 {
		return true
	}
	why := "no " + strings.Join(missing, ", ") + " on PATH"
	if InCI() {
		t.Fatalf("missing in CI: %s (%s; scripts/install-toolchain.sh should provide it)", what, why)
	}
	NotChecked(t, what+" ("+why+")")
	return false
}

// Run runs an external command the test needs (as in "true", to have the
// id of a process that has ended) and fails the test when it does not run.
func Run(t testing.TB, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(Tool(t, name), args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	return cmd
}

// record appends "<package>: <test>: <what>" to the file NotCheckedEnv names, if any.
func record(t testing.TB, what string) {
	t.Helper()
	name := os.Getenv(NotCheckedEnv)
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Errorf("testenv: recording what was not checked: %v", err)
		return
	}
	// go test runs a package's tests in its directory.
	pkg := "."
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(RepoRoot(t), wd); err == nil {
			pkg = filepath.ToSlash(rel)
		}
	}
	// One write per line: the packages' test processes share the file.
	line := pkg + ": " + t.Name() + ": " + strings.ReplaceAll(what, "\n", " ") + "\n"
	if _, err := f.WriteString(line); err != nil {
		t.Errorf("testenv: recording what was not checked: %v", err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("testenv: recording what was not checked: %v", err)
	}
}
