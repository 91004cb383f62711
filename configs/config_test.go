package configs

import (
	"errors"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"empty", "", "targets.yaml:1:1: empty config: expected a mapping with inputs: and targets:"},
		{"not a mapping", "- a\n", "targets.yaml:1:1: config: expected a mapping, got a list"},
		{"syntax", "inputs: [a.ll\n", "targets.yaml:1:9: sequence end token ']' not found"},
		{"duplicate key", "inputs: [a.ll]\ninputs: [b.ll]\n", `targets.yaml:2:1: mapping key "inputs" already defined at line 1`},
		{"unknown key", "inputs: [a.ll]\ntargets:\n  - kind: spir64\n    devics: [a]\n",
			`targets.yaml:4:5: targets[0]: unknown field "devics" (did you mean "devices"?)`},
		{"unknown top key", "inputs: [a.ll]\nsplt: auto\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:2:1: unknown field "splt" (did you mean "split"?)`},
		{"wrong type int", "inputs: [a.ll]\njobs: many\ntargets: [{kind: llvm_ir}]\n",
			"targets.yaml:2:7: jobs: expected an integer, got a string"},
		{"wrong type list", "inputs: a.ll\ntargets: [{kind: llvm_ir}]\n",
			"targets.yaml:1:9: inputs: expected a list of strings, got a string"},
		{"wrong type nested", "inputs: [a.ll]\ntargets:\n  - kind: spir64_gen\n    devices: 3\n",
			"targets.yaml:4:14: targets[0].devices: expected a list of strings, got an integer"},
		{"number as string", "inputs: [a.ll]\ntargets:\n  - kind: spir64_gen\n    devices: [0x9a49]\n",
			`targets.yaml:4:15: targets[0].devices[0]: expected a string, got an integer (write "0x9a49" in quotes)`},
		{"missing value", "inputs:\n  - a.ll\n  -\ntargets: [{kind: llvm_ir}]\n",
			"targets.yaml:3:4: inputs[1]: missing value (expected a string)"},
		{"missing fields", "split: auto\n",
			"targets.yaml:1:1: missing required field \"inputs\"\ntargets.yaml:1:1: missing required field \"targets\""},
		{"missing kind", "inputs: [a.ll]\ntargets:\n  - devices: [pvc]\n",
			`targets.yaml:3:5: targets[0]: missing required field "kind"`},
		{"bad enum", "inputs: [a.ll]\nsplit: per-kernel\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:2:8: split: unknown split mode "per-kernel" (want off, per_source, per_kernel or auto; did you mean "per_kernel"?)`},
		{"DPC++ split", "inputs: [a.ll]\nsplit: kernel\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:2:8: split: unknown split mode "kernel" (want off, per_source, per_kernel or auto; did you mean "per_kernel"? (DPC++'s -split=kernel))`},
		{"DPC++ intel kind", "inputs: [a.ll]\ntargets:\n  - kind: intel_gpu_acm_g10\n",
			`targets.yaml:3:11: targets[0].kind: unknown target kind "intel_gpu_acm_g10" (want llvm_ir, spir64, spir64_gen, nvptx64 or amdgcn; DPC++'s -fsycl-targets=intel_gpu_acm_g10 is kind: spir64_gen with devices: [acm-g10])`},
		{"DPC++ nvidia kind", "inputs: [a.ll]\ntargets:\n  - kind: nvidia_gpu_sm_90\n",
			`targets.yaml:3:11: targets[0].kind: unknown target kind "nvidia_gpu_sm_90" (want llvm_ir, spir64, spir64_gen, nvptx64 or amdgcn; DPC++'s -fsycl-targets=nvidia_gpu_sm_90 is kind: nvptx64 with arch: sm_90)`},
		{"bad kind", "inputs: [a.ll]\ntargets:\n  - kind: spir65\n",
			`targets.yaml:3:11: targets[0].kind: unknown target kind "spir65" (want llvm_ir, spir64, spir64_gen, nvptx64 or amdgcn; did you mean "spir64"?)`},
		{"gen needs devices", "inputs: [a.ll]\ntargets:\n  - kind: spir64_gen\n",
			"targets.yaml:3:5: targets[0]: a spir64_gen target needs devices: (ocloc device names, e.g. [pvc, acm-g10])"},
		{"nvptx needs arch", "inputs: [a.ll]\ntargets:\n  - kind: nvptx64\n",
			"targets.yaml:3:5: targets[0]: an nvptx64 target needs arch: (e.g. sm_90)"},
		{"bad arch", "inputs: [a.ll]\ntargets:\n  - {kind: nvptx64, arch: sm90}\n",
			`targets.yaml:3:27: targets[0].arch: "sm90" is not an NVIDIA architecture (sm_<number>, e.g. sm_90)`},
		{"amdgcn needs arch", "inputs: [a.ll]\ntargets:\n  - kind: amdgcn\n",
			"targets.yaml:3:5: targets[0]: an amdgcn target needs arch: (e.g. gfx90a)"},
		{"bad amd arch", "inputs: [a.ll]\ntargets:\n  - {kind: amdgcn, arch: sm_90}\n",
			`targets.yaml:3:26: targets[0].arch: "sm_90" is not an AMD GPU (gfx<number>, with :xnack± or :sramecc± settings, e.g. gfx90a)`},
		{"arch on spir64", "inputs: [a.ll]\ntargets:\n  - {kind: spir64, arch: gfx90a}\n",
			`targets.yaml:3:26: targets[0].arch: only nvptx64 and amdgcn targets take arch`},
		{"devices on spir64", "inputs: [a.ll]\ntargets:\n  - kind: spir64\n    devices: [pvc]\n",
			"targets.yaml:4:14: targets[0].devices: only spir64_gen targets take devices"},
		{"comma device", "inputs: [a.ll]\ntargets:\n  - {kind: spir64_gen, devices: ['pvc,acm-g10']}\n",
			`targets.yaml:3:34: targets[0].devices[0]: "pvc,acm-g10" is not one device name (list each device separately)`},
		{"native AOT", "inputs: [a.ll]\ntargets:\n  - {kind: spir64_gen, devices: [pvc], spec_constants: native}\n",
			"targets.yaml:3:56: targets[0].spec_constants: spir64_gen images are compiled ahead of time and need emulation (native values would be fixed at build time)"},
		{"option for wrong tool", "inputs: [a.ll]\ntargets:\n  - kind: spir64\n    options: {ocloc: -q}\n",
			`targets.yaml:4:15: targets[0].options: spir64 targets do not run "ocloc" (options may be given for: sycl-post-link, llvm-as, llvm-spirv, llc, spirv-val)`},
		{"shell operator", "inputs: [a.ll]\ntargets:\n  - kind: spir64\n    options: {llvm-spirv: 'a | b'}\n",
			`targets.yaml:4:27: targets[0].options.llvm-spirv: unquoted shell operator "|" in options (no shell runs them: quote it, or write a list)`},
		{"unterminated quote", "inputs: [a.ll]\ntargets:\n  - kind: spir64\n    options: {llvm-spirv: \"-a 'b\"}\n",
			`targets.yaml:4:27: targets[0].options.llvm-spirv: cannot split "-a 'b" into arguments: unterminated quote`},
		{"unknown tool", "inputs: [a.ll]\ntools: {llvm_spirv: x}\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:2:9: tools: unknown tool "llvm_spirv" (known: llvm-link, llvm-as, llvm-spirv, spirv-val, ocloc, llc, ptxas, fatbinary, ld.lld, clang-offload-bundler; did you mean "llvm-spirv"?)`},
		{"bad input", "inputs: [a.ll, b.txt]\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:1:16: inputs[1]: "b.txt" is not LLVM IR (expected a .ll or .bc file)`},
		{"duplicate input", "inputs: [k.ll, x/../k.ll]\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:1:16: inputs[1]: "k.ll" is already listed as inputs[0]`},
		{"duplicate name", "inputs: [a.ll]\ntargets:\n  - kind: llvm_ir\n  - kind: llvm_ir\n",
			`targets.yaml:4:5: targets[1]: target name "llvm_ir" is already used by targets[0]; give one of them a distinct name`},
		{"bad host", "inputs: [a.ll]\nhost: riscv64-linux-gnu\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:2:7: host: unsupported host triple "riscv64-linux-gnu" (sycbuild writes objects for x86_64 and aarch64 hosts)`},
		{"windows host", "inputs: [a.ll]\nhost: x86_64-pc-windows-msvc\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:2:7: host: unsupported host triple "x86_64-pc-windows-msvc": sycbuild writes ELF objects, and "windows" hosts do not link them (e.g. x86_64-unknown-linux-gnu)`},
		{"apple host", "inputs: [a.ll]\nhost: aarch64-apple-darwin23\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:2:7: host: unsupported host triple "aarch64-apple-darwin23": sycbuild writes ELF objects, and "darwin23" hosts do not link them (e.g. x86_64-unknown-linux-gnu)`},
		{"negative jobs", "inputs: [a.ll]\njobs: -2\ntargets: [{kind: llvm_ir}]\n",
			"targets.yaml:2:7: jobs: must be 0 (one per CPU) or more, got -2"},
		{"alias", "inputs: &x [a.ll]\ntargets: *x\n",
			"targets.yaml:2:10: targets: YAML aliases are not supported in a config"},
		{"two documents", "inputs: [a.ll]\ntargets: [{kind: llvm_ir}]\n---\ninputs: [b.ll]\n",
			"targets.yaml:4:1: only one YAML document is allowed (document 2)"},
		{"name dot dot", "inputs: [a.ll]\ntargets:\n  - {kind: llvm_ir, name: \"..\"}\n",
			`targets.yaml:3:27: targets[0].name: ".." is not a valid target name: it must name a directory of its own inside build_dir`},
		{"name dot", "inputs: [a.ll]\ntargets:\n  - {kind: llvm_ir, name: .}\n",
			`targets.yaml:3:27: targets[0].name: "." is not a valid target name: it must name a directory of its own inside build_dir`},
		{"name state dir", "inputs: [a.ll]\ntargets:\n  - {kind: llvm_ir, name: .sycbuild}\n",
			`targets.yaml:3:27: targets[0].name: ".sycbuild" is not a valid target name: build_dir/.sycbuild holds sycbuild's state`},
		{"name with slash", "inputs: [a.ll]\ntargets:\n  - {kind: llvm_ir, name: a/b}\n",
			`targets.yaml:3:27: targets[0].name: "a/b" is not a valid target name: use letters, digits, '_', '.', '-'`},
		{"newline in build_dir", "inputs: [a.ll]\nbuild_dir: \"b\\nd\"\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:2:12: build_dir: "b\nd" contains the control character '\n', which no file list or table can hold`},
		{"bar in build_dir", "inputs: [a.ll]\nbuild_dir: b|d\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:2:12: build_dir: "b|d" contains '|', which separates the cells of a file table`},
		{"newline in output", "inputs: [a.ll]\noutput: \"o\\n.o\"\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:2:9: output: "o\n.o" contains the control character '\n', which no file list or table can hold`},
		{"tab in input", "inputs: [\"a\\tb.ll\"]\ntargets: [{kind: llvm_ir}]\n",
			`targets.yaml:1:10: inputs[0]: "a\tb.ll" contains the control character '\t', which no file list or table can hold`},
		{"several errors sorted", "targets:\n  - kind: nvptx64\n    arch: 90\n  - kind: spir64\n    optional: yes\n",
			"targets.yaml:1:1: missing required field \"inputs\"\ntargets.yaml:3:11: targets[0].arch: expected a string, got an integer (write \"90\" in quotes)\ntargets.yaml:5:15: targets[1].optional: expected true or false, got a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("targets.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse succeeded (%+v), want error\n%s", c, tt.want)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error:\n got %s\nwant %s", got, tt.want)
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Errorf("error is %T, want a non-empty ErrorList", err)
			}
		})
	}
}

func TestParseDefaults(t *testing.T) {
	src := `
inputs: [device/a.ll, ./b.bc]
targets:
  - kind: llvm_ir
  - kind: spir64
    options:
      llvm-spirv: "-spirv-max-version=1.3 '--spirv-ext=+SPV_INTEL_subgroups'"
  - kind: spir64_gen
    devices: [pvc, acm-g10]
    optional: true
    options:
      ocloc: [-options, -cl-fast-relaxed-math]
  - kind: nvptx64
    name: cuda
    arch: sm_90
tools:
  llvm-spirv: bin/llvm-spirv-15
`
	c, err := Parse(filepath.Join("proj", "targets.yaml"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if c.Dir != "proj" || c.File != filepath.Join("proj", "targets.yaml") {
		t.Errorf("Dir, File = %q, %q", c.Dir, c.File)
	}
	if want := []string{"device/a.ll", "b.bc"}; !reflect.DeepEqual(c.Inputs, want) {
		t.Errorf("Inputs = %q, want %q", c.Inputs, want)
	}
	if c.BuildDir != "out" || c.Output != "out/device_images.o" || c.Split != SplitAuto || c.Host != DefaultHost() || c.Jobs != 0 {
		t.Errorf("defaults: build_dir %q output %q split %q host %q jobs %d", c.BuildDir, c.Output, c.Split, c.Host, c.Jobs)
	}
	type summary struct {
		Kind     Kind
		Name     string
		Spec     SpecConsts
		Optional bool
		Devices  []string
		Arch     string
		Options  map[Tool]Args
	}
	var got []summary
	for i, tg := range c.Targets {
		if tg.Index != i {
			t.Errorf("target %d has Index %d", i, tg.Index)
		}
		got = append(got, summary{tg.Kind, tg.Name, tg.SpecConstants, tg.Optional, tg.Devices, tg.Arch, tg.Options})
	}
	want := []summary{
		{LLVMIR, "llvm_ir", SpecNative, false, nil, "", nil},
		{SPIR64, "spir64", SpecNative, false, nil, "", map[Tool]Args{"llvm-spirv": {"-spirv-max-version=1.3", "--spirv-ext=+SPV_INTEL_subgroups"}}},
		{SPIR64Gen, "spir64_gen", SpecEmulation, true, []string{"pvc", "acm-g10"}, "", map[Tool]Args{"ocloc": {"-options", "-cl-fast-relaxed-math"}}},
		{NVPTX64, "cuda", SpecEmulation, false, nil, "sm_90", nil},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("targets:\n got %+v\nwant %+v", got, want)
	}
	if c.Tools[ToolLLVMSPIRV] != "bin/llvm-spirv-15" {
		t.Errorf("tools = %v", c.Tools)
	}
	if p := c.TargetLoc(c.Targets[2]).Pos(); p != (Pos{8, 5}) {
		t.Errorf("TargetPos(targets[2]) = %v, want 8:5", p)
	}
	if got := (Loc{c, "targets[3].arch"}).Position(); got != filepath.Join("proj", "targets.yaml")+":15:11" {
		t.Errorf("Position(targets[3].arch) = %q", got)
	}
	if got := (Loc{c, "targets[3].devices"}).Position(); got != filepath.Join("proj", "targets.yaml")+":13:5" {
		t.Errorf("Position of an absent field = %q, want the target's", got)
	}
}

// TestDocsExample checks that the full example in docs/targets.md is a valid
// config, so the documentation cannot drift from the schema.
func TestDocsExample(t *testing.T) {
	doc := readRepoFile(t, "docs/targets.md")
	m := regexp.MustCompile("(?s)<!-- full example -->\n```yaml\n(.*?)```").FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("docs/targets.md has no ```yaml block after <!-- full example -->")
	}
	c, err := Parse("targets.yaml", []byte(m[1]))
	if err != nil {
		t.Fatalf("the documented example does not load:\n%v", err)
	}
	kinds := map[Kind]bool{}
	for _, tg := range c.Targets {
		kinds[tg.Kind] = true
	}
	for _, k := range Kinds {
		if !kinds[k] {
			t.Errorf("the documented example has no %s target", k)
		}
	}
	// Every schema field is documented.
	for _, typ := range []reflect.Type{reflect.TypeOf(Config{}), reflect.TypeOf(Target{})} {
		for _, name := range tags(typ) {
			if !strings.Contains(doc, "`"+name+"`") {
				t.Errorf("docs/targets.md does not document field %s", name)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("inputs: [a.ll]\ntargets:\n  - kind: spir64_gen\n    devices: [pvc]\n"))
	f.Add([]byte("inputs: [a.ll]\ntargets: [{kind: nvptx64, arch: sm_90, options: {llc: '-O3'}}]\ntools: {llc: llc-19}\n"))
	f.Add([]byte("inputs: !!seq [a]\ntargets: *x\n"))
	f.Add([]byte("- [a, {b: c}]\n"))
	f.Add([]byte("inputs: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[a]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n"))
	f.Add([]byte("targets:\n  - name: \"..\"\n    kind: llvm_ir\nbuild_dir: \"a|b\\n\"\n"))
	pos := regexp.MustCompile(`^t\.yaml:\d+:\d+: `)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse("t.yaml", data)
		if err == nil {
			return
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			if !pos.MatchString(line) {
				t.Fatalf("error line without position: %q", line)
			}
		}
	})
}
