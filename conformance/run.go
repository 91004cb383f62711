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
	if c.Skip != "" {
		return skipped("%s", c.Skip).end(res)
	}
	src := filepath.Join(e.Dir, filepath.FromSlash(c.File))
	script, err := readScript(src, c.File)
	if errors.Is(err, os.ErrNotExist) {
		return failed("registered, but there is no such test file").end(res)
	}
	if err != nil {
		return failed("%v", err).end(res)
	}

	have := features()
	xfail, st := checkFeatures(script, have)
	if st != nil {
		return st.end(res)
	}
	for _, n := range c.Needs {
		if _, err := exec.LookPath(n); err != nil {
			return e.missing(n).end(res)
		}
	}
	if len(script.Runs) == 0 {
		return failed("the test has no RUN lines").end(res)
	}
	runs, err := applyAdapts(script.Runs, c.Adapts)
	if err != nil {
		return failed("%v", err).end(res)
	}
	for _, a := range c.Adapts {
		res.Notes = append(res.Notes, a.String())
	}
	if len(runs) == 0 {
		return skipped("every RUN line was skipped").end(res)
	}

	lr, st := e.prepare(c, work, src, runs, have)
	if st != nil {
		return st.end(res)
	}
	timeout := e.Timeout
	if timeout == 0 {
		timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, runErr := e.execute(ctx, lr)
	return lr.judge(ctx, c, res, xfail, out, runErr, timeout)
}

// stop is how a test ended before or instead of passing: its outcome and reason.
type stop struct {
	outcome Outcome
	reason  string
}

// failed is a Fail stop with a formatted reason.
func failed(format string, a ...any) *stop {
	return &stop{Fail, fmt.Sprintf(format, a...)}
}

// skipped is a Skip stop with a formatted reason.
func skipped(format string, a ...any) *stop {
	return &stop{Skip, fmt.Sprintf(format, a...)}
}

// end is res ended by s.
func (s *stop) end(res Result) Result {
	res.Outcome, res.Reason = s.outcome, s.reason
	return res
}

// missing is the stop for a tool the test needs that is not installed: a
// failure in CI, a skip elsewhere.
func (e *Env) missing(tool string) *stop {
	if e.InCI {
		return failed("needs %s, which is not installed (scripts/install-toolchain.sh installs it)", tool)
	}
	return skipped("needs %s, which is not installed", tool)
}

// checkFeatures evaluates the script's UNSUPPORTED, REQUIRES and XFAIL lines
// against the features have: whether the test is expected to fail, or why it
// does not run.
func checkFeatures(script *Script, have map[string]bool) (xfail bool, st *stop) {
	for _, ex := range script.Unsupported {
		v, err := EvalFeatures(ex, have)
		if err != nil {
			return false, failed("UNSUPPORTED: %v", err)
		}
		if v {
			return false, skipped("UNSUPPORTED: %s", ex)
		}
	}
	for _, ex := range script.Requires {
		v, err := EvalFeatures(ex, have)
		if err != nil {
			return false, failed("REQUIRES: %v", err)
		}
		if !v {
			return false, skipped("REQUIRES: %s (not available here)", ex)
		}
	}
	for _, ex := range script.XFail {
		v, err := EvalFeatures(ex, have)
		if ex == "*" {
			v, err = true, nil
		}
		if err != nil {
			return false, failed("XFAIL: %v", err)
		}
		xfail = xfail || v
	}
	return xfail, nil
}

// litRun is a test's shell script written out, ready to run.
type litRun struct {
	runs       []RunLine
	cmds       []string // the RUN lines' commands, substituted
	execDir    string   // the script's working directory
	bin        string   // the helpers and the script; on PATH
	tmp        string   // TMPDIR
	statusFile string   // where the script records the RUN line it started
	scriptFile string
}

// prepare makes the test's directories under work, writes the tool helpers
// and writes the script of runs, expanded and substituted.
func (e *Env) prepare(c Case, work, src string, runs []RunLine, have map[string]bool) (*litRun, *stop) {
	lr := &litRun{runs: runs, execDir: filepath.Join(work, "exec"), bin: filepath.Join(work, "bin"), tmp: filepath.Join(work, "tmp")}
	for _, d := range []string{filepath.Join(lr.execDir, "Output"), lr.bin, lr.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, failed("%v", err)
		}
	}
	aliases := map[string]string{"FileCheck": e.FileCheck}
	for name, tool := range c.Aliases {
		p, err := exec.LookPath(tool)
		if err != nil {
			return nil, e.missing(tool)
		}
		aliases[name] = p
	}
	if err := writeHelpers(lr.bin, aliases); err != nil {
		return nil, failed("%v", err)
	}
	paths := Paths{Source: src, Tmp: filepath.Join(lr.execDir, "Output", filepath.Base(src)+".tmp")}
	lr.cmds = make([]string, len(runs))
	for i, r := range runs {
		text, err := ExpandIf(r.Text, have)
		if err != nil {
			return nil, failed("RUN line %d: %v", r.Line, err)
		}
		lr.cmds[i] = Substitute(text, paths, substitutions())
	}
	lr.statusFile = filepath.Join(work, "status")
	lr.scriptFile = filepath.Join(lr.bin, "lit-script.sh")
	if err := os.WriteFile(lr.scriptFile, []byte(shellScript(lr.cmds, lr.statusFile)), 0o644); err != nil {
		return nil, failed("%v", err)
	}
	return lr, nil
}

// execute runs lr's script with the tool links and helpers first on PATH:
// its output and how it exited.
func (e *Env) execute(ctx context.Context, lr *litRun) (string, error) {
	var out bytes.Buffer
	// Its own process group, killed whole at the timeout (jobs).
	cmd := &jobs.Command{Argv: []string{"bash", lr.scriptFile}, Dir: lr.execDir, Stdout: &out, Stderr: &out,
		Env: append(os.Environ(),
			"PATH="+e.Links+string(os.PathListSeparator)+lr.bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"TMPDIR="+lr.tmp)}
	_, runErr := cmd.Run(ctx)
	return out.String(), runErr
}

// judge is the test's result from how its script ended (runErr, with output
// out, under ctx), given the case's missing mark and whether it is expected to
// fail.
func (lr *litRun) judge(ctx context.Context, c Case, res Result, xfail bool, out string, runErr error, timeout time.Duration) Result {
	if c.Missing != "" {
		if runErr == nil {
			return failed("passes, but is marked as missing behaviour (%s): drop the mark", c.Missing).end(res)
		}
		if ctx.Err() == nil {
			res.Outcome, res.Reason = Missing, c.Missing
			return res
		}
	}
	if runErr == nil {
		if xfail {
			return failed("XPASS: the test passed but is marked XFAIL").end(res)
		}
		res.Outcome = Pass
		return res
	}
	if xfail {
		res.Outcome, res.Reason = Pass, "failed as expected (XFAIL)"
		return res
	}
	res.Log = tail(out, 6000)
	if ctx.Err() != nil {
		return failed("timed out after %v", timeout).end(res)
	}
	i := lastStarted(lr.statusFile) - 1
	if i < 0 || i >= len(lr.runs) {
		return failed("the script failed before any RUN line: %v", runErr).end(res)
	}
	where := "added RUN line"
	if lr.runs[i].Line > 0 {
		where = fmt.Sprintf("RUN line %d", lr.runs[i].Line)
	}
	return failed("%s failed (%v): %s", where, runErr, lr.cmds[i]).end(res)
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
