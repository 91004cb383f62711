package postlink

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// invokeSimd calls two ESIMD targets through one helper: one with code,
// one that only returns.
const invokeSimd = `target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define weak_odr dso_local spir_kernel void @K(ptr addrspace(1) noundef align 4 %p) #0 {
entry:
  %a = load float, ptr addrspace(1) %p, align 4
  %r1 = call x86_regcallcc noundef float @_Z33__regcall3____builtin_invoke_simdXX(ptr noundef nonnull @simd_helper, ptr noundef nonnull @scale, float noundef %a)
  %r2 = call x86_regcallcc noundef float @_Z33__regcall3____builtin_invoke_simdXX(ptr noundef nonnull @simd_helper, ptr noundef nonnull @zero, float noundef %r1)
  store float %r2, ptr addrspace(1) %p, align 4
  ret void
}

define linkonce_odr dso_local x86_regcallcc <16 x float> @scale(<16 x float> %x) #1 !sycl_explicit_simd !0 {
entry:
  %y = fmul <16 x float> %x, <float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0>
  ret <16 x float> %y
}

define linkonce_odr dso_local x86_regcallcc <16 x float> @zero(<16 x float> %x) #1 !sycl_explicit_simd !0 {
entry:
  ret <16 x float> zeroinitializer
}

declare dso_local x86_regcallcc noundef float @_Z33__regcall3____builtin_invoke_simdXX(ptr noundef, ptr noundef, float noundef)

define linkonce_odr dso_local x86_regcallcc <16 x float> @simd_helper(ptr noundef %f, <16 x float> %v) #1 {
entry:
  %call = call x86_regcallcc <16 x float> %f(<16 x float> %v)
  ret <16 x float> %call
}

attributes #0 = { "sycl-module-id"="is.cpp" }
attributes #1 = { "referenced-indirectly" }

!0 = !{}
`

// TestInvokeSimd: each invoke_simd call of a direct target gets its own
// clone of the helper, calling the target, marked ESIMD and a stack call,
// and a new declaration of the builtin without the target parameter; the
// original helper and declaration go; a target that only returns is
// inlined. The result is valid LLVM IR that llvm-spirv-15 translates.
// -split-esimd and a target known only at run time are refused.
func TestInvokeSimd(t *testing.T) {
	dir := t.TempDir()
	if _, err := runTool(t, dir, invokeSimd, "-split=auto", "-symbols", "-lower-esimd", "-S", "-o", "o.table"); err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, "o.table"), "[Code|Symbols]\no_0.ll|o_0.sym\n"; got != want {
		t.Errorf("table %q, want %q", got, want)
	}
	ir := readFile(t, "o_0.ll")
	for _, want := range []string{
		"%r1 = call x86_regcallcc noundef float @_Z33__regcall3____builtin_invoke_simdXX_2(ptr noundef nonnull @simd_helper_1, float noundef %a)\n",
		"%r2 = call x86_regcallcc noundef float @_Z33__regcall3____builtin_invoke_simdXX_4(ptr noundef nonnull @simd_helper_3, float noundef %r1)\n",
		"define weak_odr dso_local x86_regcallcc <16 x float> @simd_helper_1(<16 x float> %v) #1 \"VCStackCall\" \"VCFunction\" !sycl_explicit_simd !0 !intel_reqd_sub_group_size !2 {\nentry:\n  %call = call x86_regcallcc <16 x float> @scale(<16 x float> %v)\n  ret <16 x float> %call\n}",
		"@simd_helper_3(<16 x float> %v) #1 \"VCStackCall\" \"VCFunction\" !sycl_explicit_simd !0 !intel_reqd_sub_group_size !2 {\nentry:\n  ret <16 x float> zeroinitializer\n}",
		"declare dso_local x86_regcallcc noundef float @_Z33__regcall3____builtin_invoke_simdXX_2(ptr noundef, float noundef)\n",
		"@scale(<16 x float> %x) #1 \"__invoke_simd_target\" alwaysinline \"VCFunction\" !sycl_explicit_simd !0 {",
		"!2 = !{i32 1}\n",
	} {
		if !strings.Contains(ir, want) {
			t.Errorf("module lacks %q:\n%s", want, ir)
		}
	}
	for _, gone := range []string{"@simd_helper(", "@_Z33__regcall3____builtin_invoke_simdXX("} {
		if strings.Contains(ir, gone) {
			t.Errorf("module still has %s:\n%s", gone, ir)
		}
	}
	as, spirv := testenv.Tool(t, "llvm-as-15"), testenv.Tool(t, "llvm-spirv-15")
	bc := filepath.Join(dir, "o.bc")
	for _, cmd := range [][]string{
		{as, "o_0.ll", "-o", bc},
		// spirv-val is not run: it does not know the function pointer
		// operand of the builtin's call (SPV_INTEL_function_pointers).
		{spirv, "--spirv-ext=+all", "-spirv-allow-unknown-intrinsics=llvm.genx.", bc, "-o", filepath.Join(dir, "o.spv")},
	} {
		if out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(cmd, " "), err, out)
		}
	}

	if _, err := runTool(t, t.TempDir(), invokeSimd, "-split=auto", "-split-esimd", "-lower-esimd", "-S", "-o", "o.table"); err == nil ||
		err.Error() != "sycl-post-link: 'invoke_simd' calls detected, '-split-esimd' must not be specified" {
		t.Errorf("-split-esimd: %v", err)
	}
	indirect := strings.Replace(invokeSimd, "ptr noundef nonnull @zero, float", "ptr noundef nonnull %p, float", 1)
	_, err := runTool(t, t.TempDir(), indirect, "-split=auto", "-lower-esimd", "-S", "-o", "o.table")
	const want = "sycl-post-link: <stdin>: @K: invoke_simd: the target %p is not a function known at compile time; sycbuild lowers invoke_simd calls of direct targets only"
	if err == nil || err.Error() != want {
		t.Errorf("indirect target: %v\nwant %s", err, want)
	}
	if names := files(t, "."); len(names) != 0 {
		t.Errorf("files written for the indirect target: %v", names)
	}
}

// TestInvokeSimdSpilledTarget: unoptimised (-O0) helpers spill the target
// parameter to the stack and call through a reload; the clone calls the
// target there too (the slot then holds poison), and is valid IR.
func TestInvokeSimdSpilledTarget(t *testing.T) {
	src := strings.Replace(invokeSimd, `entry:
  %call = call x86_regcallcc <16 x float> %f(<16 x float> %v)`, `entry:
  %f.addr = alloca ptr, align 8
  %f.addr.ascast = addrspacecast ptr %f.addr to ptr addrspace(4)
  store ptr %f,ptr addrspace(4) %f.addr.ascast, align 8
  %0 = load ptr,ptr addrspace(4) %f.addr.ascast, align 8
  %call = call x86_regcallcc <16 x float> %0(<16 x float> %v)`, 1)
	dir := t.TempDir()
	if _, err := runTool(t, dir, src, "-split=auto", "-symbols", "-lower-esimd", "-S", "-o", "o.table"); err != nil {
		t.Fatal(err)
	}
	ir := readFile(t, "o_0.ll")
	for _, want := range []string{
		"store ptr poison,ptr addrspace(4) %f.addr.ascast, align 8\n  %0 = load ptr,ptr addrspace(4) %f.addr.ascast, align 8\n  %call = call x86_regcallcc <16 x float> @scale(<16 x float> %v)\n",
	} {
		if !strings.Contains(ir, want) {
			t.Errorf("module lacks %q:\n%s", want, ir)
		}
	}
	as := testenv.Tool(t, "llvm-as-15")
	if out, err := exec.Command(as, "o_0.ll", "-o", filepath.Join(dir, "o.bc")).CombinedOutput(); err != nil {
		t.Fatalf("llvm-as-15: %v\n%s", err, out)
	}
	// A slot stored twice may hold something else: not the target.
	twice := strings.Replace(src, "  %0 = load ptr", "  store ptr null, ptr %f.addr, align 8\n  %0 = load ptr", 1)
	if _, err := runTool(t, t.TempDir(), twice, "-split=auto", "-lower-esimd", "-S", "-o", "o.table"); err == nil ||
		!strings.Contains(err.Error(), "calls its target 0 times, want once") {
		t.Errorf("a slot stored twice: %v", err)
	}
}

// TestInvokeSimdHelperGoes: a helper that is SYCL_EXTERNAL (an entry point
// of its own) goes once its every call is lowered, as the reference erases
// a cloned helper left without uses; one referenced elsewhere stays.
func TestInvokeSimdHelperGoes(t *testing.T) {
	src := strings.Replace(invokeSimd, "@simd_helper(ptr noundef %f, <16 x float> %v) #1 {", "@simd_helper(ptr noundef %f, <16 x float> %v) #0 {", 1)
	written := func(src string) string {
		t.Helper()
		t.Chdir(t.TempDir())
		if _, err := runTool(t, ".", src, "-split=auto", "-symbols", "-lower-esimd", "-S", "-o", "o.table"); err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		for _, f := range files(t, ".") {
			if strings.HasSuffix(f, ".ll") {
				all.WriteString(readFile(t, f))
			}
		}
		return all.String()
	}
	// The clones, SYCL_EXTERNAL like the helper, are entry points.
	if ir := written(src); strings.Contains(ir, "@simd_helper(") || !strings.Contains(ir, "define weak_odr dso_local x86_regcallcc <16 x float> @simd_helper_1(") {
		t.Errorf("the helper is still there, or its clone is not:\n%s", ir)
	}
	kept := strings.Replace(src, "attributes #0 =", "@keep = global ptr @simd_helper\n\nattributes #0 =", 1)
	if ir := written(kept); !strings.Contains(ir, "@simd_helper(ptr noundef %f") {
		t.Errorf("a helper referenced elsewhere went:\n%s", ir)
	}
}
