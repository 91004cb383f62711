package esimd

import (
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

// TestMangleType: LLVM's overloaded-intrinsic suffixes, typed pointers
// with their pointee (LLVM 15), opaque ones without.
func TestMangleType(t *testing.T) {
	m, err := llvmir.Parse("t.ll", []byte("%s = type { i32 }\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ ty, want string }{
		{"i64", "i64"},
		{"<8 x i32>", "v8i32"},
		{"<16 x half>", "v16f16"},
		{"<4 x bfloat>", "v4bf16"},
		{"<2 x double>", "v2f64"},
		{"<8 x i1>", "v8i1"},
		{"i32 addrspace(1)*", "p1i32"},
		{"<16 x i32>*", "p0v16i32"},
		{"<16 x i32 addrspace(4)*>", "v16p4i32"},
		{"ptr addrspace(1)", "p1"},
		{"ptr", "p0"},
		{"<16 x ptr addrspace(3)>", "v16p3"},
		{"[4 x float]", "a4f32"},
		{"{ <8 x i32>, <8 x i32> }", "sl_v8i32v8i32s"},
		{"%s", "s_s"},
		{"<vscale x 4 x i32>", "nxv4i32"},
	} {
		ty, err := m.ParseType(tc.ty)
		if err != nil {
			t.Fatalf("%s: %v", tc.ty, err)
		}
		if got := mangleType(ty); got != tc.want {
			t.Errorf("mangleType(%s) = %s, want %s", tc.ty, got, tc.want)
		}
	}
}

// TestTemplateArgs: template arguments read from mangled names, at the
// width a rule converts them to or, without one, the literal's own (int,
// bool and enumerators i32, unsigned char i8, …), truncated and
// sign-extended as the reference's APInt.
func TestTemplateArgs(t *testing.T) {
	const enum = "LN4sycl3_V13ext5intel5esimd9atomic_opE7E"
	bn, err := demangleBuiltin("_Z12__esimd_testILi16ELh255ELb1E" + enum + "Lm64ELin5ELt65535EEvv")
	if err != nil {
		t.Fatal(err)
	}
	if bn.base != "__esimd_test" {
		t.Errorf("base %q", bn.base)
	}
	for _, tc := range []struct {
		n        int
		bits     uint32
		wantBits uint32
		want     int64
		text     string
	}{
		{0, 0, 32, 16, "16"},
		{1, 0, 8, -1, "-1"},
		{1, 32, 32, 255, "255"},
		{2, 0, 32, 1, "1"},
		{2, 1, 1, -1, "true"},
		{3, 0, 32, 7, "7"},
		{4, 64, 64, 64, "64"},
		{5, 8, 8, -5, "-5"},
		{6, 16, 16, -1, "-1"},
		{6, 0, 16, -1, "-1"},
	} {
		bits, v, err := bn.tmplInt(tc.n, tc.bits)
		if err != nil || bits != tc.wantBits || v != tc.want || intConst(bits, v) != tc.text {
			t.Errorf("tmplInt(%d, %d) = %d, %d (%s), %v; want %d, %d (%s)", tc.n, tc.bits, bits, v, intConst(bits, v), err, tc.wantBits, tc.want, tc.text)
		}
	}
	if _, _, err := bn.tmplInt(7, 0); err == nil {
		t.Error("a missing template argument is not an error")
	}
	bn, err = demangleBuiltin("_Z15__esimd_lane_idv")
	if err != nil || bn.base != "__esimd_lane_id" || len(bn.args) != 0 {
		t.Errorf("no template: %+v, %v", bn, err)
	}
}

// TestTableSignatures: every entry of the table lowers to a GenX
// intrinsic whose definition is known, with as many arguments as the
// entry's rules make.
func TestTableSignatures(t *testing.T) {
	for stem, d := range intrinTable {
		names := []string{d.genx}
		switch d.suffix.kind {
		case numKindSfx:
			names = []string{d.genx + "i", d.genx + "f"}
		case binOpSufx:
			names = nil
			for _, op := range atomicOps {
				names = append(names, d.genx+op)
			}
		}
		for _, n := range names {
			sig, ok := genxSigs[n]
			if !ok {
				t.Errorf("%s: llvm.genx.%s has no signature", stem, n)
				continue
			}
			if len(d.rules) == 1 && d.rules[0].kind == ruleRest {
				continue
			}
			if d.suffix.kind == binOpSufx && len(sig.args) != len(d.rules) {
				continue // another operand count's operation
			}
			if len(sig.args) != len(d.rules) {
				t.Errorf("%s: llvm.genx.%s takes %d arguments, the rules make %d", stem, n, len(sig.args), len(d.rules))
			}
		}
	}
}

// blockSrc loads and stores through a pointer and an SLM offset, and
// gathers; ptr is the module's pointer spelling for an address space.
func blockSrc(ptr func(elem string, as int) string) string {
	return `define spir_func void @f(` + ptr("<8 x i32>", 1) + ` %p, i32 %o, <8 x i64> %a, <8 x i16> %m) {
entry:
  %v = call spir_func <8 x i32> @_Z20__esimd_svm_block_ldIjLi8ELm16EEDv8_jPKDv8_j(` + ptr("<8 x i32>", 1) + ` %p)
  call spir_func void @_Z20__esimd_slm_block_stIjLi8ELm32EEvjDv8_j(i32 %o, <8 x i32> %v)
  %g = call spir_func <8 x i32> @_Z17__esimd_gather_ldIjLi8ELm4EEDv8_jDv8_yDv8_tDv8_j(<8 x i64> %a, <8 x i16> %m, <8 x i32> %v)
  ret void
}

declare spir_func <8 x i32> @_Z20__esimd_svm_block_ldIjLi8ELm16EEDv8_jPKDv8_j(` + ptr("<8 x i32>", 1) + `)
declare spir_func void @_Z20__esimd_slm_block_stIjLi8ELm32EEvjDv8_j(i32, <8 x i32>)
declare spir_func <8 x i32> @_Z17__esimd_gather_ldIjLi8ELm4EEDv8_jDv8_yDv8_tDv8_j(<8 x i64>, <8 x i16>, <8 x i32>)
`
}

// TestLowerBlockAccess: block loads and stores become plain ones aligned
// as the template says, an SLM offset a pointer to address space 3, a
// gather llvm.masked.gather of generic pointers: typed pointers in a
// module of typed pointers, opaque ones otherwise, in the names too.
func TestLowerBlockAccess(t *testing.T) {
	typed := func(elem string, as int) string {
		if as == 0 {
			return elem + "*"
		}
		return elem + " addrspace(" + string(rune('0'+as)) + ")*"
	}
	opaque := func(_ string, as int) string { return "ptr addrspace(" + string(rune('0'+as)) + ")" }
	for _, tc := range []struct {
		name string
		ptr  func(string, int) string
		want string
	}{
		{"typed", typed, `  %v1 = load <8 x i32>, <8 x i32> addrspace(1)* %p, align 16
  %0 = inttoptr i32 %o to <8 x i32> addrspace(3)*
  store <8 x i32> %v1, <8 x i32> addrspace(3)* %0, align 32
  %1 = icmp ne <8 x i16> %m, zeroinitializer
  %2 = inttoptr <8 x i64> %a to <8 x i32 addrspace(4)*>
  %3 = call <8 x i32> @llvm.masked.gather.v8i32.v8p4i32(<8 x i32 addrspace(4)*> %2, i32 4, <8 x i1> %1, <8 x i32> %v1)
`},
		{"opaque", opaque, `  %v1 = load <8 x i32>, ptr addrspace(1) %p, align 16
  %0 = inttoptr i32 %o to ptr addrspace(3)
  store <8 x i32> %v1, ptr addrspace(3) %0, align 32
  %1 = icmp ne <8 x i16> %m, zeroinitializer
  %2 = inttoptr <8 x i64> %a to <8 x ptr addrspace(4)>
  %3 = call <8 x i32> @llvm.masked.gather.v8i32.v8p4(<8 x ptr addrspace(4)> %2, i32 4, <8 x i1> %1, <8 x i32> %v1)
`},
	} {
		out, err := lowerText(t, blockSrc(tc.ptr))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !strings.Contains(out, "entry:\n"+tc.want+"  ret void") {
			t.Errorf("%s: want\n%s\nin\n%s", tc.name, tc.want, out)
		}
	}
}

// TestLowerUnknownBuiltin: a builtin neither in the table nor a special
// case is refused by name.
func TestLowerUnknownBuiltin(t *testing.T) {
	_, err := lowerText(t, `define spir_func void @f() {
  call spir_func void @_Z13__esimd_bogusILi1EEvv()
  ret void
}
declare spir_func void @_Z13__esimd_bogusILi1EEvv()
`)
	const want = "@f calls the ESIMD builtin @_Z13__esimd_bogusILi1EEvv, which sycbuild's ESIMD lowering does not implement (__esimd_bogus is neither in the reference's table of ESIMD intrinsics nor one of its special cases)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %s", err, want)
	}
}
