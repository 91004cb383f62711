package examples

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/graph"
)

// The job log: every make recipe line and every external tool sycbuild
// runs appends "start KIND ID NS" when it begins and "end KIND ID NS" when
// it ends (NS: the wall clock in nanoseconds). The recipe's shell and the
// tool wrapper write them from inside the job, so each logged span lies
// within the time the job held its job slot: a logged overlap is a real one.
//
// KIND is "recipe" (a make recipe line), "sycbuild" (the recipe line that
// runs sycbuild), "tool" (a process sycbuild started) or "piped" (one that
// reads another's output through a pipe, in that one's job).

// jobSpan is one logged job.
type jobSpan struct {
	kind       string
	start, end int64
}

// readJobLog parses a job log; every job must have ended.
func readJobLog(path string) ([]jobSpan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	type open struct {
		kind  string
		start int64
	}
	running := map[string]open{}
	var spans []jobSpan
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		p := strings.Fields(sc.Text())
		if len(p) != 4 {
			return nil, fmt.Errorf("%s:%d: want \"start|end KIND ID NS\", got %q", path, n, sc.Text())
		}
		ns, err := strconv.ParseInt(p[3], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: bad time %q", path, n, p[3])
		}
		id := p[1] + " " + p[2]
		switch p[0] {
		case "start":
			running[id] = open{p[1], ns}
		case "end":
			o, ok := running[id]
			if !ok {
				return nil, fmt.Errorf("%s:%d: end of %s, which did not start", path, n, id)
			}
			delete(running, id)
			spans = append(spans, jobSpan{o.kind, o.start, ns})
		default:
			return nil, fmt.Errorf("%s:%d: unknown event %q", path, n, p[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for id := range running {
		return nil, fmt.Errorf("%s: job %s started but never ended", path, id)
	}
	return spans, nil
}

// jobPeak is the most jobs that ran at once, and the most tools sycbuild
// ran at once.
type jobPeak struct {
	total, tools int
}

// peakJobs sweeps the spans in time order. At each moment the jobs in use
// are the recipes other than sycbuild's, plus, for sycbuild, the larger of
// the recipes running it (each holds the job slot make started it with,
// also while it works in-process) and the tools it runs (each on a slot of
// its own, the first on the one make gave it). An end sorts before a start
// at the same instant.
func peakJobs(spans []jobSpan) jobPeak {
	type event struct {
		at    int64
		kind  string
		delta int
	}
	var ev []event
	for _, s := range spans {
		if s.kind == "piped" {
			continue // its writer's job
		}
		ev = append(ev, event{s.start, s.kind, +1}, event{s.end, s.kind, -1})
	}
	sort.SliceStable(ev, func(i, j int) bool {
		if ev[i].at != ev[j].at {
			return ev[i].at < ev[j].at
		}
		return ev[i].delta < ev[j].delta
	})
	count := map[string]int{}
	var peak jobPeak
	for _, e := range ev {
		count[e.kind] += e.delta
		peak.total = max(peak.total, count["recipe"]+max(count["sycbuild"], count["tool"]))
		peak.tools = max(peak.tools, count["tool"])
	}
	return peak
}

func TestPeakJobs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spans []jobSpan
		want  jobPeak
	}{
		{"none", nil, jobPeak{}},
		{"sequential", []jobSpan{{"recipe", 0, 10}, {"recipe", 10, 20}, {"recipe", 20, 30}}, jobPeak{1, 0}},
		{"overlapping recipes", []jobSpan{{"recipe", 0, 10}, {"recipe", 5, 15}, {"recipe", 6, 7}}, jobPeak{3, 0}},
		{"sycbuild in-process counts one", []jobSpan{{"sycbuild", 0, 100}, {"recipe", 10, 20}}, jobPeak{2, 0}},
		{"sycbuild's first tool uses its slot", []jobSpan{{"sycbuild", 0, 100}, {"tool", 10, 20}, {"recipe", 10, 20}}, jobPeak{2, 1}},
		{"tools beyond the first take slots", []jobSpan{
			{"sycbuild", 0, 100}, {"tool", 10, 50}, {"tool", 20, 50}, {"tool", 30, 50}, {"recipe", 40, 60},
		}, jobPeak{4, 3}},
		{"over the bound", []jobSpan{
			{"recipe", 0, 100}, {"recipe", 0, 100}, {"sycbuild", 0, 100}, {"tool", 10, 50}, {"tool", 10, 50}, {"tool", 10, 50},
		}, jobPeak{5, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := peakJobs(tc.spans); got != tc.want {
				t.Errorf("peakJobs = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestReadJobLog(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte("start recipe 7 100\nstart tool 8 150\nend tool 8 160\nend recipe 7 200\n"), 0o644)
	spans, err := readJobLog(good)
	if err != nil {
		t.Fatal(err)
	}
	want := []jobSpan{{"tool", 150, 160}, {"recipe", 100, 200}}
	if fmt.Sprint(spans) != fmt.Sprint(want) {
		t.Errorf("spans = %v, want %v", spans, want)
	}
	for name, text := range map[string]string{
		"unended":  "start recipe 7 100\n",
		"unstated": "end tool 8 160\n",
		"short":    "start recipe 7\n",
		"bad time": "start recipe 7 x\n",
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
		os.WriteFile(p, []byte(text), 0o644)
		if _, err := readJobLog(p); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// recipeShell is make's SHELL for the job-count test: it logs each recipe
// line as a job and runs it with /bin/sh. Plain recipes (the host compiles)
// are stretched a little, so that they overlap sycbuild's own jobs.
const recipeShell = `#!/bin/sh
case "$2" in *sycbuild*) kind=sycbuild ;; *) kind=recipe ;; esac
echo "start $kind $$ $(date +%s%N)" >> "$JOBLOG"
[ "$kind" = recipe ] && sleep 0.3
/bin/sh "$@"
rc=$?
echo "end $kind $$ $(date +%s%N)" >> "$JOBLOG"
exit $rc
`

// toolWrapper is what the config's tools: entries name in the job-count
// test: it logs the run as a job and runs the real tool (%s, quoted), stretched a
// little so that sycbuild's jobs overlap. A tool reading a pipe (llvm-spirv
// reading what llvm-as writes) is logged as "piped": it is part of the job
// of the tool writing into the pipe, as a make recipe "a | b" is one job.
const toolWrapper = `#!/bin/sh
kind=tool
[ -p /dev/stdin ] && kind=piped
echo "start $kind $$ $(date +%%s%%N)" >> "$JOBLOG"
case "$1" in --version) ;; *) sleep 0.2 ;; esac
%s "$@"
rc=$?
echo "end $kind $$ $(date +%%s%%N)" >> "$JOBLOG"
exit $rc
`

// writeJobScripts writes the recipe shell and one tool wrapper per tool
// (name → real path) into dir/jobwrap and returns the shell's path.
func writeJobScripts(t *testing.T, dir string, tools map[string]string) string {
	t.Helper()
	wrap := filepath.Join(dir, "jobwrap")
	if err := os.MkdirAll(wrap, 0o755); err != nil {
		t.Fatal(err)
	}
	shell := filepath.Join(wrap, "shell")
	if err := os.WriteFile(shell, []byte(recipeShell), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, real := range tools {
		if err := os.WriteFile(filepath.Join(wrap, name), []byte(fmt.Sprintf(toolWrapper, graph.ShellQuote([]string{real}))), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return shell
}
