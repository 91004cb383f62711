package syclpostlink

import (
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/postlink"
)

// TestArgsRoundTrip: Parse reads back what Args renders, for the options
// the build passes and for every option set at once.
func TestArgsRoundTrip(t *testing.T) {
	build := Defaults()
	build.DeviceGlobals, build.Properties, build.SpecConst = true, true, postlink.SpecConstNative
	build.Split, build.SplitGiven = postlink.SplitKernel, true
	build.EmitOnlyKernelsAsEPs, build.EmitParamInfo, build.Symbols = true, true, true
	build.EmitExportedSymbols, build.EmitImportedSymbols, build.SplitESIMD, build.Assembly = true, true, true, true
	build.Outputs, build.Input = []postlink.Output{{File: "out/spir64/module.table"}}, "device.ll"

	all := postlink.Options{
		Input:   "in.bc",
		Outputs: []postlink.Output{{File: "a.table"}, {Target: "intel_gpu_pvc", File: "b.table"}},
		OutDir:  "out dir", DeviceLibDir: "/opt/lib",
		Force: true, IROutputOnly: true, Assembly: true,
		Split: postlink.SplitNone, SplitGiven: true,
		SplitESIMD: true, LowerESIMD: true, OptLevel: 0,
		Symbols: true, Properties: true, SpecConst: postlink.SpecConstEmulation,
		EmitParamInfo: true, EmitProgramMetadata: true, EmitKernelNames: true,
		EmitExportedSymbols: true, EmitImportedSymbols: true, EmitOnlyKernelsAsEPs: true,
		DeviceGlobals: true, DefaultSpecConstImage: true, AllowDeps: true,
	}
	cases := map[string]postlink.Options{"defaults": Defaults(), "build": build, "all": all}
	for _, level := range []int{1, 3} {
		o := Defaults()
		o.OptLevel = level
		cases["O"+string(rune('0'+level))] = o
	}
	for _, split := range []postlink.SplitMode{postlink.SplitSource, postlink.SplitAuto} {
		o := build
		o.Split = split
		cases["split="+split.String()] = o
	}
	for name, o := range cases {
		args := Args(o)
		got, err := Parse("sycl-post-link", args, io.Discard)
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", name, args, err)
			continue
		}
		if !reflect.DeepEqual(got, o) {
			t.Errorf("%s: Parse(Args(o)) differs from o:\nargs %q\ngot  %+v\nwant %+v", name, args, got, o)
		}
	}
}

// TestArgsOfDriverLine: the DPC++ driver's command line (as the build
// passes it) renders back byte for byte; older spellings render as the
// current ones.
func TestArgsOfDriverLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"-device-globals -properties -spec-const=native -split=kernel -emit-only-kernels-as-entry-points -emit-param-info -symbols -emit-exported-symbols -emit-imported-symbols -split-esimd -S -o out/llvm_ir/module.table device.ll", ""},
		{"-device-globals -properties -spec-const=emulation -emit-only-kernels-as-entry-points -emit-param-info -symbols -emit-exported-symbols -emit-imported-symbols -split-esimd -S -O3 -emit-program-metadata -o out/t.table out/linked.ll", ""},
		{"-spec-const=rt -support-dynamic-linking -O2 -o x.table x.ll", "-spec-const=native -allow-device-image-dependencies -o x.table x.ll"},
		{"x.ll -o intel_gpu_pvc,p.table -o q.table", "-o intel_gpu_pvc,p.table -o q.table x.ll"},
	} {
		o, err := Parse("sycl-post-link", strings.Fields(c.in), io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		want := c.want
		if want == "" {
			want = c.in
		}
		if got := strings.Join(Args(o), " "); got != want {
			t.Errorf("Args(Parse(%q)):\ngot  %s\nwant %s", c.in, got, want)
		}
	}
}
