package syclpostlink

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/postlink"
)

func TestOptions(t *testing.T) {
	cases := []struct {
		args  []string
		check func(o postlink.Options) bool
	}{
		{[]string{"-split=kernel", "in.ll"}, func(o postlink.Options) bool {
			return o.SplitGiven && o.Split == postlink.SplitKernel && o.Input == "in.ll"
		}},
		{[]string{"-split=none"}, func(o postlink.Options) bool { return o.SplitGiven && o.Split == postlink.SplitNone && o.Input == "-" }},
		{[]string{"-spec-const=rt"}, func(o postlink.Options) bool { return o.SpecConst == postlink.SpecConstNative }},
		{[]string{"-spec-const=default"}, func(o postlink.Options) bool { return o.SpecConst == postlink.SpecConstEmulation }},
		{[]string{"-symbols"}, func(o postlink.Options) bool { return o.SpecConst == postlink.SpecConstOff && !o.SplitGiven }},
		{[]string{"-support-dynamic-linking"}, func(o postlink.Options) bool { return o.AllowDeps }},
		{[]string{"-allow-device-image-dependencies"}, func(o postlink.Options) bool { return o.AllowDeps }},
		{[]string{"-o", "a.table", "-o", "intel_gpu_pvc,b.table"}, func(o postlink.Options) bool {
			return len(o.Outputs) == 2 && o.Outputs[0] == postlink.Output{File: "a.table"} &&
				o.Outputs[1] == postlink.Output{Target: "intel_gpu_pvc", File: "b.table"}
		}},
		{[]string{"-lower-esimd"}, func(o postlink.Options) bool { return o.LowerESIMD && !o.SplitESIMD }},
		{[]string{"-O0"}, func(o postlink.Options) bool { return o.OptLevel == 0 }},
		{[]string{"-Os", "-O1"}, func(o postlink.Options) bool { return o.OptLevel == 2 }},
		{[]string{"-O3", "-O0"}, func(o postlink.Options) bool { return o.OptLevel == 3 }},
		{nil, func(o postlink.Options) bool { return o.OptLevel == 2 }},
		{[]string{"--out-dir=d", "-S", "-f", "-ir-output-only", "-emit-only-kernels-as-entry-points"}, func(o postlink.Options) bool {
			return o.OutDir == "d" && o.Assembly && o.Force && o.IROutputOnly && o.EmitOnlyKernelsAsEPs
		}},
	}
	for _, c := range cases {
		f := newFlags("sycl-post-link")
		if err := f.set.Parse(c.args, nil); err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if o := f.options(); !c.check(o) {
			t.Errorf("%q: options %+v", c.args, o)
		}
	}
}

func TestMainMessages(t *testing.T) {
	cases := []struct {
		args []string
		code int
		err  string
	}{
		{nil, 1, "no actions specified; try --help for usage info\n"},
		{[]string{"-split=bogus"}, 1, "sycl-post-link: for the --split option: Cannot find option named 'bogus'!\n"},
		{[]string{"-ir-output-only", "-split=source"}, 1, "error: -split=source can't be used with -ir-output-only\n"},
		{[]string{"-split=auto", "a.ll", "b.ll"}, 1, "sycl-post-link: Too many positional arguments specified!"},
		{[]string{"-symbols", "does-not-exist.ll"}, 1, "sycl-post-link: does-not-exist.ll: error: Could not open input file: no such file or directory\n"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := Main("sycl-post-link", c.args, stdio(&out, &errb))
		if code != c.code || !strings.HasPrefix(errb.String(), c.err) {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q", c.args, code, errb.String(), c.code, c.err)
		}
	}
	var out, errb bytes.Buffer
	if code := Main("sycl-post-link", []string{"--help"}, stdio(&out, &errb)); code != 0 ||
		!strings.Contains(out.String(), "OVERVIEW: SYCL post-link device code processing tool.") ||
		!strings.Contains(out.String(), "USAGE: sycl-post-link [options] <input bitcode file>") {
		t.Errorf("--help: exit %d\n%s", code, out.String())
	}
}

func stdio(out, err *bytes.Buffer) clopt.Stdio {
	return clopt.Stdio{In: strings.NewReader(""), Out: out, Err: err}
}
