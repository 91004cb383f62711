package llvmir

import (
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// Kind says what a top-level entity is.
type Kind uint8

// The kinds of top-level entities, in the order LLVM usually prints them.
const (
	KindSourceFilename Kind = iota + 1 // source_filename = "…"
	KindDataLayout                     // target datalayout = "…"
	KindTriple                         // target triple = "…"
	KindModuleAsm                      // module asm "…"
	KindTypeDef                        // %name = type …
	KindComdat                         // $name = comdat any
	KindGlobalVar                      // @g = … global/constant …
	KindAlias                          // @a = … alias …
	KindIFunc                          // @i = … ifunc …
	KindFunction                       // declare … / define … { … }
	KindAttrGroup                      // attributes #N = { … }
	KindNamedMD                        // !name = !{…}
	KindMDNode                         // !N = [distinct] !{…} or !DIxxx(…)
	KindUseListOrder                   // uselistorder … / uselistorder_bb …
	KindSummary                        // ^N = … (module summary entries, kept as text)
)

var kindNames = [...]string{
	KindSourceFilename: "source_filename",
	KindDataLayout:     "target datalayout",
	KindTriple:         "target triple",
	KindModuleAsm:      "module asm",
	KindTypeDef:        "type",
	KindComdat:         "comdat",
	KindGlobalVar:      "global variable",
	KindAlias:          "alias",
	KindIFunc:          "ifunc",
	KindFunction:       "function",
	KindAttrGroup:      "attribute group",
	KindNamedMD:        "named metadata",
	KindMDNode:         "metadata node",
	KindUseListOrder:   "uselistorder",
	KindSummary:        "summary entry",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "invalid kind"
}

// IsGlobalValue reports whether entities of this kind live in the module's
// @-namespace (functions, global variables, aliases, ifuncs).
func (k Kind) IsGlobalValue() bool {
	return k == KindGlobalVar || k == KindAlias || k == KindIFunc || k == KindFunction
}

// Entity is one top-level item of the module with its exact source bytes.
type Entity struct {
	Kind  Kind
	numAt bool // the text holds an @N reference (renumbering must rewrite it)
	Index int  // position in Module.Entities

	// Lead is the comments and blank lines that precede the entity (they
	// travel with it); Text is the entity itself from its first token up to
	// and including the newline that ends it (absent at the end of a file
	// without a final newline). Both are slices of the module's source.
	Lead []byte
	Text []byte
	Off  int // byte offset of Text in the source

	// What writing a module reads of every entity it writes comes first,
	// in the entity's first cache lines.
	comdat *Entity // the comdat a function or variable is in
	groups []int32 // attribute groups (#N) the entity references, each once

	// Name is the entity's name without its sigil: "foo" for @foo or
	// @"foo" (escapes decoded), "struct.A" for %struct.A, "any" for $any,
	// "llvm.module.flags" for !llvm.module.flags. For numbered entities
	// (@3, %3, !3, #3) Name is the number in decimal, Numbered is true and
	// ID is the number. Header entities have no name.
	Name     string
	Numbered bool
	ID       int

	// Globals is the global values (functions, variables, aliases, ifuncs)
	// this entity references anywhere in its text (header, body,
	// initializer, constant expressions, aliasee, metadata operands), each
	// once, in order of first reference; the entity's own name does not
	// count. Comdats are not global values: see Comdat of the entity's
	// Func or Var.
	Globals []*Entity
	// Metadata is the numbered metadata nodes this entity references
	// directly (attachments, !N operands in bodies and nodes), each once, in
	// order of first reference.
	Metadata []*Entity

	// Exactly one of these is set, matching Kind (none for header kinds,
	// use-list orders and summary entries).
	Func    *Function  // KindFunction
	Var     *GlobalVar // KindGlobalVar
	Alias   *Alias     // KindAlias, KindIFunc
	Group   *AttrGroup // KindAttrGroup
	Node    *MDNode    // KindMDNode
	Named   *NamedMD   // KindNamedMD
	Comdat  *Comdat    // KindComdat
	TypeDef *Type      // KindTypeDef: the named type, shared with every use

	// Str is the unescaped string of KindSourceFilename, KindDataLayout,
	// KindTriple and KindModuleAsm entities.
	Str string

	mark   int32    // scratch: dedup while collecting references
	refs   []rawRef // @-references, resolved into Globals after the parse
	mdRefs []rawMD  // !N references, resolved into Metadata after the parse
	mark2  int32    // scratch: dedup of callees
	mark3  int32    // scratch: dedup of address-taken functions
}

// Module is a parsed textual LLVM IR file.
type Module struct {
	File string // the name used in messages
	Src  []byte // the source; entities' slices point into it

	Entities []*Entity
	Tail     []byte // comments and blank lines after the last entity

	SourceFilename string
	Triple         string
	// DataLayout is the module's parsed "target datalayout" (LLVM's defaults
	// when the module has none).
	DataLayout *DataLayout

	globals   map[string]*Entity // named global values
	numbered  map[int]*Entity    // unnamed global values @N
	mds       map[int]*Entity    // numbered metadata !N
	namedMDs  map[string]*Entity // named metadata
	groups    map[int]*Entity    // attribute groups #N
	comdats   map[string]*Entity // comdats $name
	types     map[string]*Type   // named types, by name (numbered ones as "0", "1", …)
	baseTypes map[string]*Type   // read-only types of the module an edit belongs to (see Plan.reparse)
	lines     []int              // offsets of line starts, built on demand for messages
	linesOnce sync.Once
	maxMD     int // highest numbered metadata id, -1 when none
	maxGroup  int // highest attribute group id, -1 when none
	maxGlobal int // highest unnamed global number, -1 when none

	planIx     *planIndex // what sparse plans share, built on demand (sparse.go)
	planIxOnce sync.Once

	comments     []uint8 // which entities hold comment lines, built on demand (strip.go)
	commentsOnce sync.Once

	referrers     []*Entity // OtherReferrers, built on demand
	referrersOnce sync.Once

	addedParses  sync.Map // added text → *outEntity, its parse (write.go)
	addedParsesN atomic.Int32

	attrKeySet   map[string]bool // attrKeys, built on demand
	attrKeysOnce sync.Once

	relinked     []relinked // by entity index: the first linkage-only render (write.go)
	relinkedOnce sync.Once
}

// Parse reads a module from src; file names it in messages. On error the
// result is an ErrorList of file:line:col messages (and a nil Module). A
// big module's function bodies are read by one worker per CPU; ParseWith
// takes the number from the caller.
func Parse(file string, src []byte) (*Module, error) {
	return parseModule(file, src, runtime.GOMAXPROCS(0))
}

// ParseWith is Parse with at most workers goroutines reading function
// bodies beside the one that reads the module (1 or less: none), so that a
// build's -j bounds them.
func ParseWith(file string, src []byte, workers int) (*Module, error) {
	return parseModule(file, src, workers)
}

// ParseFile reads and parses the file at path.
func ParseFile(path string) (*Module, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Global returns the function, global variable, alias or ifunc named @name
// (name without '@', unescaped), or nil.
func (m *Module) Global(name string) *Entity { return m.globals[name] }

// UnnamedGlobal returns the unnamed global value @n, or nil.
func (m *Module) UnnamedGlobal(n int) *Entity { return m.numbered[n] }

// MD returns the numbered metadata node !n, or nil.
func (m *Module) MD(n int) *Entity { return m.mds[n] }

// NamedMD returns the named metadata !name (name without '!'), or nil.
func (m *Module) NamedMD(name string) *Entity { return m.namedMDs[name] }

// AttrGroup returns the attribute group #n, or nil.
func (m *Module) AttrGroup(n int) *Entity { return m.groups[n] }

// ComdatNamed returns the comdat $name (name without '$'), or nil.
func (m *Module) ComdatNamed(name string) *Entity { return m.comdats[name] }

// NamedType returns the named type %name (name without '%'), or nil when
// the module neither defines nor mentions it.
func (m *Module) NamedType(name string) *Type { return m.types[name] }

// MaxMDID returns the highest numbered metadata id in the module, or -1.
func (m *Module) MaxMDID() int { return m.maxMD }

// MaxAttrGroupID returns the highest attribute group id in the module, or -1.
func (m *Module) MaxAttrGroupID() int { return m.maxGroup }

// Functions returns the module's functions in source order.
func (m *Module) Functions() []*Entity { return m.ofKind(KindFunction) }

// GlobalVars returns the module's global variables in source order.
func (m *Module) GlobalVars() []*Entity { return m.ofKind(KindGlobalVar) }

func (m *Module) ofKind(k Kind) []*Entity {
	var out []*Entity
	for _, e := range m.Entities {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// Attrs returns the attributes of a function (its inline function
// attributes followed by those of its #N groups, in header order) or of a
// global variable (likewise); nil for other entities.
func (m *Module) Attrs(e *Entity) Attrs {
	var inline Attrs
	var groups []int
	switch {
	case e.Func != nil:
		inline, groups = e.Func.FnAttrs, e.Func.AttrGroups
	case e.Var != nil:
		inline, groups = e.Var.Attrs, e.Var.AttrGroups
	default:
		return nil
	}
	if len(groups) == 0 {
		return inline
	}
	out := append(Attrs(nil), inline...)
	for _, g := range groups {
		if ge := m.groups[g]; ge != nil && ge.Group != nil {
			out = append(out, ge.Group.Attrs...)
		}
	}
	return out
}

// Attr returns the value of attribute key of a function or global variable,
// looked up among its inline attributes, then its #N groups, as Attrs(e)
// orders them, without building the merged list.
func (m *Module) Attr(e *Entity, key string) (string, bool) {
	if !m.attrKeys()[key] {
		return "", false // no function or variable of the module has it
	}
	var inline Attrs
	var groups []int
	switch {
	case e.Func != nil:
		inline, groups = e.Func.FnAttrs, e.Func.AttrGroups
	case e.Var != nil:
		inline, groups = e.Var.Attrs, e.Var.AttrGroups
	default:
		return "", false
	}
	if v, ok := inline.Get(key); ok {
		return v, true
	}
	for _, g := range groups {
		if ge := m.groups[g]; ge != nil && ge.Group != nil {
			if v, ok := ge.Group.Attrs.Get(key); ok {
				return v, true
			}
		}
	}
	return "", false
}

// attrKeys returns the keys of every attribute a function or global
// variable of the module has, inline or through its groups: the one pass
// over the module that lets Attr answer at once for the many keys a
// module's functions do not have (properties ask for a dozen keys of every
// function of every module of a split). Safe from several goroutines.
func (m *Module) attrKeys() map[string]bool {
	m.attrKeysOnce.Do(func() {
		keys := map[string]bool{}
		add := func(as Attrs) {
			for i := range as {
				keys[as[i].Key] = true
			}
		}
		for _, e := range m.Entities {
			switch {
			case e.Func != nil:
				add(e.Func.FnAttrs)
			case e.Var != nil:
				add(e.Var.Attrs)
			case e.Group != nil:
				add(e.Group.Attrs)
			}
		}
		m.attrKeySet = keys
	})
	return m.attrKeySet
}

// Position returns the 1-based line and column of a byte offset.
func (m *Module) Position(off int) (line, col int) {
	m.linesOnce.Do(func() { position(m.Src, &m.lines, 0) }) // several goroutines may report errors
	return position(m.Src, &m.lines, off)
}

// Write writes the whole module back; for an unmodified module the output
// is byte-identical to the source.
func (m *Module) Write(w io.Writer) error {
	for _, e := range m.Entities {
		if _, err := w.Write(e.Lead); err != nil {
			return err
		}
		if _, err := w.Write(e.Text); err != nil {
			return err
		}
	}
	_, err := w.Write(m.Tail)
	return err
}
