package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// What a test did not check goes to the file NotCheckedEnv names, one line
// each, named by package and test; a tool that is there is not reported.
func TestNotCheckedRecorded(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-checked.txt")
	t.Setenv(NotCheckedEnv, file)
	t.Setenv("CI", "") // Want would fail the test in CI
	const absent = "sycbuild-testenv-no-such-tool"
	t.Run("sub", func(t *testing.T) {
		NotChecked(t, "the first thing\non two lines")
		if !Want(t, "the shell", "sh") {
			t.Error("Want: sh is on PATH, yet reported missing")
		}
		if Want(t, "the second thing", "sh", absent) {
			t.Errorf("Want: %s reported present", absent)
		}
	})
	t.Run("skipped", func(t *testing.T) {
		SkipNotChecked(t, "the third thing")
		t.Error("SkipNotChecked did not end the test")
	})
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := "internal/testenv: TestNotCheckedRecorded/sub: the first thing on two lines\n" +
		"internal/testenv: TestNotCheckedRecorded/sub: the second thing (no " + absent + " on PATH)\n" +
		"internal/testenv: TestNotCheckedRecorded/skipped: the third thing\n"
	if string(got) != want {
		t.Errorf("recorded:\n%s\nwant:\n%s", got, want)
	}
}
