package bitcode

import (
	"strconv"
	"strings"
	"sync"
)

// attrGroup is a PARAMATTR_GROUP entry: the attributes of one index (the
// function, the return value or a parameter), rendered when first used
// (type attributes need the type table, which comes later).
type attrGroup struct {
	index    uint64 // 0xFFFFFFFF function, 0 return, 1+ parameters
	raw      []uint64
	inline   string // as written on a parameter or a call site
	grouped  string // as written in "attributes #N = { ... }"
	rendered bool
	idx      int // in decoder.groupList
	num      int // printed number, -1 until numbered
}

const fnIndex = 0xFFFFFFFF

// attrNames are the enum and integer attribute kinds, by kind code.
var attrNames = [...]string{
	1: "align", 2: "alwaysinline", 3: "byval", 4: "inlinehint", 5: "inreg",
	6: "minsize", 7: "naked", 8: "nest", 9: "noalias", 10: "nobuiltin",
	11: "nocapture", 12: "noduplicate", 13: "noimplicitfloat", 14: "noinline",
	15: "nonlazybind", 16: "noredzone", 17: "noreturn", 18: "nounwind",
	19: "optsize", 20: "readnone", 21: "readonly", 22: "returned",
	23: "returns_twice", 24: "signext", 25: "alignstack", 26: "ssp",
	27: "sspreq", 28: "sspstrong", 29: "sret", 30: "sanitize_address",
	31: "sanitize_thread", 32: "sanitize_memory", 33: "uwtable", 34: "zeroext",
	35: "builtin", 36: "cold", 37: "optnone", 38: "inalloca", 39: "nonnull",
	40: "jumptable", 41: "dereferenceable", 42: "dereferenceable_or_null",
	43: "convergent", 44: "safestack", 45: "argmemonly", 46: "swiftself",
	47: "swifterror", 48: "norecurse", 49: "inaccessiblememonly",
	50: "inaccessiblemem_or_argmemonly", 51: "allocsize", 52: "writeonly",
	53: "speculatable", 54: "strictfp", 55: "sanitize_hwaddress",
	56: "nocf_check", 57: "optforfuzzing", 58: "shadowcallstack",
	59: "speculative_load_hardening", 60: "immarg", 61: "willreturn",
	62: "nofree", 63: "nosync", 64: "sanitize_memtag", 65: "preallocated",
	66: "nomerge", 67: "null_pointer_is_valid", 68: "noundef", 69: "byref",
	70: "mustprogress", 71: "nocallback", 72: "hot", 73: "noprofile",
	74: "vscale_range", 75: "swiftasync", 76: "nosanitize_coverage",
	77: "elementtype", 78: "disable_sanitizer_instrumentation",
	79: "nosanitize_bounds", 80: "allocalign", 81: "allocptr", 82: "allockind",
	83: "presplitcoroutine", 84: "fn_ret_thunk_extern", 85: "skipprofile",
	86: "memory", 87: "nofpclass", 88: "optdebug", 89: "writable",
	90: "coro_only_destroy_when_complete", 91: "dead_on_unwind", 92: "range",
	93: "sanitize_numerical_stability", 94: "initializes",
	95: "hybrid_patchable", 96: "sanitize_realtime",
	97: "sanitize_realtime_blocking", 98: "coro_elide_safe", 99: "noext",
	100: "nodivergencesource", 101: "sanitize_type", 102: "captures",
	103: "dead_on_return", 104: "sanitize_alloc_token",
	105: "nocreateundeforpoison", 106: "denormal_fpenv", 107: "nooutline",
}

// parseAttrGroups reads PARAMATTR_GROUP_BLOCK (its id read).
func (d *decoder) parseAttrGroups() {
	b := d.EnterBlock(ParamAttrGroupBlockID)
	for d.NextRecord(b) {
		if d.Code != ParamAttrGrpCodeEntry {
			d.failf("unknown record code %d", d.Code)
		}
		if len(d.Ops) < 2 {
			d.failf("bad attribute group")
		}
		g := &attrGroup{index: d.Ops[1], raw: append([]uint64(nil), d.Ops[2:]...), idx: len(d.groupList), num: -1}
		d.groupList = append(d.groupList, g)
		d.attrGroups[d.Ops[0]] = g
	}
	d.Leave()
}

// parseAttrLists reads PARAMATTR_BLOCK (its id read).
func (d *decoder) parseAttrLists() {
	b := d.EnterBlock(ParamAttrBlockID)
	for d.NextRecord(b) {
		switch d.Code {
		case ParamAttrCodeEntry:
			var l []*attrGroup
			for _, g := range d.Ops {
				ag := d.attrGroups[g]
				if ag == nil {
					d.failf("unknown attribute group %d", g)
				}
				l = append(l, ag)
			}
			d.attrLists = append(d.attrLists, l)
		case ParamAttrCodeEntryOld:
			d.failf("old-style attribute lists (LLVM 3.2 and earlier) are not supported")
		default:
			d.failf("unknown record code %d", d.Code)
		}
	}
	d.Leave()
}

// attrList returns the attribute list of a record's paramattr operand (0:
// none).
func (d *decoder) attrList(id uint64) []*attrGroup {
	if id == 0 {
		return nil
	}
	if id-1 >= uint64(len(d.attrLists)) {
		d.failf("attribute list %d out of range", id)
	}
	return d.attrLists[id-1]
}

// attrsAt returns the inline text of list's attributes at index ("" if
// none).
func (d *decoder) attrsAt(list []*attrGroup, index uint64) string {
	for _, g := range list {
		if g.index == index {
			d.renderAttrs(g)
			return g.inline
		}
	}
	return ""
}

// fnAttrRef returns " #N" for the list's function attributes, or "".
func (d *decoder) fnAttrRef(list []*attrGroup) string {
	for _, g := range list {
		if g.index == fnIndex {
			d.renderAttrs(g)
			if g.grouped == "" {
				return ""
			}
			return " " + marker(markAttr, uint32(g.idx))
		}
	}
	return ""
}

// renderAttrs renders an attribute group's attributes, as they print
// inline and in the group's own "attributes #N" line.
func (d *decoder) renderAttrs(g *attrGroup) {
	if g.rendered {
		return
	}
	g.rendered = true
	var in, gr []string
	a := attrReader{d: d, r: g.raw}
	for a.i < len(a.r) {
		var inline, grouped string
		switch k := a.r[a.i]; k {
		case 0, 1, 5, 6, 7, 8:
			inline, grouped = a.kindAttr(k)
		case 3, 4:
			inline = a.stringAttr(k)
			grouped = inline
		default:
			d.failf("unknown attribute encoding %d", k)
		}
		in, gr = append(in, inline), append(gr, grouped)
	}
	g.inline = strings.Join(in, " ")
	g.grouped = strings.Join(gr, " ")
}

// attrReader reads the attributes of a PARAMATTR_GRP_CODE_ENTRY record,
// each an encoding, then its kind or string key, then its value.
type attrReader struct {
	d *decoder
	r []uint64 // the record's attribute operands
	i int      // the next operand
}

// need fails unless n operands are left from i.
func (a *attrReader) need(i, n int) {
	if i+n > len(a.r) {
		a.d.failf("truncated attribute")
	}
}

// strOps returns the operands of the zero-terminated string at i and the
// index past its terminator.
func (a *attrReader) strOps(i int) ([]uint64, int) {
	r := a.r
	j := i
	for j < len(r) && r[j] != 0 {
		j++
	}
	if j >= len(r) {
		a.d.failf("unterminated string attribute")
	}
	return r[i:j], j + 1
}

// kindAttr reads an attribute of a known kind with encoding k: 0 and 5
// (no value), 1 (an integer), 6 (a type), 7 (a range), 8 (a range list).
// It returns the attribute as printed inline and in its group.
func (a *attrReader) kindAttr(k uint64) (string, string) {
	r := a.r
	a.need(a.i, 2)
	kind := r[a.i+1]
	name := ""
	if kind < uint64(len(attrNames)) {
		name = attrNames[kind]
	}
	if name == "" {
		a.d.failf("unknown attribute kind %d", kind)
	}
	a.i += 2
	switch k {
	case 1:
		a.need(a.i, 1)
		in, gr := a.d.intAttr(kind, name, r[a.i])
		a.i++
		return in, gr
	case 6: // with its type
		a.need(a.i, 1)
		s := name + "(" + a.d.tstr(a.d.tyID(r[a.i])) + ")"
		a.i++
		return s, s
	case 7:
		a.need(a.i, 1)
		w := r[a.i]
		a.i++
		var lo, hi string
		lo, hi, a.i = a.d.readRange(r, a.i, w)
		s := name + "(i" + strconv.FormatUint(w, 10) + " " + lo + ", " + hi + ")"
		return s, s
	case 8:
		s := a.rangeListAttr(name)
		return s, s
	}
	return name, name // 0 and 5
}

// rangeListAttr reads the value of a range list attribute: the number of
// ranges, their width, then the ranges; it returns the attribute's text.
func (a *attrReader) rangeListAttr(name string) string {
	r := a.r
	a.need(a.i, 2)
	n, w := r[a.i], r[a.i+1]
	if n > uint64(len(r)) {
		a.d.failf("bad range list attribute")
	}
	a.i += 2
	var sb strings.Builder
	sb.WriteString(name + "(")
	for j := uint64(0); j < n; j++ {
		if j > 0 {
			sb.WriteString(", ")
		}
		var lo, hi string
		lo, hi, a.i = a.d.readRange(r, a.i, w)
		sb.WriteString("(" + lo + ", " + hi + ")")
	}
	sb.WriteString(")")
	return sb.String()
}

// stringAttr reads a string attribute with encoding k: 3 (a key), 4 (a
// key and its value), and returns its text.
func (a *attrReader) stringAttr(k uint64) string {
	key, j := a.strOps(a.i + 1)
	s := quoteString(opsString(key))
	if k == 4 {
		var v []uint64
		v, j = a.strOps(j)
		s += "=" + quoteString(opsString(v))
	}
	a.i = j
	return s
}

// readRange reads a constant range of width w at r[i:]: two sign-rotated
// values, or for w > 64 the active word counts (lower | upper<<32) and
// the words.
func (d *decoder) readRange(r []uint64, i int, w uint64) (string, string, int) {
	if w == 0 || w > 1<<16 {
		d.failf("bad constant range width %d", w)
	}
	if w <= 64 {
		if i+2 > len(r) {
			d.failf("truncated constant range")
		}
		return signedText(r[i], w), signedText(r[i+1], w), i + 2
	}
	if i >= len(r) {
		d.failf("truncated constant range")
	}
	lw, uw := r[i]&0xffffffff, r[i]>>32
	i++
	if uint64(len(r)-i) < lw+uw {
		d.failf("truncated constant range")
	}
	lo := wideIntText(r[i:i+int(lw)], w)
	i += int(lw)
	hi := wideIntText(r[i:i+int(uw)], w)
	return lo, hi, i + int(uw)
}

// signedText renders a sign-rotated bitcode value as a w-bit signed
// integer.
func signedText(v uint64, w uint64) string {
	x := int64(decodeSigned(v))
	if w < 64 {
		x = x << (64 - w) >> (64 - w)
	}
	return strconv.FormatInt(x, 10)
}

// intAttr renders an integer attribute inline and in a group.
func (d *decoder) intAttr(kind uint64, name string, v uint64) (string, string) {
	n := strconv.FormatUint(v, 10)
	switch kind {
	case 1: // align
		return "align " + n, "align=" + n
	case 25: // alignstack
		return "alignstack(" + n + ")", "alignstack=" + n
	case 33: // uwtable
		switch v {
		case 1:
			return "uwtable(sync)", "uwtable(sync)"
		case 0:
			return "", ""
		}
		return "uwtable", "uwtable"
	case 51: // allocsize
		s := "allocsize(" + strconv.FormatUint(v>>32, 10)
		if lo := v & 0xffffffff; lo != 0xffffffff {
			s += "," + strconv.FormatUint(lo, 10)
		}
		s += ")"
		return s, s
	case 74: // vscale_range
		s := "vscale_range(" + strconv.FormatUint(v>>32, 10) + "," + strconv.FormatUint(v&0xffffffff, 10) + ")"
		return s, s
	case 82: // allockind
		var parts []string
		for i, p := range []string{"alloc", "realloc", "free", "uninitialized", "zeroed", "aligned"} {
			if v&(1<<i) != 0 {
				parts = append(parts, p)
			}
		}
		s := "allockind(\"" + strings.Join(parts, ",") + "\")"
		return s, s
	case 86:
		s := d.memoryAttr(v)
		return s, s
	case 87:
		s := "nofpclass(" + fpClassText(v) + ")"
		return s, s
	case 102:
		s := captureText(v)
		return s, s
	}
	s := name + "(" + n + ")"
	return s, s
}

var modRef = [4]string{"none", "read", "write", "readwrite"}

// major is the producing LLVM's major version (0 if unknown).
func (d *decoder) major() int {
	p := strings.TrimPrefix(d.producer, "LLVM")
	if i := strings.IndexByte(p, '.'); i > 0 {
		if n, err := strconv.Atoi(p[:i]); err == nil {
			return n
		}
	}
	return 0
}

// memoryAttr renders memory(...). Encoding version 0 (LLVM 16-19) has
// argmem, inaccessiblemem, other; version 1 adds errnomem before other
// (and LLVM 22 two target memories after it).
func (d *decoder) memoryAttr(v uint64) string {
	version := v >> 56
	v &= 1<<56 - 1
	var locs []string
	if version == 0 {
		locs = []string{"argmem", "inaccessiblemem", ""}
	} else {
		locs = []string{"argmem", "inaccessiblemem", "errnomem", ""}
		if v>>8 != 0 || d.major() >= 22 {
			locs = []string{"argmem", "inaccessiblemem", "errnomem", "", "target_mem0", "target_mem1"}
		}
	}
	mr := func(i int) uint64 { return (v >> (2 * i)) & 3 }
	other := -1
	for i, l := range locs {
		if l == "" {
			other = i
		}
	}
	o := mr(other)
	var parts []string
	all := true
	for i := range locs {
		if mr(i) != o {
			all = false
		}
	}
	if o != 0 || all {
		parts = append(parts, modRef[o])
	}
	for i, l := range locs {
		if l == "" || mr(i) == o {
			continue
		}
		parts = append(parts, l+": "+modRef[mr(i)])
	}
	return "memory(" + strings.Join(parts, ", ") + ")"
}

var fpClasses = []struct {
	mask uint64
	name string
}{
	{1023, "all"}, {3, "nan"}, {1, "snan"}, {2, "qnan"}, {516, "inf"}, {4, "ninf"}, {512, "pinf"},
	{96, "zero"}, {32, "nzero"}, {64, "pzero"}, {144, "sub"}, {16, "nsub"}, {128, "psub"},
	{264, "norm"}, {8, "nnorm"}, {256, "pnorm"},
}

func fpClassText(v uint64) string {
	var parts []string
	for _, c := range fpClasses {
		if v&c.mask == c.mask {
			parts = append(parts, c.name)
			v &^= c.mask
		}
	}
	if v != 0 || len(parts) == 0 {
		return strconv.FormatUint(v, 10)
	}
	return strings.Join(parts, " ")
}

// captureText renders captures(...): the components captured through
// the return value in bits 0-3, through other paths in bits 4-7.
func captureText(v uint64) string {
	ret, other := v&15, (v>>4)&15
	comps := func(c uint64) string {
		switch c {
		case 0:
			return "none"
		case 15:
			return "address, provenance"
		}
		var parts []string
		switch {
		case c&3 == 3:
			parts = append(parts, "address")
		case c&1 != 0:
			parts = append(parts, "address_is_null")
		}
		switch {
		case c&12 == 12:
			parts = append(parts, "provenance")
		case c&4 != 0:
			parts = append(parts, "read_provenance")
		}
		return strings.Join(parts, ", ")
	}
	if other == ret {
		return "captures(" + comps(other) + ")"
	}
	s := "captures("
	if other != 0 {
		s += comps(other) + ", "
	}
	return s + "ret: " + comps(ret) + ")"
}

// decodeSigned undoes the bitcode's sign rotation (sign in bit 0).
func decodeSigned(v uint64) uint64 {
	if v&1 == 0 {
		return v >> 1
	}
	if v != 1 {
		return -(v >> 1)
	}
	return 1 << 63
}

// AttrKind returns the bitcode code of a built-in attribute named as LLVM
// writes it ("noundef", "align"), for writers.
func AttrKind(name string) (uint64, bool) {
	attrKindsOnce.Do(func() {
		attrKinds = make(map[string]uint64, len(attrNames))
		for i, n := range attrNames {
			if n != "" {
				attrKinds[n] = uint64(i)
			}
		}
	})
	k, ok := attrKinds[name]
	return k, ok
}

var (
	attrKinds     map[string]uint64
	attrKindsOnce sync.Once
)
