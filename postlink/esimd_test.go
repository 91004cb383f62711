package postlink

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

const syclOnly = `target triple = "spir64-unknown-unknown"

define spir_kernel void @k1() #0 {
  call spir_func void @helper()
  ret void
}

define spir_kernel void @k2() #1 {
  ret void
}

define spir_func void @helper() {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-module-id"="b.cpp" }
`

// runLowerESIMD runs the tool on src in a fresh directory, with
// -lower-esimd when lower is set, and returns the files written.
func runLowerESIMD(t *testing.T, src string, lower bool) (map[string]string, error) {
	t.Helper()
	t.Chdir(t.TempDir())
	o := Options{Input: "-", Split: SplitSource, SplitGiven: true, SplitESIMD: true, Symbols: true,
		Assembly: true, LowerESIMD: lower, Outputs: []Output{{File: "o.table"}}}
	var stdout, stderr bytes.Buffer
	err := Run(&o, IO{Stdin: strings.NewReader(src), Stdout: &stdout, Stderr: &stderr, Argv0: "sycl-post-link"})
	out := map[string]string{}
	for _, f := range files(t, ".") {
		out[f] = readFile(t, f)
	}
	return out, err
}

// esimdBuiltins calls the lowered builtins from a kernel and from a
// function it calls; its SYCL kernel stays as it is.
const esimdBuiltins = `target triple = "spir64-unknown-unknown"

define spir_kernel void @esimdK() #0 !sycl_explicit_simd !0 {
entry:
  call spir_func void @helper()
  tail call spir_func void @_Z21__esimd_nbarrier_inith(i8 zeroext 3)
  call spir_func void @_Z16__esimd_slm_initj(i32 1024)
  ret void
}

define spir_func void @helper() #1 !sycl_explicit_simd !0 {
entry:
  call spir_func void @_Z15__esimd_barrierv()
  call spir_func void @_Z21__esimd_nbarrier_inith(i8 zeroext 5)
  ret void
}

define spir_kernel void @syclK() #2 {
entry:
  ret void
}

declare spir_func void @_Z15__esimd_barrierv()
declare spir_func void @_Z21__esimd_nbarrier_inith(i8 zeroext)
declare spir_func void @_Z16__esimd_slm_initj(i32)

attributes #0 = { convergent "sycl-module-id"="a.cpp" }
attributes #1 = { convergent noinline optnone "sycl-module-id"="a.cpp" }
attributes #2 = { convergent "sycl-module-id"="a.cpp" }

!0 = !{}
`

// TestLowerESIMD: -lower-esimd changes nothing in a module without ESIMD
// code; in ESIMD code it turns the builtins into GenX intrinsics and
// kernel attributes, and gives the functions the VC attributes; a builtin
// it does not implement is refused by name, writing nothing.
func TestLowerESIMD(t *testing.T) {
	without, err := runLowerESIMD(t, syclOnly, false)
	if err != nil {
		t.Fatal(err)
	}
	with, err := runLowerESIMD(t, syclOnly, true)
	if err != nil {
		t.Fatalf("-lower-esimd on a module without ESIMD code: %v", err)
	}
	if len(with) != 5 || fmt.Sprint(with) != fmt.Sprint(without) {
		t.Errorf("-lower-esimd changed the output:\n%v\nwithout it:\n%v", with, without)
	}

	out, err := runLowerESIMD(t, esimdBuiltins, true)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := runLowerESIMD(t, esimdBuiltins, false)
	if err != nil {
		t.Fatal(err)
	}
	if out["o_0.ll"] != plain["o_0.ll"] {
		t.Errorf("the SYCL module changed:\n%s\nwithout -lower-esimd:\n%s", out["o_0.ll"], plain["o_0.ll"])
	}
	ir := out["o_0.esimd.ll"]
	for _, want := range []string{
		"entry:\n  call spir_func void @helper()\n  ret void\n}",
		"entry:\n  call void @llvm.genx.barrier()\n  ret void\n}",
		"\ndeclare void @llvm.genx.barrier() \"VCFunction\"\n",
		// The kernel reaches counts 3 and 5: the largest wins.
		// Entry points get "sycl-entry-point" in their group.
		`define spir_kernel void @esimdK() #0 !sycl_explicit_simd !0 {`,
		`attributes #0 = { convergent "CMGenxMain" "VCFunction" "VCNamedBarrierCount"="5" "VCSLMSize"="1024" "sycl-entry-point" "sycl-module-id"="a.cpp" }`,
		// -split-esimd: optnone and noinline go, the callee is inlined.
		`attributes #1 = { convergent alwaysinline "VCFunction" "sycl-entry-point" "sycl-module-id"="a.cpp" }`,
	} {
		if !strings.Contains(ir, want) {
			t.Errorf("ESIMD module lacks %q:\n%s", want, ir)
		}
	}
	if strings.Contains(ir, "__esimd_") {
		t.Errorf("ESIMD module still names a builtin:\n%s", ir)
	}

	unknown := strings.Replace(esimdBuiltins, "@_Z15__esimd_barrierv", "@_Z14__esimd_fencev", 2)
	out, err = runLowerESIMD(t, unknown, true)
	const want = "sycl-post-link: -lower-esimd: <stdin>: @helper calls the ESIMD builtin @_Z14__esimd_fencev, which sycbuild's ESIMD lowering does not implement (__esimd_fencev is neither in the reference's table of ESIMD intrinsics nor one of its special cases)"
	if err == nil || err.Error() != want {
		t.Errorf("unknown builtin: error %v\nwant %s", err, want)
	}
	if len(out) != 0 {
		t.Errorf("unknown builtin: files written: %v", out)
	}
}

// TestLowerESIMDSharedGroup: with -split-esimd an ESIMD function loses
// optnone and noinline, but not when its attribute group is shared with a
// function that keeps them (a SYCL callee): it keeps them, with a warning,
// and its group is left as it is.
func TestLowerESIMDSharedGroup(t *testing.T) {
	const src = `target triple = "spir64-unknown-unknown"

define spir_kernel void @k() #0 !sycl_explicit_simd !0 {
  call spir_func void @syclHelper()
  ret void
}

define spir_func void @syclHelper() #0 {
  ret void
}

attributes #0 = { noinline optnone "sycl-module-id"="a.cpp" }

!0 = !{}
`
	dir := t.TempDir()
	out, err := runTool(t, dir, src, "-split=auto", "-split-esimd", "-lower-esimd", "-S", "-o", "o.table")
	if err != nil {
		t.Fatal(err)
	}
	const warning = "warning: <stdin>: ESIMD function @k keeps optnone and noinline: its attribute group is shared with code that keeps them"
	if !strings.Contains(out, warning) {
		t.Errorf("output %q lacks %q", out, warning)
	}
	ir := readFile(t, "o_0.esimd.ll")
	for _, want := range []string{
		`define spir_kernel void @k() #1 !sycl_explicit_simd !0 {`,
		`attributes #1 = { noinline optnone "CMGenxMain" "VCFunction" "VCNamedBarrierCount"="0" "VCSLMSize"="0" "sycl-entry-point" "sycl-module-id"="a.cpp" }`,
		`attributes #0 = { noinline optnone "sycl-module-id"="a.cpp" }`,
	} {
		if !strings.Contains(ir, want) {
			t.Errorf("module lacks %q:\n%s", want, ir)
		}
	}
}

// TestLowerESIMDUnmarkedCallee: a function an ESIMD kernel calls is ESIMD
// code even without !sycl_explicit_simd (the ESIMD split puts the kernel's
// call graph into the ESIMD module): its __esimd_* calls are lowered, and
// one the lowering does not know is refused, never written unlowered.
func TestLowerESIMDUnmarkedCallee(t *testing.T) {
	const src = `target triple = "spir64-unknown-unknown"

define spir_kernel void @esimdK() #0 !sycl_explicit_simd !0 {
  call spir_func void @marker()
  ret void
}

define spir_func void @marker() {
  call spir_func void @%s
  ret void
}

declare spir_func void @%s

attributes #0 = { "sycl-module-id"="a.cpp" }

!0 = !{}
`
	out, err := runLowerESIMD(t, fmt.Sprintf(src, "_Z15__esimd_barrierv()", "_Z15__esimd_barrierv()"), true)
	if err != nil {
		t.Fatal(err)
	}
	if ir := out["o_0.esimd.ll"]; !strings.Contains(ir, "call void @llvm.genx.barrier()") || strings.Contains(ir, "__esimd_barrier") {
		t.Errorf("the unmarked callee's builtin is not lowered:\n%s", ir)
	}
	_, err = runLowerESIMD(t, fmt.Sprintf(src, "_Z29__esimd_set_kernel_propertiesi(i32 0)", "_Z29__esimd_set_kernel_propertiesi(i32)"), true)
	if err == nil || !strings.Contains(err.Error(), "@marker calls the ESIMD builtin @_Z29__esimd_set_kernel_propertiesi") {
		t.Errorf("an unknown builtin in an unmarked callee: %v", err)
	}
}

// TestLowerESIMDSharedCallee: a function both SYCL and ESIMD code call is
// left as it is in a module holding both (the reference lowers a copy of
// it for the ESIMD code); one only ESIMD code calls is ESIMD code.
func TestLowerESIMDSharedCallee(t *testing.T) {
	const src = `target triple = "spir64-unknown-unknown"

define spir_kernel void @syclK() #0 {
  call spir_func void @shared()
  ret void
}

define spir_kernel void @esimdK() #0 !sycl_explicit_simd !0 {
  call spir_func void @shared()
  call spir_func void @own()
  ret void
}

define internal spir_func void @shared() {
  ret void
}

define internal spir_func void @own() {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }

!0 = !{}
`
	t.Chdir(t.TempDir())
	o := Options{Input: "-", Split: SplitSource, SplitGiven: true, Symbols: true,
		Assembly: true, LowerESIMD: true, Outputs: []Output{{File: "o.table"}}}
	var stdout, stderr bytes.Buffer
	if err := Run(&o, IO{Stdin: strings.NewReader(src), Stdout: &stdout, Stderr: &stderr, Argv0: "sycl-post-link"}); err != nil {
		t.Fatal(err)
	}
	ir := readFile(t, "o_0.ll")
	for _, want := range []string{"define internal spir_func void @shared() {", `define internal spir_func void @own() alwaysinline "VCFunction" {`} {
		if !strings.Contains(ir, want) {
			t.Errorf("module lacks %q:\n%s", want, ir)
		}
	}
}
