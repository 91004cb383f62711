package pipeline_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWritesChecked: no path the build writes may be the config, an input,
// another written file, one of the build's own files or a directory; each
// is refused before anything runs, where it was given, and nothing is
// overwritten.
func TestWritesChecked(t *testing.T) {
	const cfg = "inputs: [vector_ops.ll]\ntargets:\n  - kind: llvm_ir\n"
	p := newProject(t, "p", cfg, "vector_ops.ll")
	os.MkdirAll(filepath.Join(p.dir, "outdir"), 0o755)
	tests := []struct {
		name, config string
		args         []string
		want         string
	}{
		{"-o config", cfg, []string{"-o", "targets.yaml"},
			"command line: -o: \"targets.yaml\" is the config file; it would be overwritten\n"},
		{"-o input", cfg, []string{"-o", "vector_ops.ll", "-M", "./vector_ops.ll"},
			"sycbuild: command line: the output \"vector_ops.ll\" is also an input\n"},
		{"-M input", cfg, []string{"-M", "./vector_ops.ll"},
			"command line: -M: \"./vector_ops.ll\" is an input (inputs[0]); it would be overwritten\n"},
		{"-o intermediate", cfg, []string{"-o", "out/llvm_ir/module.table"},
			"command line: -o: \"out/llvm_ir/module.table\" is inside the work directory of target llvm_ir; it would be overwritten\n"},
		{"-o state", cfg, []string{"-o", "out/.sycbuild/log"},
			"command line: -o: \"out/.sycbuild/log\" is inside the state directory of the build; it would be overwritten\n"},
		{"-o directory", cfg, []string{"-o", "outdir"},
			"command line: -o: \"outdir\" is a directory (name a file to write)\n"},
		{"-o build dir", cfg, []string{"-o", "out"},
			"command line: -o: \"out\" is the build directory; it would be overwritten\n"},
		{"-o newline", cfg, []string{"-o", "a\nb.o"},
			"sycbuild: command line: -o \"a\\nb.o\" contains the control character '\\n', which no file list or table can hold\n"},
		{"target ..", "inputs: [vector_ops.ll]\ntargets:\n  - {kind: llvm_ir, name: ..}\n", nil,
			"targets.yaml:3:27: targets[0].name: \"..\" is not a valid target name: it must name a directory of its own inside build_dir\n"},
		{"-M config", cfg, []string{"-M", "targets.yaml"},
			"command line: -M: \"targets.yaml\" is the config file; it would be overwritten\n"},
		{"-trace output", cfg, []string{"-trace", "out/device_images.o"},
			"command line: -trace: \"out/device_images.o\" is also written for the output object; it would be overwritten\n"},
		{"-M linked", cfg, []string{"-M", "out/linked.ll"},
			"command line: -M: \"out/linked.ll\" is the linked module the build writes; it would be overwritten\n"},
		{"output in config", "inputs: [vector_ops.ll]\noutput: targets.yaml\ntargets:\n  - kind: llvm_ir\n", nil,
			"targets.yaml:2:9: output: \"targets.yaml\" is the config file; it would be overwritten\n"},
		{"target dir is output", "inputs: [vector_ops.ll]\ntargets:\n  - {kind: llvm_ir, name: device_images.o}\n", nil,
			"targets.yaml:1:1: output (the default, in build_dir): \"out/device_images.o\" is the work directory of target device_images.o; it would be overwritten\n"},
		{"input is intermediate", "inputs: [vector_ops.ll, out/llvm_ir/module_0.ll]\ntargets:\n  - kind: llvm_ir\n", nil,
			"targets.yaml:1:25: input \"out/llvm_ir/module_0.ll\" is inside the work directory of target llvm_ir\n"},
		{"input is linked", "inputs: [vector_ops.ll, out/linked.ll]\ntargets:\n  - kind: llvm_ir\n", nil,
			"targets.yaml:1:25: input \"out/linked.ll\" is the linked module the build writes\n"},
	}
	before := string(p.read("targets.yaml"))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p.write("targets.yaml", tc.config)
			p.expectFailure(2, tc.want, tc.args...)
			if got := string(p.read("vector_ops.ll")); len(got) < 100 {
				t.Fatalf("vector_ops.ll was overwritten: %q", got)
			}
			if p.exists("out/device_images.o") {
				t.Error("something ran")
			}
		})
	}
	p.write("targets.yaml", before)
}
