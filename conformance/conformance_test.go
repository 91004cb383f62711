package conformance

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

var only = flag.String("only", "", "run only the conformance tests whose path contains this text (or set SYCBUILD_CONFORMANCE_ONLY)")

var otherDir = flag.String("dir", "", "run the lit tests of this directory instead of the shared ones, laid out as they are (sycl-post-link/...), or set SYCBUILD_CONFORMANCE_DIR")

// testSuffixes are the file kinds lit treats as tests in these folders.
var testSuffixes = []string{".test", ".ll", ".c", ".cpp"}

// discover lists the test files below dir (paths with '/'), leaving out
// Inputs folders.
func discover(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "Inputs" {
				return filepath.SkipDir
			}
			return nil
		}
		for _, s := range testSuffixes {
			if strings.HasSuffix(p, s) {
				rel, err := filepath.Rel(dir, p)
				if err != nil {
					return err
				}
				files = append(files, filepath.ToSlash(rel))
				break
			}
		}
		return nil
	})
	return files, err
}

// plan is every registered case and every uncovered test file (skipped,
// "not yet covered"), sorted, filtered by the -only text.
func plan(files []string, filter string) []Case {
	return planFor(files, filter, false)
}

// planFor is plan, or, for another directory than the shared one (other),
// the registered cases of the files that directory holds and every other
// file run as it is: there the point is to see what passes unmodified.
func planFor(files []string, filter string, other bool) []Case {
	seen := map[string]bool{}
	present := map[string]bool{}
	for _, f := range files {
		present[f] = true
	}
	var out []Case
	for _, c := range Cases() {
		if other && !present[c.File] {
			continue
		}
		seen[c.File] = true
		out = append(out, c)
	}
	for _, f := range files {
		if !seen[f] {
			c := Case{File: f, Skip: "not yet covered"}
			if other {
				c.Skip = ""
			}
			out = append(out, c)
		}
	}
	var kept []Case
	for _, c := range out {
		if strings.Contains(c.File, filter) {
			kept = append(kept, c)
		}
	}
	sortCases(kept)
	return kept
}

func sortCases(cs []Case) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].File < cs[j-1].File; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

func TestConformance(t *testing.T) {
	dir, other := *otherDir, true
	if dir == "" {
		dir = os.Getenv("SYCBUILD_CONFORMANCE_DIR")
	}
	if dir == "" {
		dir, other = testenv.ConformanceDir(t), false
	}
	env := &Env{
		Dir:       dir,
		FileCheck: testenv.Tool(t, "FileCheck-19"),
		InCI:      testenv.InCI(),
	}
	testenv.Tool(t, "bash")
	env.Links = testenv.ToolLinks(t)
	files, err := discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	filter := *only
	if filter == "" {
		filter = os.Getenv("SYCBUILD_CONFORMANCE_ONLY")
	}
	cases := planFor(files, filter, other)
	if len(cases) == 0 {
		t.Fatalf("no conformance test matches %q", filter)
	}

	results := make([]Result, len(cases))
	t.Run("tests", func(t *testing.T) {
		for i, c := range cases {
			t.Run(c.File, func(t *testing.T) {
				t.Parallel()
				r := env.Run(context.Background(), c, t.TempDir())
				results[i] = r
				switch r.Outcome {
				case Fail:
					t.Errorf("%s\n%s", r.Line(), r.Log)
				case Skip, Missing:
					t.Skip(r.Line())
				}
			})
		}
	})

	var w io.Writer = os.Stdout
	if p := os.Getenv("SYCBUILD_CONFORMANCE_REPORT"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w = io.MultiWriter(os.Stdout, f)
	}
	writeReport(w, results)
}

// writeReport prints one line per test, its notes indented below it, and
// the summary line.
func writeReport(w io.Writer, results []Result) {
	var pass, fail, skip, missing int
	fmt.Fprintln(w, "conformance (intel/llvm lit tests, checked with FileCheck-19):")
	for _, r := range results {
		fmt.Fprintln(w, r.Line())
		for _, n := range r.Notes {
			fmt.Fprintln(w, "    adapted: "+n)
		}
		switch r.Outcome {
		case Pass:
			pass++
		case Fail:
			fail++
		case Skip:
			skip++
		case Missing:
			missing++
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped", pass, fail, skip)
	if missing > 0 {
		fmt.Fprintf(w, ", %d failing for behaviour sycbuild lacks (MISSING)", missing)
	}
	fmt.Fprintln(w)
}
