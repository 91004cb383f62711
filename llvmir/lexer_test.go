package llvmir

import (
	"fmt"
	"strings"
	"testing"
)

func lexAll(src string) (string, string) {
	l := &lexer{src: []byte(src), end: len(src)}
	var parts []string
	for {
		t := l.next()
		if t.kind == tEOF {
			return strings.Join(parts, " "), ""
		}
		if t.kind == tBad {
			return strings.Join(parts, " "), fmt.Sprintf("%d: %s", t.start, l.badMsg)
		}
		parts = append(parts, fmt.Sprintf("%s(%s)", tokNames[t.kind], src[t.start:t.end]))
	}
}

func TestLexer(t *testing.T) {
	for _, tc := range []struct{ src, want, bad string }{
		{`@g @"a \22b" @0 %x %"q r" %12`, `global name(@g) global name(@"a \22b") global number(@0) local name(%x) local name(%"q r") local number(%12)`, ""},
		{`!0 !foo.bar !"s\00" !{ #3 $c $"d e" ^7`, `metadata number(!0) metadata name(!foo.bar) metadata string(!"s\00") '!'(!) punctuation({) attribute group(#3) comdat name($c) comdat name($"d e") summary id(^7)`, ""},
		{`42 -7 1.5 -2.0e+00 1e5 0x3FF0000000000000 0xK4000C000000000000000 0xL0 0xM1 0xH3C00 0xR3F80`, `integer(42) integer(-7) floating-point number(1.5) floating-point number(-2.0e+00) floating-point number(1e5) floating-point number(0x3FF0000000000000) floating-point number(0xK4000C000000000000000) floating-point number(0xL0) floating-point number(0xM1) floating-point number(0xH3C00) floating-point number(0xR3F80)`, ""},
		{`c"ab\00" "s;" ; comment @x` + "\n" + `i32 x86_fp80 ...`, `c string(c"ab\00") string("s;") identifier(i32) identifier(x86_fp80) '...'(...)`, ""},
		{"entry: for.body: 12: \"q\": %\"l\": .L1:", `label(entry:) label(for.body:) label(12:) label("q":) label(%"l":) label(.L1:)`, ""},
		{`= , * ( ) [ ] { } < > | #dbg_value`, `punctuation(=) punctuation(,) punctuation(*) punctuation(() punctuation()) punctuation([) punctuation(]) punctuation({) punctuation(}) punctuation(<) punctuation(>) punctuation(|) debug record(#dbg_value)`, ""},
		{`@x "open`, `global name(@x)`, "3: unterminated string constant"},
		{`@ x`, ``, "0: expected a name after '@'"},
		{`0x`, ``, "0: expected hexadecimal digits"},
		{`- 1`, ``, "0: expected a number"},
		{`#x`, ``, ""},
		{"`", ``, "0: unexpected character"},
	} {
		got, bad := lexAll(tc.src)
		if tc.src == "#x" {
			if got != "debug record(#x)" {
				t.Errorf("#x: %s", got)
			}
			continue
		}
		if got != tc.want || bad != tc.bad {
			t.Errorf("%q:\n got %s [%s]\nwant %s [%s]", tc.src, got, bad, tc.want, tc.bad)
		}
	}
}

func TestQuoting(t *testing.T) {
	for _, tc := range []struct{ in, name, str string }{
		{"plain.name_1$", "plain.name_1$", `"plain.name_1$"`},
		{"0abc", `"0abc"`, `"0abc"`},
		{`a "b"\c`, `"a \22b\22\5Cc"`, `"a \22b\22\5Cc"`},
		{"\x01\xff", `"\01\FF"`, `"\01\FF"`},
	} {
		if got := quoteNameIfNeeded(tc.in); got != tc.name {
			t.Errorf("name %q: %s", tc.in, got)
		}
		if got := quoteString(tc.in); got != tc.str {
			t.Errorf("string %q: %s", tc.in, got)
		}
		if got := unescape([]byte(tc.str[1 : len(tc.str)-1])); got != tc.in {
			t.Errorf("unescape %s: %q", tc.str, got)
		}
	}
}

// TestUnnamedFunctions renumbers unnamed functions and their callers.
func TestUnnamedFunctions(t *testing.T) {
	src := `define void @0() {
  ret void
}

define void @1() {
  call void @1()
  ret void
}

define void @2(ptr %p) {
  call void @1()
  store ptr @"2", ptr %p
  ret void
}

define void @"2"() {
  ret void
}
`
	m, err := Parse("u.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if m.UnnamedGlobal(2) == m.Global("2") || m.Global("2") == nil {
		t.Fatal(`@2 and @"2" confused`)
	}
	p := m.NewPlan()
	p.Drop(m.UnnamedGlobal(0))
	var b strings.Builder
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	// The blank line before @1 is @1's lead and stays with it.
	want := `
define void @0() {
  call void @0()
  ret void
}

define void @1(ptr %p) {
  call void @0()
  store ptr @"2", ptr %p
  ret void
}

define void @"2"() {
  ret void
}
`
	if b.String() != want {
		t.Errorf("output:\n%s", b.String())
	}
	assemble(t, "llvm-as-19", "u.ll", []byte(b.String()))
}
