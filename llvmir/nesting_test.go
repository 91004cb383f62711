package llvmir

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// deep is how deeply the inputs below nest: far beyond any real module,
// deep enough that unbounded recursion would exhaust the goroutine stack.
const deep = 1_000_000

// nest returns open repeated n times, then mid, then close repeated n
// times.
func nest(open, mid, close string, n int) string {
	return strings.Repeat(open, n) + mid + strings.Repeat(close, n)
}

// TestDeepNesting feeds every recursive construct nested a million levels
// deep: each must fail with a positioned error instead of exhausting the
// stack, and the same construct nested to the limit must still parse.
func TestDeepNesting(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  func(n int) string
		want string // the error's position
		// init: the error comes from parsing @g's initializer (global
		// initializers are parsed on demand).
		init bool
		// per: the nesting levels one repetition makes (1 when 0).
		per int
	}{
		{"inline metadata tuples", func(n int) string {
			return "!0 = !{" + nest("!{", "", "}", n) + "}\n"
		}, "d.ll:1:", false, 0},
		{"named metadata operands", func(n int) string {
			return "!n = !{" + nest("!{", "", "}", n) + "}\n"
		}, "d.ll:1:", false, 0},
		{"metadata value in a tuple", func(n int) string {
			return "!0 = !{" + nest("[1 x ", "i8", "]", n) + " zeroinitializer}\n"
		}, "d.ll:1:", false, 0},
		{"array types", func(n int) string {
			return "@g = global " + nest("[1 x ", "i8", "]", n) + " zeroinitializer\n"
		}, "d.ll:1:", false, 0},
		{"vector types", func(n int) string {
			return "@g = global " + nest("<1 x ", "i8", ">", n) + " zeroinitializer\n"
		}, "d.ll:1:", false, 0},
		{"struct types", func(n int) string {
			return "@g = global " + nest("{ ", "i8", " }", n) + " zeroinitializer\n"
		}, "d.ll:1:", false, 0},
		{"packed struct types", func(n int) string {
			return "@g = global " + nest("<{ ", "i8", " }>", n) + " zeroinitializer\n"
		}, "d.ll:1:", false, 0},
		{"function types", func(n int) string {
			return "declare void @f(" + nest("void (", "", ")*", n) + ")\n"
		}, "d.ll:1:", false, 2},
		{"typed pointers", func(n int) string {
			return "@g = global i8" + strings.Repeat("*", n) + " null\n"
		}, "d.ll:1:", false, 0},
		{"target types", func(n int) string {
			return "declare void @f(" + nest("target(\"t\", ", "i8", ")", n) + ")\n"
		}, "d.ll:1:", false, 0},
		{"array constants", func(n int) string {
			return "@g = global [1 x i8] [i8 " + nest("[i8 ", "0", "]", n) + "]\n"
		}, "d.ll:1:", true, 0},
		{"struct constants", func(n int) string {
			return "@g = global { i8 } { i8 " + nest("{ i8 ", "0", " }", n) + " }\n"
		}, "d.ll:1:", true, 0},
		{"vector constants", func(n int) string {
			return "@g = global <1 x i8> <i8 " + nest("<i8 ", "0", ">", n) + ">\n"
		}, "d.ll:1:", true, 0},
		{"constant expressions", func(n int) string {
			return "@a = global i8 0\n@g = global ptr " + nest("getelementptr (i8, ptr ", "@a", ", i64 1)", n) + "\n"
		}, "d.ll:2:", true, 0},
		{"constant expressions in a call", func(n int) string {
			return "declare void @h(ptr)\n@a = global i8 0\ndefine void @f() {\n  call void @h(ptr " +
				nest("getelementptr (i8, ptr ", "@a", ", i64 1)", n) + ")\n  ret void\n}\n"
		}, "d.ll:4:", false, 0},
		{"metadata in a call", func(n int) string {
			return "declare void @h(metadata)\ndefine void @f() {\n  call void @h(metadata " +
				nest("!{", "", "}", n) + ")\n  ret void\n}\n"
		}, "d.ll:3:", false, 0},
		// Named structs nest without recursion in the parser, but the
		// walks over types follow them; a chain is as deep as it is long.
		{"named struct chain", func(n int) string {
			var b strings.Builder
			for i := min(n, 20*MaxNesting); i > 0; i-- {
				b.WriteString("%t" + strconv.Itoa(i) + " = type { %t" + strconv.Itoa(i-1) + " }\n")
			}
			b.WriteString("%t0 = type { i8 }\n")
			return b.String()
		}, "d.ll:1:1: type '%t20000'", false, 0},
		{"named struct chain defined innermost first", func(n int) string {
			b := strings.Builder{}
			b.WriteString("%t0 = type { i8 }\n")
			for i := 1; i <= min(n, 2*MaxNesting); i++ {
				b.WriteString("%t" + strconv.Itoa(i) + " = type { %t" + strconv.Itoa(i-1) + " }\n")
			}
			return b.String()
		}, "d.ll:1000:1: type '%t999'", false, 0},
		{"named array types", func(n int) string {
			b := strings.Builder{}
			b.WriteString("%t0 = type { i8 }\n")
			for i := 1; i <= min(n, 2*MaxNesting); i++ {
				b.WriteString("%t" + strconv.Itoa(i) + " = type [1 x %t" + strconv.Itoa(i-1) + "]\n")
			}
			return b.String()
		}, "d.ll:1002:1: type '%t1001'", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			per := max(tc.per, 1)
			parse := func(n int) error {
				m, err := Parse("d.ll", []byte(tc.src(n)))
				if err != nil || !tc.init {
					return err
				}
				_, err = m.Initializer(m.Global("g"))
				return err
			}
			err := parse(deep)
			var list ErrorList
			if errors.As(err, &list) && len(list) > 0 {
				err = list[0]
			}
			var pos *Error
			if !errors.As(err, &pos) {
				t.Fatalf("error %v, want a positioned error", err)
			}
			msg := pos.Error()
			if !strings.HasPrefix(msg, tc.want) || !strings.HasSuffix(msg, " nested deeper than "+strconv.Itoa(MaxNesting)+" levels") {
				t.Errorf("error %q, want %q…nested deeper than %d levels", msg, tc.want, MaxNesting)
			}
			// Just below the limit (less what the surrounding syntax
			// adds), the construct still parses.
			if n := (MaxNesting - 3) / per; parse(n) != nil {
				t.Errorf("at %d levels: %v", n, parse(n))
			}
		})
	}
}

// TestLayoutSharedTypes: a type that holds another several times, or an
// array of arrays, is sized once per type, not once per path through it
// (2^40 paths here).
func TestLayoutSharedTypes(t *testing.T) {
	const n = 40
	var b strings.Builder
	b.WriteString("%t0 = type { i8, i16 }\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%%t%d = type { %%t%d, %%t%d }\n", i, i-1, i-1)
	}
	b.WriteString("@a = global " + nest("[2 x ", "i32", "]", n) + " zeroinitializer\n")
	m, err := Parse("l.ll", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	l, err := m.DataLayout.Layout(m.NamedType("t" + strconv.Itoa(n)))
	if err != nil || l.Size != 4<<n || l.Align != 2 || l.Offsets[1] != 4<<(n-1) {
		t.Errorf("layout %+v, %v", l, err)
	}
	if s, err := m.DataLayout.AllocSize(m.Global("a").Var.Type); err != nil || s != 4<<n {
		t.Errorf("array size %d, %v", s, err)
	}
}

// TestAliasTypeSize: a named type that is not a struct is written out in
// full wherever it is used; one that doubles at each of 40 levels is
// refused rather than printed.
func TestAliasTypeSize(t *testing.T) {
	var b strings.Builder
	b.WriteString("%t0 = type i32\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "%%t%d = type void (%%t%d, %%t%d)\n", i, i-1, i-1)
	}
	_, err := Parse("a.ll", []byte(b.String()))
	if err == nil || !strings.HasPrefix(err.Error(), "a.ll:16:1: type '%t15' is too large: it expands to more than 65536 types") {
		t.Errorf("error %v", err)
	}
}
