package conformance

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseScript(t *testing.T) {
	src := `; UNSUPPORTED: system-windows, foo
// REQUIRES: a && b
; RUN: echo one \
; RUN:   two   \
; RUN:   three
RUN: plain
-- text RUN: after a leader
; CHECK-RUN: not a run line
; CHECK: RUN:inside a check is not a directive, but this one is
// XFAIL: *
;RUN:tight
`
	s, err := ParseScript("t.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []RunLine{
		{3, "echo one    two      three"},
		{6, "plain"},
		{7, "after a leader"},
		{9, "inside a check is not a directive, but this one is"},
		{11, "tight"},
	}
	if !reflect.DeepEqual(s.Runs, want) {
		t.Errorf("runs:\n got %v\nwant %v", s.Runs, want)
	}
	if !reflect.DeepEqual(s.Unsupported, []string{"system-windows", "foo"}) || !reflect.DeepEqual(s.Requires, []string{"a && b"}) || !reflect.DeepEqual(s.XFail, []string{"*"}) {
		t.Errorf("directives: %q %q %q", s.Unsupported, s.Requires, s.XFail)
	}
}

func TestParseScriptErrors(t *testing.T) {
	for src, want := range map[string]string{
		"; RUN: a \\\n; CHECK: b\n": "t:2: a RUN line ends in '\\' but the next line is not a RUN line",
		"; RUN: a \\\n":             "t:1: the last RUN line ends in '\\'",
	} {
		if _, err := ParseScript("t", []byte(src)); err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %q", src, err, want)
		}
	}
}

func TestSubstitute(t *testing.T) {
	p := Paths{Source: "/c/tools/x.ll", Tmp: "/w/exec/Output/x.ll.tmp"}
	cases := map[string]string{
		"tool %s -o %t.out":              "tool /c/tools/x.ll -o /w/exec/Output/x.ll.tmp.out",
		"cp %S/Inputs/a.txt %/S/b %p/c":  "cp /c/tools/Inputs/a.txt /c/tools/b /c/tools/c",
		"ls %T %/T %/t1 %t2.tgt":         "ls /w/exec/Output /w/exec/Output /w/exec/Output/x.ll.tmp1 /w/exec/Output/x.ll.tmp2.tgt",
		"echo 100%% %q %{pathsep} %/s":   "echo 100% %q : /c/tools/x.ll",
		"%clang -c %s && %clangxx":       "clang-19 -c /c/tools/x.ll && clang++-19",
		"printf '%%d' 3 %clang_cc1 %cla": "printf '%d' 3 clang-19_cc1 %cla",
	}
	extra := map[string]string{"%clang": "clang-19", "%clangxx": "clang++-19"}
	for in, want := range cases {
		if got := Substitute(in, p, extra); got != want {
			t.Errorf("%q:\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestEvalFeatures(t *testing.T) {
	have := map[string]bool{"system-linux": true, "shell": true, "x86_64-linux": true}
	cases := []struct {
		expr string
		want bool
		err  bool
	}{
		{"system-linux", true, false},
		{"system-windows", false, false},
		{"!system-windows", true, false},
		{"zstd && (system-windows || system-linux)", false, false},
		{"shell && (system-windows || system-linux)", true, false},
		{"system-windows || shell && !x86_64-linux", false, false},
		{"true", true, false},
		{"!(a || b) && !!shell", true, false},
		{"(shell", false, true},
		{"shell &&", false, true},
		{"shell shell", false, true},
		{"{{.*}}", false, true},
	}
	for _, c := range cases {
		got, err := EvalFeatures(c.expr, have)
		if (err != nil) != c.err || (!c.err && got != c.want) {
			t.Errorf("%q: got %v, %v; want %v (error %v)", c.expr, got, err, c.want, c.err)
		}
	}
}

func TestApplyAdapts(t *testing.T) {
	runs := []RunLine{{1, "sycl-post-link -split=auto %s -o %t.table"}, {2, "sycl-module-split %s"}, {3, "FileCheck %s < %t.table"}}
	got, err := applyAdapts(runs, []Adapt{
		SkipRun("sycl-module-split", "not replaced"),
		RewriteRun("sycl-post-link", "-split=auto", "-split=kernel", "newer default"),
		ReplaceRun("FileCheck", "FileCheck %s --check-prefix=X < %t.table", "different check"),
		AddRun("true", "one more"),
	})
	want := []RunLine{{1, "sycl-post-link -split=kernel %s -o %t.table"}, {3, "FileCheck %s --check-prefix=X < %t.table"}, {0, "true"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %v %v, want %v", got, err, want)
	}
	for _, a := range []Adapt{SkipRun("llvm-split", "r"), RewriteRun("FileCheck", "--nope", "x", "r"), ReplaceRun("opt", "x", "r")} {
		if _, err := applyAdapts(runs, []Adapt{a}); err == nil || !strings.HasPrefix(err.Error(), "adaptation matches no RUN line: ") {
			t.Errorf("%s: got %v", a, err)
		}
	}
}

func TestPlanReportsUncoveredFiles(t *testing.T) {
	got := plan([]string{"file-table-tform/file-table-tform.test", "zz-tool/new.test"}, "")
	var uncovered []string
	for _, c := range got {
		if c.Skip == "not yet covered" {
			uncovered = append(uncovered, c.File)
		}
	}
	if !reflect.DeepEqual(uncovered, []string{"zz-tool/new.test"}) {
		t.Errorf("uncovered: %q", uncovered)
	}
	for i := 1; i < len(got); i++ {
		if got[i-1].File >= got[i].File {
			t.Errorf("not sorted: %s before %s", got[i-1].File, got[i].File)
		}
	}
	if only := plan([]string{"zz-tool/new.test"}, "merge"); len(only) != 1 || only[0].File != "file-table-tform/file-table-tform-merge.test" {
		t.Errorf("filter: %v", only)
	}
}

// TestPlanForOtherDir: for another folder, a file no case covers runs as
// it is, a registered case runs where the folder has its file, and the
// cases of files the folder lacks are left out.
func TestPlanForOtherDir(t *testing.T) {
	got := planFor([]string{"file-table-tform/file-table-tform.test", "zz-tool/new.test"}, "", true)
	if len(got) != 2 || got[0].File != "file-table-tform/file-table-tform.test" || got[1].File != "zz-tool/new.test" {
		t.Fatalf("planned %v", got)
	}
	if got[1].Skip != "" {
		t.Errorf("an uncovered file is skipped: %q", got[1].Skip)
	}
}

func TestWriteReport(t *testing.T) {
	var b strings.Builder
	writeReport(&b, []Result{
		{File: "a.test", Outcome: Pass, Notes: []string{"skipped RUN lines containing \"x\": why"}},
		{File: "b.test", Outcome: Fail, Reason: "RUN line 3 failed (exit status 1): false"},
		{File: "c.test", Outcome: Skip, Reason: "not yet covered"},
	})
	want := `conformance (intel/llvm lit tests, checked with FileCheck-19):
PASS a.test
    adapted: skipped RUN lines containing "x": why
FAIL b.test: RUN line 3 failed (exit status 1): false
SKIP c.test: not yet covered
1 passed, 1 failed, 1 skipped
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestExpandIf(t *testing.T) {
	have := map[string]bool{"shell": true}
	for _, c := range []struct{ in, want string }{
		{"%if asserts %{ tool -debug-only=X | FileCheck %s %}", ""},
		{"%if shell %{ a | b %}", "a | b"},
		{"x && %if asserts %{ a %} %else %{ b %} && y", "x && b && y"},
		{"%if shell %{ a %} %else %{ b %}", "a"},
		{"%if !asserts %{ a %{ nested %} %}", "a %{ nested %}"},
		{"no conditional", "no conditional"},
	} {
		got, err := ExpandIf(c.in, have)
		if err != nil || got != c.want {
			t.Errorf("ExpandIf(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"%if asserts a", "%if asserts %{ a", "%if ( %{ a %}", "%if x %{ a %} %else b"} {
		if _, err := ExpandIf(bad, have); err == nil {
			t.Errorf("ExpandIf(%q): no error", bad)
		}
	}
}
