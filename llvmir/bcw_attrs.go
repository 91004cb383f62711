package llvmir

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/bitcode"
)

// bcAttrs numbers attribute groups (one index's attributes) and attribute
// lists (the groups of a function, call or global), as the PARAMATTR
// blocks hold them. Both are numbered from 1; 0 is "no attributes".
type bcAttrs struct {
	a      *bcw
	groups [][]uint64 // [index, encoded attributes...]
	gByKey map[string]int
	lists  [][]uint64
	lByKey map[string]int
}

const bcFnIndex = 0xFFFFFFFF

func (at *bcAttrs) init(a *bcw) {
	at.a = a
	at.gByKey = map[string]int{}
	at.lByKey = map[string]int{}
}

// bcSlot is one index of an attribute list and its attributes.
type bcSlot struct {
	index uint64
	attrs Attrs
}

// list numbers an attribute list; off positions errors.
func (at *bcAttrs) list(off int, slots []bcSlot) uint64 {
	var gids []uint64
	var key [128]byte
	for _, sl := range slots {
		if len(sl.attrs) == 0 {
			continue
		}
		enc := []uint64{sl.index}
		for _, x := range sl.attrs {
			enc = at.encode(off, enc, x)
		}
		if len(enc) == 1 {
			continue
		}
		k := appendKey(key[:0], enc)
		g, ok := at.gByKey[string(k)]
		if !ok {
			at.groups = append(at.groups, enc)
			g = len(at.groups)
			at.gByKey[string(k)] = g
		}
		gids = append(gids, uint64(g))
	}
	if len(gids) == 0 {
		return 0
	}
	k := appendKey(key[:0], gids)
	l, ok := at.lByKey[string(k)]
	if !ok {
		at.lists = append(at.lists, gids)
		l = len(at.lists)
		at.lByKey[string(k)] = l
	}
	return uint64(l)
}

// appendKey appends v as a map key (base-36 numbers, each ended by a
// comma) to b: a key looked up as string(b) costs no allocation, one
// stored costs one.
func appendKey(b []byte, v []uint64) []byte {
	for _, x := range v {
		b = strconv.AppendUint(b, x, 36)
		b = append(b, ',')
	}
	return b
}

// groupAttrs returns the attributes of the groups #N.
func (at *bcAttrs) groupAttrs(off int, ids []int) Attrs {
	var out Attrs
	for _, id := range ids {
		g := at.a.m.AttrGroup(id)
		if g == nil {
			continue // llvm-as ignores a group that is never defined
		}
		out = append(out, g.Group.Attrs...)
	}
	return out
}

func (at *bcAttrs) functionList(e *Entity) uint64 {
	f := e.Func
	fn := append(append(Attrs(nil), f.FnAttrs...), at.groupAttrs(e.Off, f.AttrGroups)...)
	slots := []bcSlot{{bcFnIndex, fn}, {0, f.RetAttrs}}
	for i, p := range f.Params {
		slots = append(slots, bcSlot{uint64(i + 1), p.Attrs})
	}
	return at.list(e.Off, slots)
}

func (at *bcAttrs) globalList(e *Entity, attrs Attrs, groups []int) uint64 {
	all := append(append(Attrs(nil), attrs...), at.groupAttrs(e.Off, groups)...)
	return at.list(e.Off, []bcSlot{{bcFnIndex, all}})
}

var bcIntAttrs = map[string]bool{
	"align": true, "alignstack": true, "dereferenceable": true, "dereferenceable_or_null": true,
	"allocsize": true, "vscale_range": true, "allockind": true, "memory": true, "nofpclass": true,
	"captures": true, "uwtable": true,
}

// encode appends one attribute's encoding.
func (at *bcAttrs) encode(off int, enc []uint64, x Attr) []uint64 {
	a := at.a
	if x.String {
		k := uint64(3)
		if x.HasValue {
			k = 4
		}
		enc = append(enc, k)
		enc = append(enc, bcChars(x.Key)...)
		enc = append(enc, 0)
		if x.HasValue {
			enc = append(enc, bcChars(x.Value)...)
			enc = append(enc, 0)
		}
		return enc
	}
	code, ok := bitcode.AttrKind(x.Key)
	if !ok {
		a.unsupported(off, "the attribute "+x.Key)
	}
	switch {
	case typeAttrs[x.Key]:
		if x.Type == nil {
			return append(enc, 5, code)
		}
		return append(enc, 6, code, uint64(a.tys.id(x.Type, off)))
	case x.Key == "range":
		return at.rangeAttr(off, enc, code, x.Value)
	case x.Key == "uwtable":
		if a.gen < 15 {
			return append(enc, 0, code)
		}
		v := uint64(2)
		if x.Value == "sync" {
			v = 1
		}
		return append(enc, 1, code, v)
	case bcIntAttrs[x.Key]:
		return append(enc, 1, code, at.intValue(off, x))
	case x.Key == "initializes":
		return at.initializes(off, enc, code, x.Value)
	}
	if x.HasValue {
		a.unsupported(off, "the attribute "+x.Text())
	}
	return append(enc, 0, code)
}

func (at *bcAttrs) num(off int, s string) uint64 {
	v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil {
		at.a.p.fail(off, "bitcode writer: bad attribute value '"+s+"'")
	}
	return v
}

func (at *bcAttrs) intValue(off int, x Attr) uint64 {
	v := x.Value
	switch x.Key {
	case "allocsize":
		parts := strings.Split(v, ",")
		r := at.num(off, parts[0])<<32 | 0xFFFFFFFF
		if len(parts) > 1 {
			r = r&^0xFFFFFFFF | at.num(off, parts[1])
		}
		return r
	case "vscale_range":
		parts := strings.Split(v, ",")
		lo := at.num(off, parts[0])
		hi := lo
		if len(parts) > 1 {
			hi = at.num(off, parts[1])
		}
		return lo<<32 | hi
	case "allockind":
		var r uint64
		for _, p := range strings.Split(strings.Trim(v, "\""), ",") {
			i := indexOf([]string{"alloc", "realloc", "free", "uninitialized", "zeroed", "aligned"}, strings.TrimSpace(p))
			if i < 0 {
				at.a.unsupported(off, "allockind "+p)
			}
			r |= 1 << i
		}
		return r
	case "memory":
		return at.memory(off, v)
	case "nofpclass":
		var r uint64
		for _, p := range strings.Fields(v) {
			found := false
			for _, c := range bcFPClasses {
				if c.name == p {
					r |= c.mask
					found = true
				}
			}
			if !found {
				r |= at.num(off, p)
			}
		}
		return r
	case "captures":
		return at.captures(off, v)
	}
	return at.num(off, v)
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

var bcFPClasses = []struct {
	mask uint64
	name string
}{
	{1023, "all"}, {3, "nan"}, {1, "snan"}, {2, "qnan"}, {516, "inf"}, {4, "ninf"}, {512, "pinf"},
	{96, "zero"}, {32, "nzero"}, {64, "pzero"}, {144, "sub"}, {16, "nsub"}, {128, "psub"},
	{264, "norm"}, {8, "nnorm"}, {256, "pnorm"},
}

var bcModRef = map[string]uint64{"none": 0, "read": 1, "write": 2, "readwrite": 3}

// memory encodes memory(...): two bits per location. Before LLVM 21
// the locations are argmem, inaccessiblemem and other; from 21 on (the
// encoding's version 1, in bits 56 and up) errnomem comes before other,
// and LLVM 22 adds two target memories after it.
func (at *bcAttrs) memory(off int, v string) uint64 {
	locs := []string{"argmem", "inaccessiblemem", ""}
	var version uint64
	switch {
	case at.a.gen >= 22:
		locs, version = []string{"argmem", "inaccessiblemem", "errnomem", "", "target_mem0", "target_mem1"}, 1
	case at.a.gen >= 21:
		locs, version = []string{"argmem", "inaccessiblemem", "errnomem", ""}, 1
	}
	var other uint64
	set := map[string]uint64{}
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if i := strings.IndexByte(part, ':'); i >= 0 {
			loc, mr := strings.TrimSpace(part[:i]), strings.TrimSpace(part[i+1:])
			m, ok := bcModRef[mr]
			if !ok || indexOf(locs, loc) < 0 {
				at.a.unsupported(off, "memory("+v+")")
			}
			set[loc] = m
			continue
		}
		m, ok := bcModRef[part]
		if !ok {
			at.a.unsupported(off, "memory effect "+part)
		}
		other = m
	}
	r := version << 56
	for i, l := range locs {
		m, ok := set[l]
		if !ok || l == "" {
			m = other
		}
		r |= m << (2 * i)
	}
	return r
}

// captures encodes captures(...): the components through the return
// value in bits 0-3, through other paths in bits 4-7.
func (at *bcAttrs) captures(off int, v string) uint64 {
	comps := func(s string) uint64 {
		var r uint64
		for _, p := range strings.Split(s, ",") {
			switch strings.TrimSpace(p) {
			case "none":
			case "address":
				r |= 3
			case "address_is_null":
				r |= 1
			case "provenance":
				r |= 12
			case "read_provenance":
				r |= 4
			default:
				at.a.unsupported(off, "captures("+v+")")
			}
		}
		return r
	}
	if i := strings.Index(v, "ret:"); i >= 0 {
		other := uint64(0)
		if o := strings.TrimRight(strings.TrimSpace(v[:i]), ", "); o != "" {
			other = comps(o)
		}
		return other<<4 | comps(v[i+4:])
	}
	c := comps(v)
	return c<<4 | c
}

// rangeAttr encodes range(iN lo, hi).
func (at *bcAttrs) rangeAttr(off int, enc []uint64, code uint64, v string) []uint64 {
	f := strings.Fields(strings.ReplaceAll(v, ",", " "))
	if len(f) != 3 || !strings.HasPrefix(f[0], "i") {
		at.a.unsupported(off, "range("+v+")")
	}
	w := at.num(off, f[0][1:])
	lo, ok1 := new(big.Int).SetString(f[1], 10)
	hi, ok2 := new(big.Int).SetString(f[2], 10)
	if !ok1 || !ok2 || w == 0 {
		at.a.unsupported(off, "range("+v+")")
	}
	enc = append(enc, 7, code, w)
	if w <= 64 {
		return append(enc, bcSignedBig(lo, w), bcSignedBig(hi, w))
	}
	// Wider: the active word counts of both bounds, then their words.
	lw, uw := bcWideWords(lo, w), bcWideWords(hi, w)
	enc = append(enc, uint64(len(lw))|uint64(len(uw))<<32)
	return append(append(enc, lw...), uw...)
}

// bcWideWords returns a w-bit integer's active 64-bit words (at least
// one), least significant first, each sign-rotated as LLVM writes them.
func bcWideWords(v *big.Int, w uint64) []uint64 {
	m := new(big.Int).And(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1)))
	n := (m.BitLen() + 63) / 64
	if n == 0 {
		n = 1
	}
	out := make([]uint64, n)
	mask := new(big.Int).SetUint64(^uint64(0))
	for i := range out {
		out[i] = bcSignRotate(new(big.Int).And(new(big.Int).Rsh(m, uint(64*i)), mask).Uint64(), 64)
	}
	return out
}

// initializes encodes initializes((lo, hi), …): the count, the width
// (64), then each range's bounds.
func (at *bcAttrs) initializes(off int, enc []uint64, code uint64, v string) []uint64 {
	f := strings.FieldsFunc(v, func(r rune) bool { return r == '(' || r == ')' || r == ',' || r == ' ' })
	if len(f) == 0 || len(f)%2 != 0 {
		at.a.unsupported(off, "initializes("+v+")")
	}
	enc = append(enc, 8, code, uint64(len(f)/2), 64)
	for _, b := range f {
		n, ok := new(big.Int).SetString(b, 10)
		if !ok {
			at.a.unsupported(off, "initializes("+v+")")
		}
		enc = append(enc, bcSignedBig(n, 64))
	}
	return enc
}

// bcSignedBig encodes an integer of width w (≤ 64) as LLVM writes signed
// values: sign-extended, sign in bit 0.
func bcSignedBig(v *big.Int, w uint64) uint64 {
	u := new(big.Int).And(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))).Uint64()
	return bcSignRotate(u, w)
}

func bcSignRotate(v, width uint64) uint64 {
	if width < 64 {
		v &= 1<<width - 1
		if v>>(width-1)&1 != 0 {
			v |= ^uint64(0) << width
		}
	}
	s := int64(v)
	if s >= 0 {
		return uint64(s) << 1
	}
	return uint64(-s)<<1 | 1
}

func (at *bcAttrs) write() {
	s := at.a.s
	if len(at.groups) == 0 {
		return
	}
	s.EnterBlock(bitcode.ParamAttrGroupBlockID, 3)
	for i, g := range at.groups {
		s.Record(bitcode.ParamAttrGrpCodeEntry, append([]uint64{uint64(i + 1)}, g...)...)
	}
	s.ExitBlock()
	s.EnterBlock(bitcode.ParamAttrBlockID, 3)
	for _, l := range at.lists {
		s.Record(bitcode.ParamAttrCodeEntry, l...)
	}
	s.ExitBlock()
}
