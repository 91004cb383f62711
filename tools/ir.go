package tools

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
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
	// syntax LLVM 15 lacks, the producer's version for bitcode (an older
	// LLVM cannot read newer bitcode), and 0 when either will do.
	LLVM int
	// Why says what decided LLVM, for messages ("typed pointers at 12:30").
	Why string
	// Triple is the module's target triple ("" when unknown).
	Triple string
	// Kernels reports kernel definitions (spir_kernel, ptx_kernel,
	// amdgpu_kernel, or functions listed in !nvvm.annotations as kernels).
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
var llvm19Only = regexp.MustCompile(`\bmemory\((none|read|write|readwrite|argmem|inaccessiblemem)|\brange\(i\d+ |\b(zext|uitofp) nneg\b|\bor disjoint\b|\bgetelementptr (inbounds )?(nuw|nusw)\b|#dbg_(value|declare|assign)\(|\bcaptures\(|\binitializes\(|\bicmp samesign\b|\bsplat \(`)

var (
	defineRE  = regexp.MustCompile(`^define\s+(.*?)@("(?:[^"\\]|\\.)*"|[-\w$.]+)\s*\(`)
	tripleRE  = regexp.MustCompile(`^target triple\s*=\s*"([^"]*)"`)
	nvvmKerRE = regexp.MustCompile(`!\{\s*(?:ptr|void \([^)]*\)\*)\s+@[^,]+,\s*!"kernel",\s*i32 1\s*\}`)
)

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
	scanText(data, info)
	return info, nil
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

func scanText(data []byte, info *IRInfo) {
	line := 0
	for len(data) > 0 {
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		line++
		code := stripCommentsAndStrings(l)
		if info.LLVM == 0 {
			if i := bytes.IndexByte(code, '*'); i >= 0 {
				// Outside comments and strings, '*' only occurs in typed
				// pointer types (i8*, %T addrspace(4)*).
				info.LLVM, info.Why = 15, fmt.Sprintf("typed pointers at line %d", line)
			}
		}
		if info.LLVM != 15 && info.LLVM != 19 {
			if loc := llvm19Only.FindIndex(code); loc != nil {
				info.LLVM, info.Why = 19, fmt.Sprintf("%q at line %d", code[loc[0]:loc[1]], line)
			}
		}
		switch {
		case bytes.HasPrefix(l, []byte("define")):
			m := defineRE.FindSubmatch(l)
			if m == nil {
				continue
			}
			head := " " + string(m[1]) + " "
			if strings.Contains(head, " spir_kernel ") || strings.Contains(head, " ptx_kernel ") || strings.Contains(head, " amdgpu_kernel ") {
				info.Kernels = true
			} else if !hasLocalLinkage(head) {
				info.ExternalDefs = true
			}
		case bytes.HasPrefix(l, []byte("target triple")):
			if m := tripleRE.FindSubmatch(l); m != nil {
				info.Triple = string(m[1])
			}
		case bytes.HasPrefix(l, []byte("!")) && nvvmKerRE.Match(l):
			info.Kernels = true
		}
	}
}

// hasLocalLinkage reports linkages no other module can call into:
// internal and private, and the copy-on-use ones every user has its own
// copy of (linkonce, linkonce_odr, available_externally).
func hasLocalLinkage(head string) bool {
	for _, l := range []string{" internal ", " private ", " linkonce ", " linkonce_odr ", " available_externally "} {
		if strings.Contains(head, l) {
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
