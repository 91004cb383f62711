package llvmir

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
)

// scanRef is the scanner as it was before its fast paths, kept as the
// reference the scanner must agree with on every input.
func (p *parser) scanRef(from, to int, f *Function) int {
	src := p.src
	i := from
	depth := 0
	pend := -1
	pendEnd := -1
	prefix := -1
	for i < to {
		c := src[i]
		switch scanClass[c] {
		case sBoring:
			i++
			continue
		case sComment:
			j := bytes.IndexByte(src[i:to], '\n')
			if j < 0 {
				i = to
			} else {
				i += j + 1
			}
			continue
		case sQuote:
			i = p.skipQuotedRef(i, to)
		case sAt:
			start := i
			i++
			switch {
			case i < to && src[i] == '"':
				i = p.skipQuotedRef(i, to)
			case i < to && isDigit(src[i]):
				for i < to && isDigit(src[i]) {
					i++
				}
				p.numAt = true
			default:
				for i < to && (isIdent(src[i]) || src[i] == '\\') {
					i++
				}
				if i == start+1 {
					p.fail(start, "expected a name after '@'")
				}
			}
			if start != p.selfAt {
				p.refs = append(p.refs, rawRef{start: int32(start), end: int32(i), callee: start == p.calleeAt})
			}
		case sExcl:
			start := i
			i++
			switch {
			case i < to && src[i] == '"':
				i = p.skipQuotedRef(i, to)
			case i < to && isDigit(src[i]):
				n := 0
				for i < to && isDigit(src[i]) {
					if n < 1<<30 {
						n = n*10 + int(src[i]-'0')
					}
					i++
				}
				if n >= 1<<30 {
					p.fail(start, "metadata number out of range")
				}
				if start != p.selfAt {
					p.mdRefs = append(p.mdRefs, rawMD{id: int32(n), off: int32(start)})
				}
			default:
				for i < to && (isIdent(src[i]) || src[i] == '\\') {
					i++
				}
			}
		case sPercent:
			start := i
			i++
			if i < to && src[i] == '"' {
				i = p.skipQuotedRef(i, to)
			} else {
				for i < to && (isIdent(src[i]) || src[i] == '\\') {
					i++
				}
			}
			if f != nil {
				j := i
				for j < to && (src[j] == ' ' || src[j] == '\t') {
					j++
				}
				if j < to && src[j] == '=' {
					pend, pendEnd, prefix = start, i, -1
					i = j + 1
					continue
				}
			}
		case sLBrace:
			depth++
			i++
		case sRBrace:
			depth--
			i++
			if f != nil && depth == 0 {
				return i
			}
		case sDigit:
			for i < to && isIdent(src[i]) {
				i++
			}
		case sHash:
			i++
			n := int32(0)
			start := i
			for i < to && isDigit(src[i]) {
				if n < 1<<30 {
					n = n*10 + int32(src[i]-'0')
				}
				i++
			}
			if i > start {
				p.addGroup(n)
			}
		case sLetter:
			start := i
			for i < to && isIdent(src[i]) {
				i++
			}
			if f == nil || (i < to && src[i] == ':') {
				break
			}
			switch w := str(src[start:i]); w {
			case "tail", "musttail", "notail":
				if prefix < 0 {
					prefix = start
				}
				continue
			case "call", "invoke", "callbr":
				cs := start
				if prefix >= 0 {
					cs = prefix
				}
				if pend >= 0 {
					cs = pend
				}
				c := p.parseCall(w, cs, i, pend, pendEnd)
				f.Calls = append(f.Calls, c)
			}
		}
		pend, prefix = -1, -1
	}
	if f != nil {
		p.fail(from, "expected '}' at the end of the function body")
	}
	return to
}

func (p *parser) skipQuotedRef(i, to int) int {
	j := bytes.IndexByte(p.src[i+1:to], '"')
	if j < 0 {
		p.fail(i, "unterminated string")
	}
	return i + 1 + j + 1
}

// scanResult is everything a scan leaves behind.
type scanResult struct {
	End    int
	Err    string
	Refs   []rawRef
	MDRefs []rawMD
	Groups []int32
	NumAt  bool
	Calls  []Call
}

// runScan scans src[from:to] with a fresh parser, with the reference
// scanner when ref is set, as a body when body is set.
func runScan(src []byte, from, to int, body, ref bool) scanResult {
	m := newModule("s.ll", src)
	p := &parser{m: m, file: "s.ll", src: src, lx: lexer{src: src, end: len(src)}, lines: new([]int)}
	p.selfAt, p.calleeAt = -1, -1
	var f *Function
	if body {
		f = new(Function)
	}
	var r scanResult
	err := p.guard(func() {
		if ref {
			r.End = p.scanRef(from, to, f)
		} else {
			r.End = p.scan(from, to, f)
		}
	})
	if err != nil {
		r.Err = err.Error()
	}
	r.Refs, r.MDRefs, r.Groups, r.NumAt = p.refs, p.mdRefs, p.groups, p.numAt
	if f != nil {
		r.Calls = f.Calls
	}
	return r
}

// checkScan fails the test unless the scanner and the reference agree on
// src[from:to], both as a body and not.
func checkScan(t *testing.T, name string, src []byte, from, to int) {
	t.Helper()
	for _, body := range []bool{false, true} {
		got := runScan(src, from, to, body, false)
		want := runScan(src, from, to, body, true)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s [%d:%d] body %v: scan gives\n%+v\nthe reference\n%+v\ninput %q", name, from, to, body, got, want, src[from:min(to, from+400)])
		}
	}
}

// checkBodies compares the scanner with the reference on every '{' of
// src up to where the reference's body ends (or up to the input's end when
// it finds none), and on the whole of src as entity text.
func checkBodies(t *testing.T, name string, src []byte) {
	t.Helper()
	checkScan(t, name, src, 0, len(src))
	for i, c := range src {
		if c != '{' {
			continue
		}
		end := runScan(src, i, len(src), true, true).End
		checkScan(t, name, src, i, end)
	}
}

// scanCases are hand-written inputs of every shape for the scanner.
var scanCases = []string{
	"{\n}\n",
	"{\nentry:\n  %a = add i32 %b, 2\n  ret void\n}\n",
	"{\r\nentry:\r\n  %a = call i32 @f(i32 1) #3\r\n  ret i32 %a\r\n}\r\n",
	"{ ; comment with @g !5 #7 \"quote { }\n  call void @f() ; call @h\n}",
	"{\n  call void @f(ptr @\"quoted name\\22@x\", metadata !\"str !9 @y #2 {\")\n}\n",
	"{\n  %\"name with = and @z\" = call i32 @\"f\\01\"()\n  %\"q\"=tail call i32 @f()\n}\n",
	"{\n  %r = musttail call fastcc i32 @f(i32 %x)\n  ret i32 %r\n}\n",
	"{\n  %r = notail call i32 @f()\n  tail call void @g()\n  tail\n  %x = add i32 1, 2\n}\n",
	"{\n  invoke void @f() to label %ok unwind label %bad\nok:\n  callbr void asm \"\", \"!i\"() to label %a [label %b]\ncall:\n  br label %call\n}\n",
	"{\n  %a = add i32 1, 2 ; trailing\n  %b = call i32 @f(), !dbg !12, !tbaa !{!\"x\"}\n}\n",
	"{\n  call void @f() #0 #12 #0\n  #dbg_value(i32 0, !1, !DIExpression(), !2)\n  # #x\n}\n",
	"{\n  %a = call i32 @10(i32 @2)\n  store i32 0, ptr @3\n}\n",
	"{\n  call void @f(ptr blockaddress(@g, %bb))\n  call void @f(ptr getelementptr (i8, ptr @h, i64 1))\n}\n",
	"{\n  %x = call i32 @f()\n  call \n}\n",                                // a call with no callee
	"{\n  %x = add i32 1, 2\n",                                             // no closing brace
	"{\n  call void @f(ptr \"unterminated\n}\n",                            // unterminated string
	"{\n  call void @f() !\"unterminated",                                  // unterminated metadata string
	"{\n  %\"unterminated = add\n",                                         // unterminated quoted name
	"{\n  @\"unterminated",                                                 // unterminated quoted global
	"{\n  call void @ ()\n}\n",                                             // '@' with no name
	"{\n  @\n",                                                             // '@' at the end
	"{\n  !99999999999 = !{}\n}\n",                                         // metadata number out of range
	"{\n  #99999999999\n}\n",                                               // large group number
	"{\n  %a\\5c = add i32 1, 1\n  %b = add i32 %a\\5c, !x\\y, @c\\d\n}\n", // backslashes in names
	"{\n  %a = \t call void @f()\n  %b\t=\tcall void @g()\n}\n",
	"{\n  %a\n  = call void @f()\n}\n", // '=' on the next line
	"{ { } }",
	"{ } }",
	"}",
	"{\n  %a = add i32 1, 2\n  call",
	"{\n  %a =",
	"{\n  %a",
	"{\n  %",
	"{\n  !",
	"{\n  #",
	"{\n  \"",
	"{\n  ;",
	"{\n  tail",
	"{\n  callx void @f()\n  xcall @g\n  call.x @h\n  call-x\n  CALL\n}\n",
	"{\n  call: call void @f()\n}\n",
	"{\n  9call void @f()\n  $call @g\n  -call\n}\n",
	"{\n  musttailcall void @f()\n  tail tail call void @f()\n}\n",
	"{\n  %x = tail musttail notail call void @f()\n}\n",
	"{\n  c\"@a!1#2\" @b !3 #4\n}\n",
	"{\n  \x80\xff @a \x00 !1\n}\n",
	// Quiet stretches before a call, ending in every kind of line.
	"{\n  %a = add i32 1, 2\n  %b = call i32 @f()\n}\n",
	"{\n  %a = add i32 1, %x\n  %b = call i32 @f()\n}\n",
	"{\n  %a = add i32 1, %x\\5c\n  %b = call i32 @f()\n}\n",
	"{\n  br label %x\n\nx:\n\n  %b = call i32 @f()\n}\n",
	"{\n  %a =\n  call i32 @f()\n}\n",
	"{\n  %a = \r\n\t\n  call i32 @f()\n}\n",
	"{\n  %a = tail\n  call i32 @f()\n}\n",
	"{\n  %a = musttail\n\n notail\n  call i32 @f()\n}\n",
	"{\n  %a = x tail\n  call i32 @f()\n}\n",
	"{\n  %a = tail x\n  call i32 @f()\n}\n",
	"{\n  %a = ,\n  call i32 @f()\n}\n",
	"{\n  %a = (\n)\n  call i32 @f()\n}\n",
	"{\n  %a = 5\n  call i32 @f()\n}\n",
	"{\n  %a = -5\n  call i32 @f()\n}\n",
	"{\n  %a = a-b\n  call i32 @f()\n}\n",
	"{\n  %a = -.$\n  call i32 @f()\n}\n",
	"{\n  %a = x\\y\n  call i32 @f()\n}\n",
	"{\n  %a = %b\n  call i32 @f()\n}\n",
	"{\n  %a = %b =\n  call i32 @f()\n}\n",
	"{\n  %a = %\n  call i32 @f()\n}\n",
	"{\n  %=\n  call i32 @f()\n}\n",
	"{\n  % =\n  call i32 @f()\n}\n",
	"{\n  %a = %\\\n  call i32 @f()\n}\n",
	"{\n  %a = x=tail\n  call i32 @f()\n}\n",
	"{\n  %a = x\\tail\n  call i32 @f()\n}\n",
	"{\n  %a = %x\\tail\n  call i32 @f()\n}\n",
	"{\n  %a = x\\-\n  call i32 @f()\n}\n",
	"{\n%a\n  call i32 @f()\n}\n",
	"{\nx\n  call i32 @f()\n}\n",
	"{\n  %a = add\n  %call = add i32 %call1, 1\n  %b = invoke i32 @f() to label %a unwind label %b\n}\n",
	"{\n  %a = local\n  %b = calloc\n  inv\n  %c = callbr void @f() to label %a []\n}\n",
	"{\n  %a = 2call\n  call void @f()\n}\n",
	"{\n  %a = \"x\" call void @f()\n}\n",
	"{\n  %\"a\" = call void @f()\n  %\"b\"\n  %\"c\"=\n  call void @f()\n}\n",
	"{\n  %a = add i32 1, 2\n  %b = ; why\n  call void @f()\n  ; line\n  call void @g() ; tail\n}\n",
	"{\n  %a = add i32 1, 2 ;\n  %b = tail ;\n\n  call void @f()\n}\n",
	"{\n  %a = add i32 1, 2\n  %b = add i32 %a, 3\n  ret i32 %b\n}\n",
}

// The scanner finds what the reference finds, errors and their offsets
// included, on hand-written inputs of every shape.
func TestScanMatchesReference(t *testing.T) {
	for i, c := range scanCases {
		checkBodies(t, fmt.Sprintf("case %d", i), []byte(c))
	}
}

// FuzzScan compares the scanner with the reference on arbitrary input:
//
//	go test ./llvmir -run '^$' -fuzz FuzzScan -fuzztime 1m
func FuzzScan(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		checkBodies(t, "fuzz", src)
	})
}

// The scanner agrees with the reference on every conformance module and
// on a generated one, and on random mutations and truncations of them.
func TestScanMatchesReferenceOnModules(t *testing.T) {
	var srcs [][]byte
	for _, path := range conformanceIR(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		checkBodies(t, path, src)
		srcs = append(srcs, src)
	}
	var b bytes.Buffer
	if err := irgen.Write(&b, irgen.Small()); err != nil {
		t.Fatal(err)
	}
	checkBodies(t, "irgen.ll", b.Bytes())
	srcs = append(srcs, b.Bytes())

	// Mutations: special bytes dropped in, bytes removed, the text cut.
	rng := rand.New(rand.NewSource(1))
	special := []byte(";\"@!%{}#: =\\\n\r\t09azA_-.$")
	n := 3000
	if testing.Short() {
		n = 300
	}
	for k := range n {
		src := srcs[rng.Intn(len(srcs))]
		// A window of up to 2 KB from a '{' on.
		at := rng.Intn(len(src))
		open := bytes.IndexByte(src[at:], '{')
		if open < 0 {
			continue
		}
		w := src[at+open:]
		w = append([]byte(nil), w[:min(len(w), 2048)]...)
		for range 1 + rng.Intn(4) {
			if len(w) == 0 {
				break
			}
			at := rng.Intn(len(w))
			switch rng.Intn(3) {
			case 0:
				w[at] = special[rng.Intn(len(special))]
			case 1:
				w = append(w[:at], w[at+1:]...)
			case 2:
				w = w[:max(at, 1)]
			}
		}
		checkBodies(t, fmt.Sprintf("mutation %d", k), w)
	}
}
