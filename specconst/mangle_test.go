package specconst

import (
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

func TestMangleFunc(t *testing.T) {
	m, err := llvmir.Parse("t.ll", []byte("%struct.myConst = type { i32, float }\n%struct.ComposConst = type { i32, double, %struct.myConst }\n"))
	if err != nil {
		t.Fatal(err)
	}
	ty := func(s string) *llvmir.Type {
		t.Helper()
		x, err := m.ParseType(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	cases := []struct {
		base   string
		ret    string
		params []string
		want   string
	}{
		{spirvSpecConstant, "i32", []string{"i32", "i32"}, "_Z20__spirv_SpecConstantii"},
		{spirvSpecConstant, "half", []string{"i32", "half"}, "_Z20__spirv_SpecConstantiDh"},
		{spirvSpecConstant, "i64", []string{"i32", "i64"}, "_Z20__spirv_SpecConstantix"},
		{spirvSpecConstant, "i1", []string{"i32", "i8"}, "_Z20__spirv_SpecConstantia"},
		{spirvSpecConstant, "i16", []string{"i32", "i16"}, "_Z20__spirv_SpecConstantis"},
		{spirvSpecConstant, "double", []string{"i32", "double"}, "_Z20__spirv_SpecConstantid"},
		{spirvSpecConstant, "i1", []string{"i32", "i1"}, "_Z20__spirv_SpecConstantib"},
		{spirvSpecConstantComposite, "%struct.myConst", []string{"i32", "float"}, "_Z29__spirv_SpecConstantCompositeif_Rstruct.myConst"},
		{spirvSpecConstantComposite, "%struct.ComposConst", []string{"i32", "double", "%struct.myConst"},
			"_Z29__spirv_SpecConstantCompositeidstruct.myConst_Rstruct.ComposConst"},
		{spirvSpecConstantComposite, "<2 x i32>", []string{"i32", "i32"}, "_Z29__spirv_SpecConstantCompositeii_RDv2_i"},
		{spirvSpecConstantComposite, "[2 x i32]", []string{"i32", "i32"}, "_Z29__spirv_SpecConstantCompositeii_RA2_i"},
		{spirvSpecConstantComposite, "%struct.myConst", []string{"[2 x [2 x [3 x i32]]]"}, "_Z29__spirv_SpecConstantCompositeA2_A2_A3_i_Rstruct.myConst"},
		{spirvSpecConstantComposite, "%struct.myConst", []string{"<2 x i32>"}, "_Z29__spirv_SpecConstantCompositeDv2_i_Rstruct.myConst"},
	}
	for _, c := range cases {
		var ps []*llvmir.Type
		for _, p := range c.params {
			ps = append(ps, ty(p))
		}
		got, err := mangleFunc(c.base, ty(c.ret), ps)
		if err != nil || got != c.want {
			t.Errorf("mangleFunc(%s, %s, %v) = %q, %v; want %q", c.base, c.ret, c.params, got, err, c.want)
		}
	}
	for _, bad := range []string{"i128", "fp128", "ptr", "<vscale x 2 x i32>"} {
		if _, err := mangleType(ty(bad)); err == nil {
			t.Errorf("mangleType(%s) succeeded, want an error", bad)
		}
	}
}
