//go:build linux

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// writeJobs writes a job list for run.
func writeJobs(t *testing.T, dir string, jobs [][][][]string) string {
	t.Helper()
	data, err := json.Marshal(jobs)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "jobs.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRun(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	// Job i writes i.txt through a pipeline, then checks it with a second
	// command, found on PATH: each job's commands run in order, the pipe
	// joins them.
	var jobs [][][][]string
	for _, name := range []string{"a", "b", "c"} {
		jobs = append(jobs, [][][]string{
			{{sh, "-c", "echo " + name}, {sh, "-c", "tr a-z A-Z > " + name + ".txt"}},
			{{"sh", "-c", "grep -qx " + strings.ToUpper(name) + " " + name + ".txt"}},
		})
	}
	if err := run(writeJobs(t, dir, jobs), dir, 2); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b", "c"} {
		got, err := os.ReadFile(filepath.Join(dir, name+".txt"))
		if err != nil || string(got) != strings.ToUpper(name)+"\n" {
			t.Errorf("%s.txt = %q, %v", name, got, err)
		}
	}
}

func TestRunFailure(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	jobs := [][][][]string{{{{sh, "-c", "exit 3"}}}}
	if err := run(writeJobs(t, dir, jobs), dir, 1); err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("a command exiting 3: err = %v", err)
	}
	jobs = [][][][]string{{{{filepath.Join(dir, "missing")}}}}
	if err := run(writeJobs(t, dir, jobs), dir, 1); err == nil {
		t.Error("a program that does not exist: no error")
	}
}
