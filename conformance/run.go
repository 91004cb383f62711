package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
)

// Outcome is how a test ended.
type Outcome int

const (
	Pass Outcome = iota
	Fail
	Skip
	// Missing is a test of behaviour sycbuild does not have yet (the case's
	// Missing says which): it ran and failed, as expected.
	Missing
)

func (o Outcome) String() string { return [...]string{"PASS", "FAIL", "SKIP", "MISSING"}[o] }

// Result is one test's outcome, reason and notes (adaptations applied).
type Result struct {
	File    string
	Outcome Outcome
	Reason  string
	Notes   []string
	Log     string // on failure: the end of the test's output
}

// Line is the report line: "PASS file", "FAIL file: reason", "SKIP file:
// reason", "MISSING file: reason".
func (r Result) Line() string {
	if r.Reason == "" {
		return r.Outcome.String() + " " + r.File
	}
	return r.Outcome.String() + " " + r.File + ": " + r.Reason
}

// Env is where and with what the tests run.
type Env struct {
	Dir       string        // the conformance directory (intel-llvm)
	Links     string        // directory of links named like the DPC++ tools, to sycbuild; first on PATH
	FileCheck string        // the real FileCheck (FileCheck-19)
	InCI      bool          // a missing tool fails instead of skipping
	Timeout   time.Duration // per test; 0 means 5 minutes
}

// Run runs the test c describes in the empty directory work.
func (e *Env) Run(ctx context.Context, c Case, work string) Result {
	res := Result{File: c.File}
	fail := func(format string, a ...any) Result {
		res.Outcome, res.Reason = Fail, fmt.Sprintf(format, a...)
		return res
	}
	skip := func(format string, a ...any) Result {
		res.Outcome, res.Reason = Skip, fmt.Sprintf(format, a...)
		return res
	}
	if c.Skip != "" {
		return skip("%s", c.Skip)
	}
	src := filepath.Join(e.Dir, filepath.FromSlash(c.File))
	script, err := readScript(src, c.File)
	if errors.Is(err, os.ErrNotExist) {
		return fail("registered, but there is no such test file")
	}
	if err != nil {
		return fail("%v", err)
	}

	have := features()
	for _, ex := range script.Unsupported {
		v, err := EvalFeatures(ex, have)
		if err != nil {
			return fail("UNSUPPORTED: %v", err)
		}
		if v {
			return skip("UNSUPPORTED: %s", ex)
		}
	}
	for _, ex := range script.Requires {
		v, err := EvalFeatures(ex, have)
		if err != nil {
			return fail("REQUIRES: %v", err)
		}
		if !v {
			return skip("REQUIRES: %s (not available here)", ex)
		}
	}
	xfail := false
	for _, ex := range script.XFail {
		v, err := EvalFeatures(ex, have)
		if ex == "*" {
			v, err = true, nil
		}
		if err != nil {
			return fail("XFAIL: %v", err)
		}
		xfail = xfail || v
	}
	missing := func(tool string) Result {
		if e.InCI {
			return fail("needs %s, which is not installed (scripts/install-toolchain.sh installs it)", tool)
		}
		return skip("needs %s, which is not installed", tool)
	}
	for _, n := range c.Needs {
		if _, err := exec.LookPath(n); err != nil {
			return missing(n)
		}
	}
	if len(script.Runs) == 0 {
		return fail("the test has no RUN lines")
	}
	runs, err := applyAdapts(script.Runs, c.Adapts)
	if err != nil {
		return fail("%v", err)
	}
	for _, a := range c.Adapts {
		res.Notes = append(res.Notes, a.String())
	}
	if len(runs) == 0 {
		return skip("every RUN line was skipped")
	}

	execDir, bin, tmp := filepath.Join(work, "exec"), filepath.Join(work, "bin"), filepath.Join(work, "tmp")
	for _, d := range []string{filepath.Join(execDir, "Output"), bin, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fail("%v", err)
		}
	}
	aliases := map[string]string{"FileCheck": e.FileCheck}
	for name, tool := range c.Aliases {
		p, err := exec.LookPath(tool)
		if err != nil {
			return missing(tool)
		}
		aliases[name] = p
	}
	if err := writeHelpers(bin, aliases); err != nil {
		return fail("%v", err)
	}
	paths := Paths{Source: src, Tmp: filepath.Join(execDir, "Output", filepath.Base(src)+".tmp")}
	cmds := make([]string, len(runs))
	for i, r := range runs {
		text, err := ExpandIf(r.Text, have)
		if err != nil {
			return fail("RUN line %d: %v", r.Line, err)
		}
		cmds[i] = Substitute(text, paths, substitutions())
	}
	statusFile := filepath.Join(work, "status")
	scriptFile := filepath.Join(bin, "lit-script.sh")
	if err := os.WriteFile(scriptFile, []byte(shellScript(cmds, statusFile)), 0o644); err != nil {
		return fail("%v", err)
	}

	timeout := e.Timeout
	if timeout == 0 {
		timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var out bytes.Buffer
	// Its own process group, killed whole at the timeout (jobs).
	cmd := &jobs.Command{Argv: []string{"bash", scriptFile}, Dir: execDir, Stdout: &out, Stderr: &out,
		Env: append(os.Environ(),
			"PATH="+e.Links+string(os.PathListSeparator)+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"TMPDIR="+tmp)}
	_, runErr := cmd.Run(ctx)

	if c.Missing != "" {
		if runErr == nil {
			return fail("passes, but is marked as missing behaviour (%s): drop the mark", c.Missing)
		}
		if ctx.Err() == nil {
			res.Outcome, res.Reason = Missing, c.Missing
			return res
		}
	}
	if runErr == nil {
		if xfail {
			return fail("XPASS: the test passed but is marked XFAIL")
		}
		res.Outcome = Pass
		return res
	}
	if xfail {
		res.Outcome, res.Reason = Pass, "failed as expected (XFAIL)"
		return res
	}
	res.Log = tail(out.String(), 6000)
	if ctx.Err() != nil {
		return fail("timed out after %v", timeout)
	}
	i := lastStarted(statusFile) - 1
	if i < 0 || i >= len(runs) {
		return fail("the script failed before any RUN line: %v", runErr)
	}
	where := "added RUN line"
	if runs[i].Line > 0 {
		where = fmt.Sprintf("RUN line %d", runs[i].Line)
	}
	return fail("%s failed (%v): %s", where, runErr, cmds[i])
}

// features are the lit features available: system-<os>, shell, and those
// the cases files added.
func features() map[string]bool {
	regMu.Lock()
	defer regMu.Unlock()
	have := map[string]bool{"system-" + runtime.GOOS: true, "shell": true}
	for f := range extraFeatures {
		have[f] = true
	}
	return have
}

func substitutions() map[string]string {
	regMu.Lock()
	defer regMu.Unlock()
	out := make(map[string]string, len(extraSubs))
	for k, v := range extraSubs {
		out[k] = v
	}
	return out
}

// shellScript is the test as one bash script, run like lit's external
// shell: the commands chained with &&, with pipefail. Before each command
// the script records its number, and an EXIT trap writes the last number
// to statusFile, so a failure can be traced to its RUN line.
func shellScript(cmds []string, statusFile string) string {
	var b strings.Builder
	b.WriteString("set -o pipefail\n__lit_run=0\n")
	fmt.Fprintf(&b, "trap 'echo \"$__lit_run\" > %s' EXIT\n", shellQuote(statusFile))
	for i, c := range cmds {
		if i > 0 {
			b.WriteString(" && ")
		}
		fmt.Fprintf(&b, "{ __lit_run=%d; %s\n}", i+1, c)
	}
	b.WriteString("\n")
	return b.String()
}

func lastStarted(statusFile string) int {
	b, err := os.ReadFile(statusFile)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return "…\n" + s
}

// notScript is LLVM's `not`: it succeeds when the command fails, and with
// --crash when the command is killed by a signal.
const notScript = `#!/bin/sh
# not [--crash] command...: invert the command's success, as LLVM's not does.
crash=0
if [ "$1" = "--crash" ]; then crash=1; shift; fi
if ! command -v "$1" >/dev/null 2>&1; then
  echo "not: program not found: $1" >&2
  exit 1
fi
"$@"
rc=$?
if [ $crash = 1 ]; then
  [ $rc -gt 128 ] && exit 0
  exit 1
fi
[ $rc -gt 128 ] && exit 1   # a crash is not an expected failure
[ $rc -eq 0 ] && exit 1
exit 0
`

// countScript is LLVM's `count N`: it succeeds when standard input has N
// lines.
const countScript = `#!/bin/sh
# count N: succeed when standard input has exactly N lines, as LLVM's count does.
n=$(awk 'END { print NR }')
if [ "$n" = "$1" ]; then exit 0; fi
echo "Expected $1 lines, got $n." >&2
exit 1
`

// writeHelpers puts not, count and the aliases into bin.
func writeHelpers(bin string, aliases map[string]string) error {
	for name, text := range map[string]string{"not": notScript, "count": countScript} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			return err
		}
	}
	for name, target := range aliases {
		if err := os.Symlink(target, filepath.Join(bin, name)); err != nil {
			return err
		}
	}
	return nil
}
