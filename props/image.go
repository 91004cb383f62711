package props

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/sycbuild/sycbuild/llvmir"
)

// This file and the other non-format files of the package compute the
// property sets of one device image from its IR, as the reference's
// computeModuleProperties does (dpcpp-tools.md §3.10). The format files
// (propfile.go, base64.go) know nothing of IR.

// EsimdStatus is the image's sycl-esimd-split-status: what kinds of entry
// points the image holds.
type EsimdStatus uint8

// The split statuses, with the reference's numbering.
const (
	SYCLOnly     EsimdStatus = 0
	ESIMDOnly    EsimdStatus = 1
	SYCLAndESIMD EsimdStatus = 2
)

// Image is one output module as the property computation sees it: the
// parsed input module, which of its entities the output keeps and what the
// per-image processing changed. Computing properties never modifies it.
type Image struct {
	M *llvmir.Module

	// Kept reports whether an entity of M is in the image; nil means every
	// entity is.
	Kept func(*llvmir.Entity) bool
	// Globals, when set, are the global values of M the image holds (those
	// Kept accepts), in module order: the computation then walks them
	// instead of the whole of M, so that it costs what the image holds.
	Globals []*llvmir.Entity
	// Declaration reports whether a kept function is a declaration in the
	// image (a definition the image turned into a declaration counts); nil
	// means as in M.
	Declaration func(*llvmir.Entity) bool

	// EntryPoints are the image's entry points in module order.
	EntryPoints []*llvmir.Entity

	// Esimd is the image's split status.
	Esimd EsimdStatus

	// Cloned says the image was extracted from the input module (a split
	// happened) rather than being the input module itself; it decides the
	// order in which a function's callers are visited (see CallSites).
	Cloned bool

	// SpecConsts are the specialization constants the image's spec-constant
	// lowering recorded (its !sycl.specialization-constants), in order;
	// SpecConstDefaults is the default-value blob of
	// !sycl.specialization-constants-default-values.
	SpecConsts        []SpecConst
	SpecConstDefaults []byte

	// DefaultValueImage marks a copy of an image whose spec constants were
	// replaced by their default values
	// (-generate-device-image-default-spec-consts).
	DefaultValueImage bool

	// Dummy marks the dummy copy of an image of virtual functions: the
	// same functions with empty bodies and without their metadata, which
	// the runtime links instead when the device lacks an optional feature
	// the real ones use. Its definitions' attachments (their aspects among
	// them) do not count.
	Dummy bool

	// funcs and vars are the image's functions and global variables, found
	// on first use.
	funcs, vars []*llvmir.Entity
	listed      bool
	visited     int // entities looked at to list them (tests)
}

// SpecConst is one entry of !sycl.specialization-constants: a symbolic ID
// and its descriptors.
type SpecConst struct {
	SymID string
	Descs []SpecConstDesc
}

// SpecConstDesc is one descriptor of a spec constant: the numeric SPIR-V ID
// of a scalar leaf (0xFFFFFFFF for padding), its offset in the composite
// and its size in bytes.
type SpecConstDesc struct {
	ID, Offset, Size uint32
}

// PaddingID is the ID of a padding descriptor; the runtime skips it.
const PaddingID = 0xFFFFFFFF

// kept reports whether e is in the image.
func (img *Image) kept(e *llvmir.Entity) bool {
	return img.Kept == nil || img.Kept(e)
}

// isDecl reports whether the kept function e is a declaration in the image.
func (img *Image) isDecl(e *llvmir.Entity) bool {
	if img.Declaration != nil {
		return img.Declaration(e)
	}
	return e.Func.Declaration
}

// candidates returns the entities that may be in the image, in module
// order: Globals, or every entity of M.
func (img *Image) candidates() []*llvmir.Entity {
	if img.Globals != nil {
		return img.Globals
	}
	return img.M.Entities
}

// list finds the image's functions and global variables, once.
func (img *Image) list() {
	if img.listed {
		return
	}
	img.listed = true
	cands := img.candidates()
	img.visited += len(cands)
	if img.Globals != nil {
		// An image's own list: its room is made once. (Over the whole
		// module, what Kept leaves out could be most of it.)
		nf, nv := 0, 0
		for _, e := range cands {
			switch e.Kind {
			case llvmir.KindFunction:
				nf++
			case llvmir.KindGlobalVar:
				nv++
			}
		}
		img.funcs = make([]*llvmir.Entity, 0, nf)
		img.vars = make([]*llvmir.Entity, 0, nv)
	}
	for _, e := range cands {
		switch {
		case e.Kind == llvmir.KindFunction && img.kept(e):
			img.funcs = append(img.funcs, e)
		case e.Kind == llvmir.KindGlobalVar && img.kept(e):
			img.vars = append(img.vars, e)
		}
	}
}

// functions returns the image's functions in module order.
func (img *Image) functions() []*llvmir.Entity {
	img.list()
	return img.funcs
}

// globalVars returns the image's global variables in module order.
func (img *Image) globalVars() []*llvmir.Entity {
	img.list()
	return img.vars
}

// global returns the kept global value called name, or nil.
func (img *Image) global(name string) *llvmir.Entity {
	e := img.M.Global(name)
	if e == nil || !img.kept(e) {
		return nil
	}
	return e
}

// attr returns the value of attribute key of a function or global variable
// (inline or through its #N groups).
func (img *Image) attr(e *llvmir.Entity, key string) (string, bool) {
	return img.M.Attr(e, key)
}

func (img *Image) hasAttr(e *llvmir.Entity, key string) bool {
	_, ok := img.attr(e, key)
	return ok
}

// mdUint returns operand i of n as an unsigned integer (LLVM's
// getZExtValue: the value's bits zero-extended from its type's width).
func mdUint(n *llvmir.MDNode, i int) (uint64, bool) {
	if i >= len(n.Ops) {
		return 0, false
	}
	op := &n.Ops[i]
	v, ok := op.Int()
	if !ok {
		return 0, false
	}
	if bits := op.Type.Bits; bits < 64 {
		return uint64(v) & (1<<bits - 1), true
	}
	return uint64(v), true
}

// mdInt returns operand i of n as a signed integer (getSExtValue).
func mdInt(n *llvmir.MDNode, i int) (int64, bool) {
	if i >= len(n.Ops) {
		return 0, false
	}
	op := &n.Ops[i]
	v, ok := op.Int()
	if !ok {
		return 0, false
	}
	if bits := op.Type.Bits; bits < 64 && bits > 0 {
		shift := 64 - bits
		return v << shift >> shift, true
	}
	return v, true
}

// mdString returns operand i of n as a metadata string.
func mdString(n *llvmir.MDNode, i int) (string, bool) {
	if i >= len(n.Ops) || n.Ops[i].Kind != llvmir.MDString {
		return "", false
	}
	return n.Ops[i].Str, true
}

// malformed is the error for metadata the computation cannot read.
func (img *Image) malformed(e *llvmir.Entity, what string) error {
	line, col := img.M.Position(e.Off)
	return &Error{File: img.M.File, Line: line, Col: col, Msg: "malformed " + what + " of @" + e.Name}
}

// attrUint parses a string attribute holding a decimal integer the way
// LLVM's getAsInteger does (0 when it does not parse, as the reference's
// getAttributeAsInteger leaves the value unset).
func attrUint(s string) (uint64, bool) {
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}

// SpecConsts reads back what addSpecConsts wrote: the spec constants in
// file order and the default-value blob (nil without the sets).
func (r *Registry) SpecConsts() ([]SpecConst, []byte, error) {
	var scs []SpecConst
	if set := r.Lookup(SetSpecConstants); set != nil {
		for _, p := range set.Properties() {
			d := p.Data()
			if p.Type != TypeByteArray || len(d)%12 != 0 {
				return nil, nil, fmt.Errorf("[%s] %s is not a list of {ID, offset, size} descriptors", SetSpecConstants, p.Name)
			}
			sc := SpecConst{SymID: p.Name}
			for i := 0; i < len(d); i += 12 {
				sc.Descs = append(sc.Descs, SpecConstDesc{
					ID:     binary.LittleEndian.Uint32(d[i:]),
					Offset: binary.LittleEndian.Uint32(d[i+4:]),
					Size:   binary.LittleEndian.Uint32(d[i+8:]),
				})
			}
			scs = append(scs, sc)
		}
	}
	var defaults []byte
	if defs := r.Lookup(SetSpecConstantsDefaults); defs != nil {
		if all, ok := defs.Get("all"); ok {
			defaults = all.Data()
		}
	}
	return scs, defaults, nil
}
