package conformance

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestRunner runs small lit tests through Env.Run, with a fake tool in the
// links directory and the real FileCheck.
func TestRunner(t *testing.T) {
	fc := testenv.Tool(t, "FileCheck-19")
	testenv.Tool(t, "bash")
	root := t.TempDir()
	links := filepath.Join(root, "links")
	os.MkdirAll(links, 0o755)
	if err := os.WriteFile(filepath.Join(links, "fake-tool"), []byte("#!/bin/sh\necho \"hello from $1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "intel-llvm")
	cases := []struct {
		file, text string
		c          Case
		ci         bool
		outcome    Outcome
		reason     string
	}{
		{"pass.ll", "; RUN: fake-tool %s > %t.out\n; RUN: FileCheck %s < %t.out\n; CHECK: hello from {{.*}}pass.ll\n", Case{}, false, Pass, ""},
		{"check-fails.ll", "; RUN: fake-tool x | FileCheck %s\n; CHECK: goodbye\n", Case{}, false, Fail, "RUN line 1 failed (exit status 1): fake-tool x | FileCheck " + filepath.Join(dir, "check-fails.ll")},
		{"fail-line.test", "RUN: true\n\nRUN: false\nRUN: true\n", Case{}, false, Fail, "RUN line 3 failed (exit status 1): false"},
		{"not.test", "RUN: not false\nRUN: not not true\nRUN: not sh -c 'kill -9 $$' || true\nRUN: not --crash sh -c 'kill -9 $$'\n", Case{}, false, Pass, ""},
		{"not-fails.test", "RUN: not true\n", Case{}, false, Fail, "RUN line 1 failed (exit status 1): not true"},
		{"count.test", "RUN: printf 'a\\nb\\n' | count 2\nRUN: not count 3 < /dev/null\n", Case{}, false, Pass, ""},
		{"pipefail.test", "RUN: false | true\n", Case{}, false, Fail, "RUN line 1 failed (exit status 1): false | true"},
		{"dirs.test", "RUN: echo x > f.txt && test -f %T/../f.txt && test -d %T && test -d \"$TMPDIR\"\nRUN: cd %T && touch here\nRUN: test -f here\n", Case{}, false, Pass, ""},
		{"continued.test", "RUN: test \\\nRUN:   a = a\n", Case{}, false, Pass, ""},
		{"win.ll", "; REQUIRES: system-windows\n; RUN: false\n", Case{}, false, Skip, "REQUIRES: system-windows (not available here)"},
		{"unsup.ll", "; UNSUPPORTED: system-linux\n; RUN: false\n", Case{}, false, Skip, "UNSUPPORTED: system-linux"},
		{"xfail.ll", "; XFAIL: *\n; RUN: false\n", Case{}, false, Pass, "failed as expected (XFAIL)"},
		{"xpass.ll", "; XFAIL: system-linux\n; RUN: true\n", Case{}, false, Fail, "XPASS: the test passed but is marked XFAIL"},
		{"needs.ll", "; RUN: true\n", Case{Needs: []string{"no-such-tool-here"}}, false, Skip, "needs no-such-tool-here, which is not installed"},
		{"needs-ci.ll", "; RUN: true\n", Case{Needs: []string{"no-such-tool-here"}}, true, Fail, "needs no-such-tool-here, which is not installed (scripts/install-toolchain.sh installs it)"},
		{"adapted.ll", "; RUN: true\n; RUN: unreplaced-tool %s\n", Case{Adapts: []Adapt{SkipRun("unreplaced-tool", "not ours")}}, false, Pass, ""},
		{"alias.ll", "; RUN: my-echo hi | FileCheck %s\n; CHECK: hi\n", Case{Aliases: map[string]string{"my-echo": "echo"}}, false, Pass, ""},
		{"no-runs.ll", "; CHECK: x\n", Case{}, false, Fail, "the test has no RUN lines"},
		{"", "", Case{File: "missing.ll"}, false, Fail, "registered, but there is no such test file"},
		{"skipped.ll", "; RUN: false\n", Case{Skip: "a reason"}, false, Skip, "a reason"},
		{"missing.test", "RUN: false\n", Case{Missing: "no lowering"}, false, Missing, "no lowering"},
		{"missing-passes.test", "RUN: true\n", Case{Missing: "no lowering"}, false, Fail, "passes, but is marked as missing behaviour (no lowering): drop the mark"},
		{"if.test", "RUN: %if asserts %{ false %}\nRUN: %if shell %{ true %} %else %{ false %}\n", Case{}, false, Pass, ""},
	}
	for _, c := range cases {
		if c.file != "" {
			os.MkdirAll(dir, 0o755)
			if err := os.WriteFile(filepath.Join(dir, c.file), []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			c.c.File = c.file
		}
		env := &Env{Dir: dir, Links: links, FileCheck: fc, InCI: c.ci}
		r := env.Run(context.Background(), c.c, t.TempDir())
		if r.Outcome != c.outcome || r.Reason != c.reason {
			t.Errorf("%s: got %s %q, want %s %q\n%s", c.c.File, r.Outcome, r.Reason, c.outcome, c.reason, r.Log)
		}
	}
}
