package pipeline_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// helpOcloc is an ocloc that counts the queries of its device list in
// help.log and runs the real ocloc for everything.
const helpOcloc = `#!/bin/sh
[ "$1 $2" = "compile --help" ] && echo help >> "$LOGDIR/help.log"
exec ocloc "$@"
`

// TestDeviceCheck: a device the installed ocloc does not know is reported
// at its line:col with ocloc's own list, before anything runs: exit 2,
// nothing built. ocloc is asked for its list once; later builds take it
// from the build's tool cache while the executable stays the same.
func TestDeviceCheck(t *testing.T) {
	needTools(t, "llvm-spirv-15", "ocloc")
	p := newProject(t, "p", "inputs: [device.ll]\ntools: {ocloc: ./ocloc-standin}\ntargets:\n  - kind: spir64_gen\n    devices: [pvc]\n", "device.ll")
	p.write("ocloc-standin", helpOcloc)
	p.env = append(p.env, "LOGDIR="+p.dir)
	p.build()
	p.write("targets.yaml", "inputs: [device.ll]\ntools: {ocloc: ./ocloc-standin}\ntargets:\n  - kind: spir64_gen\n    devices: [pvc, acm-g1O, xe-hpg:xe-hpc, 12.60.7, '0x0bd5']\n")
	os.RemoveAll(filepath.Join(p.dir, "out", "spir64_gen"))
	_, stderr, code := p.run()
	want := `targets.yaml:5:20: targets[0].devices[1]: ./ocloc-standin (ocloc driver `
	if code != 2 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, `) does not know the device "acm-g1O"; did you mean "acm-g10"? (it knows bdw, skl,`) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and one line starting %s", code, stderr, want)
	}
	if p.exists("out/spir64_gen") {
		t.Errorf("the failed build made out/spir64_gen")
	}
	if n := strings.Count(string(p.read("help.log")), "help"); n != 1 {
		t.Errorf("ocloc was asked for its devices %d times, want once", n)
	}
}

// TestRouteOptionsCheck: options for a tool the target's SPIR-V route does
// not run are an error at their line:col, not dropped.
func TestRouteOptionsCheck(t *testing.T) {
	needTools(t, "llvm-spirv-15", "llc-22")
	p := newProject(t, "p", "inputs: [device.ll]\ntargets:\n  - kind: spir64\n    spirv: llvm-backend\n    options: {llvm-spirv: --spirv-max-version=1.4}\n", "device.ll")
	p.expectFailure(2, "targets.yaml:5:27: targets[0].options.llvm-spirv: target spir64 does not run llvm-spirv: it makes SPIR-V with LLVM's SPIR-V backend (spirv: llvm-backend); remove these options, or set spirv: to the route that runs llvm-spirv\n")
	p.write("targets.yaml", "inputs: [device.ll]\ntargets:\n  - kind: spir64\n    options: {llc: -O0}\n")
	p.expectFailure(2, "targets.yaml:4:20: targets[0].options.llc: target spir64 does not run llc: it makes SPIR-V with llvm-spirv (spirv: translator); remove these options, or set spirv: to the route that runs llc\n")
	p.write("new.ll", "target triple = \"spir64-unknown-unknown\"\ndefine spir_kernel void @k() #0 {\n  ret void\n}\nattributes #0 = { memory(none) }\n")
	p.write("targets.yaml", "inputs: [new.ll]\ntargets:\n  - kind: spir64\n    options: {llvm-as: -disable-verify}\n")
	p.expectFailure(2, "targets.yaml:4:24: targets[0].options.llvm-as: target spir64 does not run llvm-as: sycl-post-link writes the modules' bitcode itself; remove these options\n")
	p.write("targets.yaml", "inputs: [device.ll]\ntargets:\n  - kind: spir64\n    options: {llvm-as: -disable-verify}\n")
	p.expectFailure(2, "targets.yaml:4:24: targets[0].options.llvm-as: target spir64 does not run llvm-as: sycl-post-link writes the modules' bitcode itself; remove these options\n")
	p.write("targets.yaml", "inputs: [device.ll]\ntargets:\n  - kind: spir64\n    options: {sycl-post-link: -S}\n")
	p.expectFailure(2, "targets.yaml:4:31: targets[0].options.sycl-post-link: -S: target spir64 makes SPIR-V with llvm-spirv, which reads only bitcode; remove -S\n")
	if p.exists("out") {
		t.Errorf("a refused build made out/")
	}
}

// TestHostCheck: a host whose objects are not ELF is refused at its
// line:col before anything runs, not by the wrapper after every compile.
func TestHostCheck(t *testing.T) {
	p := newProject(t, "p", "inputs: [device.ll]\nhost: x86_64-pc-windows-msvc\ntargets:\n  - kind: llvm_ir\n", "device.ll")
	p.expectFailure(2, "targets.yaml:2:7: host: unsupported host triple \"x86_64-pc-windows-msvc\": sycbuild writes ELF objects, and \"windows\" hosts do not link them (e.g. x86_64-unknown-linux-gnu)\n")
	if p.exists("out") {
		t.Errorf("a refused build made out/")
	}
}

var progressRE = regexp.MustCompile(`(?m)^\[(\d+)/(\d+)\] `)

// TestProgressTotal: the total of the progress lines is known from the
// first line on (the split's modules are counted when its table is
// written, before its line) and never changes; the last line reaches it.
// A rebuild after one target's options changed counts only what runs.
func TestProgressTotal(t *testing.T) {
	needTools(t, "llvm-spirv-15", "ocloc")
	p := aotProject(t, "p", "per_kernel")
	check := func(stderr string, wantTotal int) {
		t.Helper()
		m := progressRE.FindAllStringSubmatch(stderr, -1)
		if len(m) == 0 {
			t.Fatalf("no progress lines:\n%s", stderr)
		}
		for i, l := range m {
			if l[2] != strconv.Itoa(wantTotal) || l[1] != strconv.Itoa(i+1) {
				t.Errorf("line %d: [%s/%s], want [%d/%d]:\n%s", i+1, l[1], l[2], i+1, wantTotal, stderr)
				return
			}
		}
		if len(m) != wantTotal {
			t.Errorf("%d lines, want %d:\n%s", len(m), wantTotal, stderr)
		}
	}
	stderr, s := p.build()
	check(stderr, s.ran+s.jobsRan)
	p.write("targets.yaml", strings.Replace(string(p.read("targets.yaml")), "devices: [pvc, acm-g10]", "devices: [pvc]", 1))
	stderr, s = p.build()
	if s.upToDate == 0 {
		t.Fatalf("the rebuild found nothing up to date:\n%s", stderr)
	}
	check(stderr, s.ran+s.jobsRan)
}
