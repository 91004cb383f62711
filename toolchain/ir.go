package toolchain

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/diag"
	"github.com/sycbuild/sycbuild/llvmir"
)

// IRInfo is what sycbuild needs to know about a device input before
// anything runs: which LLVM generation can read it, and whether it holds
// device code at all.
type IRInfo struct {
	Path    string
	Bitcode bool
	// LLVM is the major version of the LLVM whose tools must process the
	// IR: 15 for typed-pointer text (a newer LLVM would rewrite it in
	// syntax LLVM 15, and so llvm-spirv-15, cannot read), 19 for text using
	// syntax LLVM 15 lacks, 22 for text using syntax LLVM 19 lacks, the
	// producer's version for bitcode (an older LLVM cannot read newer
	// bitcode), and 0 when either will do.
	LLVM int
	// Why says what decided LLVM, for messages ("typed pointers at 12:30").
	Why string
	// Triple is the module's target triple ("" when unknown).
	Triple string
	// Kernels reports kernel definitions, as llvmir defines kernels (a
	// kernel calling convention, or a kernel entry of !nvvm.annotations),
	// which is what the splitter reads too.
	// ExternalDefs reports definitions other translation units could call
	// (SYCL_EXTERNAL functions). An input with neither holds no device code.
	// Both are true for bitcode, which is not inspected.
	Kernels, ExternalDefs bool
}

// HasDeviceCode reports whether the input can contribute anything to a
// device image.
func (i *IRInfo) HasDeviceCode() bool { return i.Kernels || i.ExternalDefs }

// llvm19Only are textual IR constructs that LLVM 15 cannot parse (found in
// what clang-19 emits: attributes, flags and debug records newer than 15).
var llvm19Only = regexp.MustCompile(`\bmemory\((none|read|write|readwrite|argmem|inaccessiblemem)|\brange\(i\d+ |\b(zext|uitofp) nneg\b|\bor disjoint\b|\bgetelementptr (inbounds )?(nuw|nusw)\b|#dbg_(value|declare|assign)\(|\bcaptures\(|\binitializes\(|\bicmp samesign\b|\bsplat \(|\btarget\(`)

// llvm22Only are the constructs of llvm19Only that LLVM 19 cannot parse
// either (captures(…) is LLVM 21's, icmp samesign LLVM 20's): such text
// needs LLVM 22's tools.
var llvm22Only = regexp.MustCompile(`\bcaptures\(|\bicmp samesign\b`)

var tripleRE = regexp.MustCompile(`^target triple\s*=\s*"([^"]*)"`)

// ScanIR inspects a device input without LLVM: for text, one pass over
// the lines; for bitcode, its identification block and triple.
func ScanIR(path string) (*IRInfo, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	info := &IRInfo{Path: path}
	if filepath.Ext(path) == ".bc" || bytes.HasPrefix(data, []byte("BC\xC0\xDE")) || bytes.HasPrefix(data, []byte{0xDE, 0xC0, 0x17, 0x0B}) {
		producer, triple, err := bitcodeInfo(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		info.Bitcode, info.Triple = true, triple
		info.Kernels, info.ExternalDefs = true, true
		if v := producerMajor(producer); v > 0 {
			info.LLVM, info.Why = v, "bitcode written by "+producer
		}
		return info, nil
	}
	if err := scanText(path, data, info); err != nil {
		return nil, err
	}
	if !info.HasDeviceCode() {
		if err := checkWhole(path, data); err != nil {
			return nil, err
		}
	}
	return info, nil
}

// checkWhole checks that text the pre-scan found no device code in is a
// whole module, before the build skips it as holding none: a translation
// unit cut short before its first define looks like such a module. It must
// parse (llvmir, the splitter's parser), and its last line must be whole
// (a cut inside a line often still parses: "align 4" cut to "align").
// Only inputs to be skipped pay for the parse.
func checkWhole(path string, data []byte) error {
	if _, err := llvmir.Parse(path, data); err != nil {
		var e *diag.Error
		var list diag.List
		switch {
		case errors.As(err, &list) && len(list) > 0:
			e = list[0]
		case errors.As(err, &e):
		default:
			return &ScanError{File: path, Line: 1, Col: 1, Msg: "not LLVM IR: " + err.Error()}
		}
		return &ScanError{File: path, Line: e.Line, Col: e.Col, Msg: "not LLVM IR: " + e.Msg}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		line := bytes.Count(data, []byte("\n")) + 1
		col := len(data) - (bytes.LastIndexByte(data, '\n') + 1) + 1
		return &ScanError{File: path, Line: line, Col: col, Msg: "not LLVM IR: the file ends inside a line (cut short?)"}
	}
	return nil
}

// producerMajor returns the major version in "LLVM15.0.6" (0 if none).
func producerMajor(p string) int {
	s, ok := strings.CutPrefix(p, "LLVM")
	if !ok {
		return 0
	}
	s, _, _ = strings.Cut(s, ".")
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0
	}
	return v
}

// ScanError is an input that is not textual LLVM IR, at a position; its
// Msg begins "not LLVM IR: ".
type ScanError = diag.Error

// byteClass sorts bytes for scanText's loop.
var byteClass = func() (c [256]uint8) {
	for b := range 256 {
		switch {
		case b == '"':
			c[b] = clQuote
		case b == ';':
			c[b] = clComment
		case b == '(' || b == '[' || b == '{' || b == '<':
			c[b] = clOpen
		case b == ')' || b == ']' || b == '}' || b == '>':
			c[b] = clClose
		case b == '*':
			c[b] = clStar
		case b == '\t' || b == '\r':
		case b < ' ' || b >= 0x7f:
			c[b] = clBad // IR is ASCII outside strings and comments
		}
	}
	return c
}()

const (
	clPlain = iota
	clQuote
	clComment
	clOpen
	clClose
	clStar
	clBad
)

// topLevel are the ways a line can start an entity of a module (LLVM's
// LLParser::parseTopLevelEntities), besides ';' comments and '}' ending a
// function body.
var topLevel = [][]byte{
	[]byte("define"), []byte("declare"), []byte("attributes"), []byte("source_filename"),
	[]byte("target"), []byte("module"), []byte("uselistorder"), []byte("deplibs"),
	[]byte("@"), []byte("%"), []byte("$"), []byte("!"), []byte("^"),
}

// llvm19Hints are literals one of which every match of llvm19Only holds:
// the regular expression runs only on lines holding one. Each starts with
// a byte that is rare in IR's bulk (not ' ' or 'i'), which keeps
// bytes.Contains at memchr speed.
var llvm19Hints = [][]byte{[]byte("memory("), []byte("range(i"), []byte("nneg"), []byte("disjoint"),
	[]byte("nuw"), []byte("nusw"), []byte("#dbg_"), []byte("captures("), []byte("nitializes("),
	[]byte("samesign"), []byte("splat ("), []byte("target(\"")}

// scanText inspects textual IR in one pass over its bytes, at the speed of
// a memory scan: strings are skipped with IndexByte, and only the few lines
// a cheap test selects are read further: a define line's head and a
// kernel annotation by llvmir's parser (llvmir.ScanDefineHead,
// llvmir.IsKernelAnnotationLine: kernels are what the splitter takes for
// kernels), the target triple and a line holding an LLVM 19 keyword by
// regular expressions. It also
// checks that the text looks like IR at all: ASCII outside strings and
// comments, and each entity at bracket depth 0 starting like one; what
// does not is a *ScanError at its line and column.
func scanText(path string, data []byte, info *IRInfo) error {
	s := textScan{path: path}
	for len(data) > 0 {
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		s.line++
		if s.depth == 0 {
			if err := s.checkEntityStart(l); err != nil {
				return err
			}
		}
		star, quoted, err := s.scanBytes(l)
		if err != nil {
			return err
		}
		s.detectVersion(info, l, star, quoted)
		lineFacts(info, l)
	}
	return nil
}

// textScan is scanText's state from one line to the next.
type textScan struct {
	path  string
	line  int // the current line's number
	depth int // open brackets: inside a function body or a wrapped entity
}

// errAt is the *ScanError "not LLVM IR: …" at byte i of the current line.
func (s *textScan) errAt(i int, format string, args ...any) error {
	return &ScanError{File: s.path, Line: s.line, Col: i + 1, Msg: "not LLVM IR: " + fmt.Sprintf(format, args...)}
}

// checkEntityStart checks that line l, at bracket depth 0, starts like a
// top-level entity, a comment or the end of a function body.
func (s *textScan) checkEntityStart(l []byte) error {
	t := bytes.TrimLeft(l, " \t\r")
	if len(t) > 0 && byteClass[t[0]] == clBad {
		return s.errAt(len(l)-len(t), "unexpected byte 0x%02x", t[0])
	}
	if len(t) > 0 && t[0] != ';' && t[0] != '}' && !hasAnyPrefix(t, topLevel) {
		word := t
		if len(word) > 20 {
			word = word[:20]
		}
		return s.errAt(len(l)-len(t), "expected a top-level entity (define, declare, @global, !metadata, …), found %q", word)
	}
	return nil
}

// scanBytes reads line l up to its comment, skipping strings and tracking
// the bracket depth: where its first '*' outside strings is (-1: none),
// and whether it holds a string.
func (s *textScan) scanBytes(l []byte) (star int, quoted bool, err error) {
	star = -1
scan:
	for i := 0; i < len(l); i++ {
		// Most bytes are plain: skip them in a loop of their own.
		for i < len(l) && byteClass[l[i]] == clPlain {
			i++
		}
		if i == len(l) {
			break
		}
		switch byteClass[l[i]] {
		case clQuote:
			j := bytes.IndexByte(l[i+1:], '"')
			if j < 0 {
				return star, quoted, s.errAt(i, "unterminated string")
			}
			i += 1 + j
			quoted = true
		case clComment:
			break scan
		case clOpen:
			s.depth++
		case clClose:
			if s.depth > 0 {
				s.depth--
			}
		case clStar:
			if star < 0 {
				star = i
			}
		case clBad:
			return star, quoted, s.errAt(i, "unexpected byte 0x%02x", l[i])
		}
	}
	return star, quoted, nil
}

// detectVersion raises info's LLVM version to the one line l needs:
// typed pointers (a '*' outside strings and comments, at star) mean LLVM
// 15; a keyword of LLVM 19 or 22, looked for by regular expression only on
// lines holding one of llvm19Hints, means that version.
func (s *textScan) detectVersion(info *IRInfo, l []byte, star int, quoted bool) {
	if info.LLVM == 0 && star >= 0 {
		// Outside comments and strings, '*' only occurs in typed
		// pointer types (i8*, %T addrspace(4)*).
		info.LLVM, info.Why = 15, fmt.Sprintf("typed pointers at line %d", s.line)
	}
	if info.LLVM != 15 && info.LLVM != 22 && hasAny(l, llvm19Hints) {
		code := l
		if quoted || bytes.IndexByte(l, ';') >= 0 {
			code = stripCommentsAndStrings(l)
		}
		if loc := llvm22Only.FindIndex(code); loc != nil {
			info.LLVM, info.Why = 22, fmt.Sprintf("%q at line %d", code[loc[0]:loc[1]], s.line)
		} else if info.LLVM != 19 {
			if loc := llvm19Only.FindIndex(code); loc != nil {
				info.LLVM, info.Why = 19, fmt.Sprintf("%q at line %d", code[loc[0]:loc[1]], s.line)
			}
		}
	}
}

// lineFacts records in info what line l says of the module: a kernel or
// an external definition on a define line, the target triple, a kernel
// annotation.
func lineFacts(info *IRInfo, l []byte) {
	switch {
	case bytes.HasPrefix(l, []byte("define")):
		h, ok := llvmir.ScanDefineHead(l)
		switch {
		case !ok:
		case llvmir.IsKernelCallingConv(h.CallingConv):
			info.Kernels = true
		case !h.Linkage.DiscardableIfUnused():
			info.ExternalDefs = true
		}
	case bytes.HasPrefix(l, []byte("target triple")):
		if m := tripleRE.FindSubmatch(l); m != nil {
			info.Triple = string(m[1])
		}
	case bytes.HasPrefix(l, []byte("!")) && bytes.Contains(l, []byte(`!"kernel"`)) && llvmir.IsKernelAnnotationLine(l):
		info.Kernels = true
	}
}

func hasAnyPrefix(b []byte, prefixes [][]byte) bool {
	for _, p := range prefixes {
		if bytes.HasPrefix(b, p) {
			return true
		}
	}
	return false
}

func hasAny(b []byte, subs [][]byte) bool {
	for _, s := range subs {
		if bytes.Contains(b, s) {
			return true
		}
	}
	return false
}

// stripCommentsAndStrings blanks out string literals and comments, so that
// their contents are not taken for syntax.
func stripCommentsAndStrings(l []byte) []byte {
	if bytes.IndexByte(l, '"') < 0 && bytes.IndexByte(l, ';') < 0 {
		return l
	}
	out := make([]byte, 0, len(l))
	inStr := false
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case inStr:
			if c == '"' {
				inStr = false
			}
			out = append(out, ' ')
		case c == '"':
			inStr = true
			out = append(out, ' ')
		case c == ';':
			return out
		default:
			out = append(out, c)
		}
	}
	return out
}
