package specconst

import (
	"math"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

// parseValue parses "<type> <constant>" in a module holding types.
func parseValue(t *testing.T, types, typ, text string) *value {
	t.Helper()
	m, err := llvmir.Parse("t.ll", []byte(types))
	if err != nil {
		t.Fatal(err)
	}
	ty, err := m.ParseType(typ)
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.ParseConst(ty, text)
	if err != nil {
		t.Fatalf("ParseConst(%s %s): %v", typ, text, err)
	}
	v, err := fromConst(c)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Constants print as LLVM's writer prints them, whatever their spelling.
func TestValuePrinting(t *testing.T) {
	const types = "%struct.A = type { i32, float }\n%struct.P = type <{ i8, i16 }>\n"
	cases := []struct{ typ, in, want string }{
		{"i32", "42", "42"},
		{"i8", "255", "-1"},
		{"i8", "-1", "-1"},
		{"i1", "true", "true"},
		{"i1", "0", "false"},
		{"i64", "-5", "-5"},
		{"double", "2.0", "2.000000e+00"},
		{"double", "0.1", "1.000000e-01"},
		{"float", "0.1", "0x3FB99999A0000000"},
		{"float", "0x4020666660000000", "0x4020666660000000"},
		{"float", "1.5", "1.500000e+00"},
		{"float", "-0.0", "-0.000000e+00"},
		{"double", "0x7FF0000000000000", "0x7FF0000000000000"},
		{"half", "0xH4000", "0xH4000"},
		{"half", "0xH3c00", "0xH3C00"},
		{"%struct.A", "{ i32 1, float 2.5 }", "{ i32 1, float 2.500000e+00 }"},
		{"%struct.A", "{ i32 0, float 0.0 }", "zeroinitializer"},
		{"%struct.A", "{ i32 0, float -0.0 }", "{ i32 0, float -0.000000e+00 }"},
		{"%struct.A", "{ i32 undef, float undef }", "undef"},
		{"%struct.A", "{ i32 poison, float poison }", "poison"},
		{"%struct.A", "{ i32 undef, float poison }", "undef"},
		{"%struct.P", "<{ i8 1, i16 2 }>", "<{ i8 1, i16 2 }>"},
		{"[3 x i8]", "[i8 65, i8 0, i8 34]", `c"A\00\22"`},
		{"[2 x i8]", `c"\00\00"`, "zeroinitializer"},
		{"[2 x i32]", "[i32 1, i32 2]", "[i32 1, i32 2]"},
		{"<2 x i32>", "<i32 1, i32 2>", "<i32 1, i32 2>"},
		{"<2 x i32>", "<i32 0, i32 0>", "zeroinitializer"},
		{"ptr", "null", "null"},
		{"[2 x %struct.A]", "[%struct.A { i32 1, float 1.0 }, %struct.A zeroinitializer]",
			"[%struct.A { i32 1, float 1.000000e+00 }, %struct.A zeroinitializer]"},
	}
	for _, c := range cases {
		v := parseValue(t, types, c.typ, c.in)
		if got := v.String(); got != c.want {
			t.Errorf("%s %s prints as %q, want %q", c.typ, c.in, got, c.want)
		}
	}
}

func TestElemOfZeroAndUndef(t *testing.T) {
	v := parseValue(t, "%struct.A = type { i32, float }\n", "%struct.A", "zeroinitializer")
	if got := v.elem(1).typed(); got != "float 0.000000e+00" {
		t.Errorf("element 1 of zeroinitializer = %q", got)
	}
	u := parseValue(t, "%struct.A = type { i32, float }\n", "%struct.A", "undef")
	if got := u.elem(0).typed(); got != "i32 undef" {
		t.Errorf("element 0 of undef = %q", got)
	}
}

func TestFloat32ToHalf(t *testing.T) {
	cases := []struct {
		in   float32
		want uint16
	}{
		{1, 0x3C00}, {2, 0x4000}, {-2, 0xC000}, {0.5, 0x3800}, {65504, 0x7BFF}, {65520, 0x7C00},
		{float32(math.Inf(1)), 0x7C00}, {0, 0}, {5.960464477539063e-08, 0x0001}, {6.103515625e-05, 0x0400},
		{1.0009765625, 0x3C01}, {1.00048828125, 0x3C00}, // halfway rounds to even
	}
	for _, c := range cases {
		if got := float32ToHalf(c.in); got != c.want {
			t.Errorf("float32ToHalf(%g) = %#04x, want %#04x", c.in, got, c.want)
		}
	}
}
