package pipeline_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// onlyTools makes PATH hold just the named tools (links to the real ones).
func (p *project) onlyTools(names ...string) {
	p.t.Helper()
	bin := filepath.Join(p.t.TempDir(), "bin")
	os.MkdirAll(bin, 0o755)
	for _, n := range names {
		if err := os.Symlink(testenv.Tool(p.t, n), filepath.Join(bin, n)); err != nil {
			p.t.Fatal(err)
		}
	}
	p.setEnv("PATH", bin)
}

func (p *project) setEnv(k, v string) {
	env := []string{k + "=" + v}
	for _, e := range p.env {
		if !strings.HasPrefix(e, k+"=") {
			env = append(env, e)
		}
	}
	p.env = env
}

// expectFailure runs sycbuild and checks its exit status and its whole
// standard error.
func (p *project) expectFailure(code int, stderr string, args ...string) {
	p.t.Helper()
	_, got, c := p.run(args...)
	if c != code || got != stderr {
		p.t.Errorf("sycbuild %s: exit %d, stderr:\n%s\nwant exit %d, stderr:\n%s", strings.Join(args, " "), c, got, code, stderr)
	}
}

func TestConfigErrors(t *testing.T) {
	p := newProject(t, "p", "inputs: [vector_ops.ll]\ntargets:\n  - kind: spir64_gen\n    devics: [pvc]\n", "vector_ops.ll")
	p.expectFailure(2, "targets.yaml:4:5: targets[0]: unknown field \"devics\" (did you mean \"devices\"?)\n")
	p.write("targets.yaml", "inputs: [vector_ops.ll]\nsplit: per-kernel\ntargets: [{kind: spir64_gen}]\n")
	p.expectFailure(2, "targets.yaml:2:8: split: unknown split mode \"per-kernel\" (want off, per_source, per_kernel or auto; did you mean \"per_kernel\"?)\n"+
		"targets.yaml:3:12: targets[0]: a spir64_gen target needs devices: (ocloc device names, e.g. [pvc, acm-g10])\n")
	// From another directory, messages name the config as given.
	cmd := exec.Command(testenv.Sycbuild(t), "-config", "p/targets.yaml")
	cmd.Dir = filepath.Dir(p.dir)
	out, _ := cmd.CombinedOutput()
	if !strings.HasPrefix(string(out), "p/targets.yaml:2:8: split: ") {
		t.Errorf("from the parent directory:\n%s", out)
	}
	p.expectFailure(2, "sycbuild: open nope.yaml: no such file or directory\n", "-config", "nope.yaml")
}

func TestInputErrors(t *testing.T) {
	p := newProject(t, "p", "inputs: [nope.ll, vector_ops.ll]\ntargets:\n  - kind: llvm_ir\n", "vector_ops.ll")
	p.expectFailure(2, "targets.yaml:1:10: inputs[0]: cannot read nope.ll: no such file or directory\n")

	// LLVM 19 syntax cannot go to llvm-spirv-15; typed pointers and LLVM
	// 19 syntax cannot be linked together.
	p.write("new.ll", "target triple = \"spir64-unknown-unknown\"\ndefine spir_kernel void @k() #0 {\n  ret void\n}\nattributes #0 = { memory(none) }\n")
	// The translator cannot read it; LLVM's SPIR-V backend (the default
	// for such IR) can.
	p.write("targets.yaml", "inputs: [new.ll]\ntargets:\n  - kind: llvm_ir\n  - kind: spir64\n    spirv: translator\n")
	p.expectFailure(2, "targets.yaml:4:5: target spir64 cannot use the inputs: llvm-spirv-15 reads only LLVM 15 IR, and new.ll needs LLVM 19 (\"memory(none\" at line 5) (spirv: llvm-backend reads it)\n")
	p.write("targets.yaml", "inputs: [vector_ops.ll, new.ll]\ntargets:\n  - kind: llvm_ir\n")
	p.expectFailure(2, "targets.yaml:1:25: inputs[1]: new.ll needs LLVM 19 (\"memory(none\" at line 5), but vector_ops.ll needs LLVM 15 (typed pointers at line 14); no one llvm-link reads both\n")

	// An input without device code is left out.
	p.write("targets.yaml", "inputs: [host_only.ll, vector_ops.ll]\ntargets:\n  - kind: llvm_ir\n")
	b, _ := os.ReadFile(filepath.Join("testdata", "host_only.ll"))
	p.write("host_only.ll", string(b))
	script, stderr, code := p.run("-n")
	if code != 0 || !strings.HasPrefix(stderr, "sycbuild: note: skipping host_only.ll: it defines no kernel and no SYCL_EXTERNAL function\n") ||
		strings.Contains(script, "llvm-link") || !strings.Contains(script, " -o out/llvm_ir/module.table vector_ops.ll\n") {
		t.Errorf("skipping an input without device code: exit %d\n%s\n%s", code, stderr, script)
	}
	p.write("targets.yaml", "inputs: [host_only.ll]\ntargets:\n  - kind: llvm_ir\n")
	p.expectFailure(2, "sycbuild: note: skipping host_only.ll: it defines no kernel and no SYCL_EXTERNAL function\n"+
		"targets.yaml:1:9: no input holds device code (every input was skipped)\n")
}

// TestBitcodeInputs: several inputs go through llvm-link of the LLVM that
// wrote them; one bitcode input goes straight to sycl-post-link, which reads
// bitcode itself (no llvm-dis), and the build gives the same object as from
// its text.
func TestBitcodeInputs(t *testing.T) {
	needTools(t, "llvm-as-15", "llvm-as-19", "llvm-link-15")
	p := newProject(t, "p", "inputs: [vector_ops.bc, image_ops.ll]\ntargets:\n  - kind: llvm_ir\n", "vector_ops.ll", "image_ops.ll", "nvptx.ll")
	run := func(tool string, args ...string) {
		cmd := exec.Command(tool, args...)
		cmd.Dir = p.dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", tool, err, out)
		}
	}
	run("llvm-as-15", "vector_ops.ll", "-o", "vector_ops.bc")
	run("llvm-as-19", "nvptx.ll", "-o", "nvptx.bc")
	// The builds need no LLVM assembler: sycl-post-link writes the bitcode.
	p.setEnv("PATH", testenv.PathWithoutLLVMAs(t))
	for _, tc := range []struct{ inputs, want string }{
		{"[vector_ops.bc, image_ops.ll]", "llvm-link-15 -S -o out/linked.ll vector_ops.bc image_ops.ll\n"},
		{"[vector_ops.bc]", " sycl-post-link -device-globals -properties -spec-const=native -split=auto -emit-only-kernels-as-entry-points -emit-param-info -symbols -emit-exported-symbols -emit-imported-symbols -split-esimd -o out/llvm_ir/module.table vector_ops.bc\n"},
		{"[nvptx.bc]", " -split-esimd -o out/llvm_ir/module.table nvptx.bc\n"},
	} {
		p.write("targets.yaml", "inputs: "+tc.inputs+"\ntargets:\n  - kind: llvm_ir\n")
		script, stderr, code := p.run("-n")
		if code != 0 || !strings.Contains(script, tc.want) || strings.Contains(script, "llvm-dis") {
			t.Errorf("inputs %s: exit %d, want %q and no llvm-dis\n%s%s", tc.inputs, code, tc.want, stderr, script)
		}
	}
	objects := map[string][]byte{}
	for _, in := range []string{"vector_ops.bc", "vector_ops.ll"} {
		p.write("targets.yaml", "inputs: ["+in+"]\ntargets:\n  - kind: spir64\n    spirv: translator\n")
		p.build()
		objects[in] = p.read("out/device_images.o")
	}
	if !bytes.Equal(objects["vector_ops.bc"], objects["vector_ops.ll"]) {
		t.Errorf("the object built from vector_ops.bc differs from the one built from vector_ops.ll")
	}
	p.write("targets.yaml", "inputs: [nvptx.bc]\ntargets:\n  - kind: llvm_ir\n")
	if _, s := p.build(); s.ran != 2 {
		t.Errorf("building from LLVM 19 bitcode: %+v", s)
	}
	p.write("targets.yaml", "inputs: [nvptx.bc]\ntargets:\n  - kind: spir64\n    spirv: translator\n")
	p.expectFailure(2, "targets.yaml:3:5: target spir64 cannot use the inputs: llvm-spirv-15 reads only LLVM 15 IR, and nvptx.bc needs LLVM 19 (bitcode written by LLVM19.1.7) (spirv: llvm-backend reads it)\n")
}

// TestMissingTools: what is missing is reported before anything runs,
// naming the target and the package; optional targets are skipped instead.
func TestMissingTools(t *testing.T) {
	p := newProject(t, "p", "inputs: [vector_ops.ll]\ntargets:\n  - kind: spir64\n  - kind: spir64_gen\n    devices: [pvc]\n  - kind: nvptx64\n    arch: sm_90\n", "vector_ops.ll")
	p.onlyTools("llvm-spirv-15")
	p.setEnv("CUDA_PATH", "/nonexistent/cuda")
	p.expectFailure(2,
		"sycbuild: warning: SPIR-V modules will not be validated (ocloc does not validate its input either): spirv-val was not found (looked for spirv-val on PATH); install the Debian package spirv-tools\n"+
			"targets.yaml:4:5: target spir64_gen needs ocloc: ocloc was not found (looked for ocloc on PATH); install the Debian package intel-opencl-icd\n"+
			"targets.yaml:6:5: target nvptx64 needs llc: llc was not found (looked for llc-19 on PATH, llc on PATH); install the Debian package llvm-19\n"+
			"targets.yaml:6:5: target nvptx64 needs ptxas: ptxas was not found (looked for ptxas on PATH, /nonexistent/cuda/bin/ptxas, /usr/local/cuda/bin/ptxas); install NVIDIA's CUDA toolkit (Debian: nvidia-cuda-toolkit, in non-free), or name it under tools:\n"+
			"targets.yaml:6:5: target nvptx64 needs fatbinary: fatbinary was not found (looked for fatbinary on PATH, /nonexistent/cuda/bin/fatbinary, /usr/local/cuda/bin/fatbinary); install NVIDIA's CUDA toolkit (Debian: nvidia-cuda-toolkit, in non-free), or name it under tools:\n")
	if p.exists("out") {
		t.Error("something ran before the missing tools were reported")
	}

	p.write("targets.yaml", "inputs: [vector_ops.ll]\ntargets:\n  - kind: llvm_ir\n  - kind: spir64_gen\n    devices: [pvc]\n    optional: true\n")
	stderr, s := p.build()
	want := "sycbuild: warning: SPIR-V modules will not be validated (ocloc does not validate its input either): spirv-val was not found (looked for spirv-val on PATH); install the Debian package spirv-tools\n" +
		"sycbuild: warning: targets.yaml:4:5: skipping optional target spir64_gen, which needs ocloc: ocloc was not found (looked for ocloc on PATH); install the Debian package intel-opencl-icd\n"
	if !strings.HasPrefix(stderr, want) || s.ran != 2 {
		t.Errorf("optional target: %+v\n%s\nwant it to start with:\n%s", s, stderr, want)
	}
}

// TestFailingTool: a failing command shows what ran, how it ended and the
// end of its output, and which of its module's kernels fail alone (the
// module is split per kernel to find out); nothing of it is left behind.
func TestFailingTool(t *testing.T) {
	needTools(t, "llvm-spirv-15", "spirv-val", "ocloc")
	p := newProject(t, "p", "inputs: [vector_ops.ll]\nsplit: per_source\ntools: {ocloc: ./fake/ocloc}\ntargets:\n  - kind: spir64_gen\n    devices: [pvc]\n", "vector_ops.ll")
	p.write("fake/ocloc", "#!/bin/sh\necho \"compiling $3\"\necho \"error: no GPU compiler for $6\" >&2\nexit 3\n")
	p.expectFailure(1, "[1/6] [spir64_gen] sycl-post-link\n"+
		"[2/6] [spir64_gen] file-table-tform --extract=Code\n"+
		"[3/6] [spir64_gen] ocloc out/spir64_gen/module_0.bc\n"+
		"FAILED: [spir64_gen] ocloc out/spir64_gen/module_0.bc (ocloc) (exit status 3)\n"+
		"  $ ./fake/ocloc compile -file out/spir64_gen/module_0.spv -spirv_input -device pvc -output out/spir64_gen/module_0.bin -output_no_suffix\n"+
		"  | compiling out/spir64_gen/module_0.spv\n"+
		"  | error: no GPU compiler for pvc\n"+
		"  isolated: not by kernel: its first and its last kernel alone (_ZTSZ4mainE8VecScale; _ZTSZ4mainE6VecAdd) fail as the whole module does, so the cause is the command (its device names or options), not a kernel\n"+
		"[4/6] [spir64_gen] ocloc\n"+
		"sycbuild: build failed: 1 of 5 actions failed\n")
	if p.exists("out/spir64_gen/module_0.bin") || p.exists("out/device_images.o") {
		t.Error("the failed build left outputs")
	}
	if m, _ := filepath.Glob(filepath.Join(p.dir, "out/spir64_gen/.*tmp*")); len(m) > 0 || p.exists("out/spir64_gen/module_0.spv") {
		t.Errorf("the failed build left temporary files %v or the failed module's intermediates", m)
	}

	// The real ocloc, with a device it does not know: refused before
	// anything runs, from ocloc's own list.
	p.write("targets.yaml", "inputs: [vector_ops.ll]\nsplit: per_source\ntargets:\n  - kind: spir64_gen\n    devices: [nosuch]\n")
	_, stderr, code := p.run()
	want := `targets.yaml:5:15: targets[0].devices[0]: ocloc (ocloc driver `
	if code != 2 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, `) does not know the device "nosuch" (it knows `) || p.exists("out/spir64_gen/module_0.spv") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and it to start with:\n%s", code, stderr, want)
	}
}

// TestNVPTXChain runs the nvptx64 chain with the real llc-19 and stand-ins
// for ptxas and fatbinary (CUDA is not packaged in Debian main): the
// commands, their order, and one image per module in the object.
func TestNVPTXChain(t *testing.T) {
	needTools(t, "llc-19", "cc")
	p := newProject(t, "p", `inputs: [nvptx.ll]
split: per_source
tools:
  ptxas: ./fake/ptxas
  fatbinary: ./fake/fatbinary
targets:
  - kind: nvptx64
    arch: sm_90
    options:
      ptxas: -O3
`, "nvptx.ll")
	// ptxas: an ELF header (no section headers), then the PTX; fatbinary:
	// a fat binary header (nothing after it, it says), then what --image3
	// names.
	p.write("fake/ptxas", "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'ptxas: stand-in'; exit 0; }\necho \"$@\" >> ptxas.log\nprintf '\\177ELF\\002\\001' > \"$4\"\nhead -c 58 /dev/zero >> \"$4\"\ncat \"$2\" >> \"$4\"\n")
	p.write("fake/fatbinary", "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'fatbinary: stand-in'; exit 0; }\necho \"$@\" >> fatbinary.log\nout=${2#--create=}\nprintf '\\120\\355\\125\\272\\001\\000\\020\\000\\000\\000\\000\\000\\000\\000\\000\\000' > \"$out\"\nfor a in \"$3\" \"$4\"; do cat \"${a##*file=}\" >> \"$out\"; done\n")
	stderr, s := p.build("-v")
	if s.ran != 5 || s.jobsRan != 2 {
		t.Errorf("%+v\n%s", s, stderr)
	}
	for _, want := range []string{
		"llc-19 -march=nvptx64 -mcpu=sm_90 out/nvptx64/module_0.ll -o out/nvptx64/module_0.ptx\n",
		"./fake/ptxas -arch=sm_90 out/nvptx64/module_0.ptx -o out/nvptx64/module_0.cubin -O3\n",
		"./fake/fatbinary -64 --create=out/nvptx64/module_0.fatbin --image3=kind=elf,sm=90,file=out/nvptx64/module_0.cubin --image3=kind=ptx,sm=90,file=out/nvptx64/module_0.ptx\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("missing command %s in:\n%s", want, stderr)
		}
	}
	if ptx := p.read("out/nvptx64/module_1.ptx"); !strings.Contains(string(ptx), ".target sm_90") {
		t.Errorf("module_1.ptx is not PTX for sm_90:\n%s", ptx)
	}
	got := p.images()
	if len(got) != 4 || !strings.HasPrefix(got[0], "image 0: target nvptx64, format native, ") || !strings.HasPrefix(got[2], "image 1: target nvptx64, format native, ") {
		t.Errorf("images:\n%s", strings.Join(got, "\n"))
	}
}
