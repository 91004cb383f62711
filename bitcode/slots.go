package bitcode

import (
	"bytes"
	"encoding/binary"
	"sort"
	"strconv"
)

// Numbering as llvm-dis numbers: metadata nodes, attribute groups and the
// order of named types follow LLVM's SlotTracker and TypeFinder, so that
// the text of a module read from bitcode matches llvm-dis's text of it.
// References are written as markers (markMD, markAttr and an index) and
// resolved once the numbers are known.

const (
	markMD   = 0x03
	markAttr = 0x04
	maxMark  = markAttr
)

// markerLen is the length of a marker starting with kind.
func markerLen(kind byte) int {
	if kind == markBBRef {
		return 9
	}
	return 5
}

// nodeKids lists, for a node entry, the record operands (encoded id+1)
// that are metadata operands of the LLVM node, in the node's operand
// order (the order SlotTracker visits them).
func nodeKids(e *mdEntry) []uint64 {
	r := e.ops
	switch e.code {
	case MetadataNode, MetadataDistinctNode:
		return r
	case MetadataLocation:
		if len(r) < 5 {
			return nil
		}
		return []uint64{r[3] + 1, r[4]}
	case MetadataGenericDebug:
		if len(r) > 4 {
			return r[4:]
		}
		return nil
	case MetadataSubrange:
		// Version 0 (r[0]>>1) has no metadata operands, version 1 its
		// count, version 2 all four bounds.
		if len(r) == 0 || (r[0]>>1 != 1 && r[0]>>1 != 2) {
			return nil
		}
	}
	if int(e.code) >= len(kidPlaces) {
		return nil
	}
	if altKidLayout(e.code, r) {
		return pickOps(r, altKidPlaces[e.code])
	}
	if places := kidPlaces[e.code]; places != nil {
		return pickOps(r, places)
	}
	return nil
}

// kidPlaces are, by record code, the operand indices of a node's metadata
// operands in the node's operand order; a kind with two record layouts
// has its other layout's in altKidPlaces.
var kidPlaces = [...][]int{
	MetadataSubrange:         {1},
	MetadataGenericSubrange:  {1, 2, 3, 4},
	MetadataStringType:       {3, 4},
	MetadataDerivedType:      {3, 5, 6, 11, 13},
	MetadataCompositeType:    {3, 5, 6, 11, 13, 14, 16, 17, 18, 19, 20, 21, 23, 25},
	MetadataSubroutineType:   {2},
	MetadataCompileUnit:      {2, 9, 10, 12, 13, 15},
	MetadataSubprogram:       {4, 1, 6, 12, 14, 15, 8, 13, 17, 18},
	MetadataLexicalBlock:     {2, 1},
	MetadataLexicalBlockFile: {2, 1},
	MetadataCommonBlock:      {1, 2, 4},
	MetadataNamespace:        {1},
	MetadataMacroFile:        {3, 4},
	MetadataTemplateType:     {2},
	MetadataTemplateValue:    {3, 4},
	MetadataGlobalVar:        {1, 4, 6, 9, 10, 12},
	MetadataLocalVar:         {1, 3, 5, 9},
	MetadataLabel:            {1, 3},
	MetadataGlobalVarExpr:    {1},
	MetadataObjCProperty:     {2, 7},
	MetadataImportedEntity:   {2, 3, 6, 7},
	MetadataModule:           {1},
}

// altKidPlaces are kidPlaces for the records altKidLayout picks.
var altKidPlaces = [...][]int{
	MetadataSubrange:      {1, 2, 3, 4},
	MetadataStringType:    {3, 4, 5},
	MetadataTemplateValue: {3, 5},
	MetadataLocalVar:      {2, 4, 6, 9},
	MetadataModule:        {1, 2},
}

// altKidLayout reports whether node record r of kind code has the layout
// of altKidPlaces.
func altKidLayout(code uint8, r []uint64) bool {
	switch code {
	case MetadataSubrange:
		return r[0]>>1 == 2
	case MetadataStringType:
		return len(r) == 9
	case MetadataTemplateValue:
		return len(r) == 6
	case MetadataLocalVar:
		return r[0]&2 == 0 && len(r) > 8
	case MetadataModule:
		return len(r) >= 8
	}
	return false
}

// pickOps returns the operands of r at places, 0 for those past its end.
func pickOps(r []uint64, places []int) []uint64 {
	out := make([]uint64, 0, len(places))
	for _, i := range places {
		if i < len(r) {
			out = append(out, r[i])
		} else {
			out = append(out, 0)
		}
	}
	return out
}

// linkKids resolves the node operands of the entries [from, to) to
// global node indices, once their block is read.
func (d *decoder) linkKids(from, to int) {
	for _, e := range d.mds[from:to] {
		if e.kind != mdNodeKind || e.kids != nil {
			continue
		}
		e.kids = []int32{}
		for _, op := range nodeKids(e) {
			if op == 0 || op-1 >= uint64(len(d.mds)) {
				continue
			}
			if k := d.mds[op-1]; k.kind == mdNodeKind {
				e.kids = append(e.kids, k.gid)
			}
		}
		// DILocations are uniqued: a debug location of an instruction
		// with the same fields is this node.
		if r := e.ops; e.code == MetadataLocation && len(r) >= 5 && r[0]&1 == 0 && r[3] < uint64(len(d.mds)) {
			sc := d.mds[r[3]]
			var ia int32 = -1
			if r[4] != 0 && r[4]-1 < uint64(len(d.mds)) {
				ia = d.mds[r[4]-1].gid
			}
			at := func(i int) uint64 {
				if i < len(r) {
					return r[i]
				}
				return 0
			}
			key := dilocKey{r[1], r[2], uint64(sc.gid), uint64(ia + 1), at(5), at(6), at(7)}
			if _, ok := d.locs[key]; !ok && sc.kind == mdNodeKind {
				d.locs[key] = e.gid
			}
		}
	}
}

// number gives node g and the unnumbered nodes it reaches their numbers,
// in SlotTracker's pre-order.
func (d *decoder) number(g int32) {
	stack := []int32{g}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		e := d.allMD[x]
		if e.num >= 0 {
			continue
		}
		e.num = d.mdNext
		d.mdNext++
		for i := len(e.kids) - 1; i >= 0; i-- {
			if d.allMD[e.kids[i]].num < 0 {
				stack = append(stack, e.kids[i])
			}
		}
	}
}

// numberAttachments numbers a global object's attachments, by kind.
func (d *decoder) numberAttachments(as []mdAttach) {
	s := append([]mdAttach(nil), as...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].kind < s[j].kind })
	for _, a := range s {
		if a.gid >= 0 {
			d.number(a.gid)
		}
	}
}

// numberModule numbers what SlotTracker numbers before any function:
// global variables' attachments, then named metadata.
func (d *decoder) numberModule() {
	if d.numberedModule {
		return
	}
	d.numberedModule = true
	for _, g := range d.globals {
		if g.kind == gVar {
			d.resolveAttach(g)
			d.numberAttachments(g.attach)
		}
	}
	for _, n := range d.namedMD {
		for _, op := range n.ops {
			if op < uint64(len(d.mds)) && d.mds[op].kind == mdNodeKind {
				d.number(d.mds[op].gid)
			}
		}
	}
}

// resolveAttach fills the global node index of module-level attachments.
func (d *decoder) resolveAttach(g *global) {
	for i := range g.attach {
		a := &g.attach[i]
		a.gid = -1
		if a.md < uint64(d.nModuleMDs) && d.mds[a.md].kind == mdNodeKind {
			a.gid = d.mds[a.md].gid
		}
	}
}

// numberDeclsBefore numbers the attachments of the declarations that
// precede function value id (all of them for -1), in module order.
func (d *decoder) numberDeclsBefore(id int32) {
	for ; d.declCursor < len(d.globals); d.declCursor++ {
		g := d.globals[d.declCursor]
		if g.kind != gFunc {
			continue
		}
		if g.id == id {
			d.declCursor++
			return
		}
		if !g.hasBody() {
			d.resolveAttach(g)
			d.numberAttachments(g.attach)
		}
	}
}

func (g *global) hasBody() bool { return g.kind == gFunc && len(g.rec) > 2 && g.rec[2] == 0 }

func mdMarker(gid int32) string { return marker(markMD, uint32(gid)) }

// resolveGlobal replaces metadata, attribute-group and blockaddress
// markers in b.
func (d *decoder) resolveGlobal(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/8)
	for {
		i := indexMarker(b)
		if i < 0 {
			return append(out, b...)
		}
		out = append(out, b[:i]...)
		k := b[i]
		n := markerLen(k)
		if i+n > len(b) || k < markBBRef {
			d.RecPos, d.RecCode = -1, -1
			d.failf("internal: stray marker")
		}
		id := binary.LittleEndian.Uint32(b[i+1:])
		switch k {
		case markMD:
			e := d.allMD[id]
			if e.num < 0 {
				d.number(int32(id))
			}
			out = append(out, '!')
			out = strconv.AppendInt(out, int64(e.num), 10)
		case markAttr:
			out = append(out, '#')
			out = strconv.AppendInt(out, int64(d.groupList[id].num), 10)
		case markBBRef:
			bb := binary.LittleEndian.Uint32(b[i+5:])
			names, ok := d.blockNames[int32(id)]
			if !ok || bb >= uint32(len(names)) {
				d.RecPos, d.RecCode = -1, -1
				d.failf("blockaddress of block %d of a function without that block", bb)
			}
			out = append(out, '%')
			out = append(out, names[bb]...)
		}
		b = b[i+n:]
	}
}

// numberGroups numbers the attribute groups as SlotTracker does: global
// variables', then every function's, then call sites' function by
// function.
func (d *decoder) numberGroups() {
	n := 0
	give := func(g *attrGroup) {
		if g != nil && g.num < 0 {
			g.num = n
			n++
			d.groupOrder = append(d.groupOrder, g)
		}
	}
	for _, g := range d.globals {
		if g.kind == gVar && len(g.rec) > 12 {
			give(fnGroup(d.attrList(g.rec[12])))
		}
	}
	for _, g := range d.globals {
		if g.kind == gFunc {
			give(fnGroup(d.attrList(g.rec[4])))
		}
	}
	for _, g := range d.globals {
		for _, c := range g.callGroups {
			give(c)
		}
	}
}

func fnGroup(list []*attrGroup) *attrGroup {
	for _, g := range list {
		if g.index == fnIndex {
			return g
		}
	}
	return nil
}

// typeOrder returns the identified structs in the order llvm-dis defines
// them: by first mention in text (the globals and functions, in print
// order), each followed by the structs its body mentions (TypeFinder's
// pre-order), then the rest in table order.
func (d *decoder) typeOrder(text []byte) []*typ {
	byName := map[string]*typ{}
	for _, t := range d.types {
		if t != nil && t.ident && t.defined {
			byName[t.str] = t
		}
	}
	seen := map[*typ]bool{}
	var order []*typ
	visit := func(root *typ) {
		stack := []*typ{root}
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if t.ident {
				if seen[t] {
					continue
				}
				seen[t] = true
				order = append(order, t)
			}
			for i := len(t.elems) - 1; i >= 0; i-- {
				e := d.types[t.elems[i]]
				if !e.ident || !seen[e] {
					stack = append(stack, e)
				}
			}
		}
	}
	for i := 0; i < len(text); i++ {
		if text[i] != '%' {
			continue
		}
		j := i + 1
		if j < len(text) && text[j] == '"' {
			k := bytes.IndexByte(text[j+1:], '"')
			if k < 0 {
				break
			}
			j += k + 2
		} else {
			for j < len(text) && isNameChar(text[j]) {
				j++
			}
		}
		if t, ok := byName[string(text[i:j])]; ok && !seen[t] {
			visit(t)
		}
		i = j - 1
	}
	for _, t := range d.types {
		if t != nil && t.ident && t.defined && !seen[t] {
			visit(t)
		}
	}
	return order
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '$' || c == '.' || c == '_'
}
