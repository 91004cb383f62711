package configs

import (
	"reflect"
	"testing"
)

func TestOverride(t *testing.T) {
	const base = "inputs: [a.ll, b.ll]\nsplit: per_kernel\ntargets:\n  - kind: llvm_ir\n  - kind: spir64\n  - {kind: spir64, name: spv13}\n"
	const withOutput = "inputs: [a.ll]\noutput: obj/dev.o\ntargets: [{kind: llvm_ir}]\n"
	type want struct {
		inputs           []string
		output, buildDir string
		split            Split
		targets          []string
	}
	tests := []struct {
		name string
		src  string
		o    Overrides
		want want
	}{
		{"nothing", base, Overrides{},
			want{[]string{"a.ll", "b.ll"}, "out/device_images.o", "out", SplitPerKernel, []string{"llvm_ir", "spir64", "spv13"}}},
		{"inputs and output", base, Overrides{Inputs: []string{"./x.ll", "../y/z.bc"}, Output: "../bin//dev.o"},
			want{[]string{"x.ll", "../y/z.bc"}, "../bin/dev.o", "out", SplitPerKernel, []string{"llvm_ir", "spir64", "spv13"}}},
		{"build dir moves the default output", base, Overrides{BuildDir: "../gen/dev"},
			want{[]string{"a.ll", "b.ll"}, "../gen/dev/device_images.o", "../gen/dev", SplitPerKernel, []string{"llvm_ir", "spir64", "spv13"}}},
		{"build dir keeps a configured output", withOutput, Overrides{BuildDir: "tmp"},
			want{[]string{"a.ll"}, "obj/dev.o", "tmp", SplitAuto, []string{"llvm_ir"}}},
		{"split and targets in the config's order", base, Overrides{Split: SplitOff, Targets: []string{"spv13", "llvm_ir"}},
			want{[]string{"a.ll", "b.ll"}, "out/device_images.o", "out", SplitOff, []string{"llvm_ir", "spv13"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("targets.yaml", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Override(tc.o); err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tg := range c.Targets {
				names = append(names, tg.Name)
			}
			got := want{c.Inputs, c.Output, c.BuildDir, c.Split, names}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestOverrideErrors(t *testing.T) {
	const base = "inputs: [a.ll]\ntargets:\n  - kind: llvm_ir\n  - kind: spir64\n"
	tests := []struct {
		name string
		o    Overrides
		want string
	}{
		{"not IR", Overrides{Inputs: []string{"a.o"}}, `command line: input "a.o" is not LLVM IR (expected a .ll or .bc file)`},
		{"twice", Overrides{Inputs: []string{"a.ll", "./a.ll"}}, `command line: input "a.ll" is given twice`},
		{"output is input", Overrides{Inputs: []string{"x.ll"}, Output: "x.ll"}, `command line: the output "x.ll" is also an input`},
		{"as given", Overrides{Inputs: []string{"../a.o"}, Given: map[string]string{"../a.o": "a.o"}}, `command line: input "a.o" is not LLVM IR (expected a .ll or .bc file)`},
		{"split", Overrides{Split: "per-kernel"}, `command line: unknown split mode "per-kernel" (want off, per_source, per_kernel or auto; did you mean "per_kernel"?)`},
		{"target", Overrides{Targets: []string{"spir46"}}, `command line: targets.yaml names no target "spir46" (its targets: llvm_ir, spir64); did you mean "spir64"?`},
		{"newline in output", Overrides{Output: "a\nb.o"}, `command line: -o "a\nb.o" contains the control character '\n', which no file list or table can hold`},
		{"bar in build dir", Overrides{BuildDir: "b|d"}, `command line: -build-dir "b|d" contains '|', which separates the cells of a file table`},
		{"newline in input", Overrides{Inputs: []string{"a\n.ll"}}, `command line: input "a\n.ll" contains the control character '\n', which no file list or table can hold`},
		{"all at once", Overrides{Inputs: []string{"a.o"}, Split: "x"},
			"command line: input \"a.o\" is not LLVM IR (expected a .ll or .bc file)\ncommand line: unknown split mode \"x\" (want off, per_source, per_kernel or auto)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("targets.yaml", []byte(base))
			if err != nil {
				t.Fatal(err)
			}
			err = c.Override(tc.o)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v\nwant %s", err, tc.want)
			}
		})
	}
}
