package llvmir

import "sync"

// Linkage is a global value's linkage type as LLVM spells it.
type Linkage string

// The linkage types. External is also what an entity without a linkage
// keyword has.
const (
	External            Linkage = "external"
	Private             Linkage = "private"
	Internal            Linkage = "internal"
	AvailableExternally Linkage = "available_externally"
	LinkOnce            Linkage = "linkonce"
	Weak                Linkage = "weak"
	Common              Linkage = "common"
	Appending           Linkage = "appending"
	ExternWeak          Linkage = "extern_weak"
	LinkOnceODR         Linkage = "linkonce_odr"
	WeakODR             Linkage = "weak_odr"
)

// IsLocal reports whether the linkage keeps the symbol local to the module
// (private or internal).
func (l Linkage) IsLocal() bool { return l == Private || l == Internal }

// DiscardableIfUnused reports whether a global of this linkage may be
// removed when nothing uses it (LLVM's GlobalValue::isDiscardableIfUnused):
// internal and private, and the copy-on-use ones every user has its own
// copy of (linkonce, linkonce_odr, available_externally). No other module
// can call into such a global.
func (l Linkage) DiscardableIfUnused() bool {
	switch l {
	case Internal, Private, LinkOnce, LinkOnceODR, AvailableExternally:
		return true
	}
	return false
}

// span is a half-open byte range [Start, End) of the module's source.
type span struct{ Start, End int32 }

// GlobalHeader holds what functions, global variables, aliases and ifuncs
// share in their headers.
type GlobalHeader struct {
	Linkage     Linkage // External when no keyword is written
	Preemption  string  // "dso_local", "dso_preemptable" or ""
	Visibility  string  // "default", "hidden", "protected" or ""
	DLLStorage  string  // "dllimport", "dllexport" or ""
	ThreadLocal string  // "thread_local", "thread_local(initialexec)", … or ""
	UnnamedAddr string  // "unnamed_addr", "local_unnamed_addr" or ""
	AddrSpace   int     // addrspace(N); 0 when absent

	linkageAt span // the linkage keyword and its blanks, or an empty span where one goes
	preemptAt span // dso_local / dso_preemptable and its blanks (when written)
	visAt     span // the visibility keyword and its blanks (when written)
	dllAt     span // the DLL storage keyword and its blanks (when written)
}

// Function is a declared or defined function.
type Function struct {
	GlobalHeader
	Declaration bool   // declare (true) or define (false)
	CallingConv string // "" for the C convention; "spir_kernel", "spir_func", "ptx_kernel", "amdgpu_kernel", "cc 10", …
	RetAttrs    Attrs
	RetType     *Type
	Params      []Param
	VarArg      bool
	FnAttrs     Attrs // attributes written inline in the header
	AttrGroups  []int // #N groups named in the header, in order
	Section     string
	Partition   string
	// Comdat is the comdat the function is in ("" when none); a bare
	// "comdat" names the function itself.
	Comdat      string
	Align       uint64 // 0 when absent
	GC          string
	Prefix      string // constant text, "" when absent
	Prologue    string // constant text, "" when absent
	Personality string // constant text, "" when absent
	Attachments []Attachment

	// Calls is every call, invoke and callbr in the body, in order.
	Calls []Call
	// Callees is the distinct direct callees, in order of first call.
	Callees []*Entity
	// AddressTaken is the distinct functions (or aliases and ifuncs) the
	// body or header references other than as the callee of a direct call.
	AddressTaken []*Entity

	typ     *Type // the function type, built on demand
	typOnce sync.Once

	declAt    span   // "define" / "declare"
	attrEnd   int32  // where added function attributes go
	groupAt   span   // the last #N of the header
	dropAt    []span // spans a declaration must lose: comdat, prefix, prologue, personality, attachments
	body      span   // from the "{" to just after the matching "}"
	headerEnd int32  // end of the header (the "{" for a definition)
}

// AttrsEnd returns the source offset where function attributes can be
// added to the header: after its attributes, before its section, comdat,
// metadata attachments and the like.
func (f *Function) AttrsEnd() int { return int(f.attrEnd) }

// Type returns the function's type (return type, parameter types, varargs).
// It is safe to call from several goroutines.
func (f *Function) Type() *Type {
	f.typOnce.Do(func() {
		ps := make([]*Type, len(f.Params))
		for i := range f.Params {
			ps[i] = f.Params[i].Type
		}
		f.typ = &Type{Kind: FuncType, Ret: f.RetType, Fields: ps, VarArg: f.VarArg}
	})
	return f.typ
}

// Param is one formal parameter of a function.
type Param struct {
	Type  *Type
	Attrs Attrs
	Name  string // without '%'; "" when the header gives none

	attrEnd int32 // where added parameter attributes go
}

// GlobalVar is a global variable.
type GlobalVar struct {
	GlobalHeader
	ExternallyInitialized bool
	Constant              bool // "constant" (true) or "global" (false)
	Type                  *Type
	// Init is the initializer's source text ("" for a declaration); parse
	// it with Module.Initializer.
	Init       string
	Section    string
	Partition  string
	Comdat     string // as for Function.Comdat
	Align      uint64
	Attrs      Attrs // attributes written inline
	AttrGroups []int // #N groups
	// Other holds the remaining comma-separated header items verbatim
	// (code_model "…", no_sanitize_address, …).
	Other       []string
	Attachments []Attachment

	initAt span // the initializer (empty at its place for a declaration)
	dropAt []span
}

// IsDeclaration reports whether the variable has no initializer.
func (g *GlobalVar) IsDeclaration() bool { return g.Init == "" }

// Alias is an alias or an ifunc.
type Alias struct {
	GlobalHeader
	IFunc bool
	Type  *Type // the value type (alias) or the resolver function type (ifunc)
	// Target is the aliasee (alias) or resolver (ifunc) constant text.
	Target string
	// Points is the global value Target strips to through casts,
	// getelementptr and other constant expressions (nil when none).
	Points *Entity

	pointsTok span
}

// Call is one call, invoke or callbr instruction of a function body.
type Call struct {
	// Start and End delimit the instruction in the source: from its result
	// name (or the tail/musttail/notail marker, or the opcode) to the end of
	// its last token (function attributes, bundles, metadata attachments,
	// and for invoke/callbr their labels). Pass them to Plan.ReplaceInstr.
	Start, End int
	Op         string // "call", "invoke" or "callbr"
	// Result is the result's name without '%' ("" when the instruction
	// names none); ResultNumbered says it is a numbered value such as %5.
	Result         string
	ResultNumbered bool
	CallingConv    string
	RetAttrs       Attrs
	// Callee is the directly called global value (@f), nil otherwise.
	Callee *Entity
	// CastCallee is, for a callee written as a constant expression (a
	// typed-pointer "bitcast (… @f to …)"), the global it strips to.
	CastCallee *Entity
	// InlineAsm is set for a call of inline assembly.
	InlineAsm bool
	// CalleeText is the callee operand's source text ("@f", "%fp", …).
	CalleeText string
	// FnType is the function type of the call: the explicit one when the
	// instruction writes it, else built from the return type and the
	// argument types.
	FnType *Type
	Args   []Arg
	// FnAttrs and AttrGroups are the call-site function attributes.
	FnAttrs    Attrs
	AttrGroups []int

	calleeTok span // the @callee token of a direct call
	castTok   span // the global token inside a constant-expression callee
}

// Indirect reports whether the call does not name a global directly.
func (c *Call) Indirect() bool { return c.Callee == nil }

// Arg is one argument of a call.
type Arg struct {
	Type  *Type
	Attrs Attrs
	// Value is the operand's source text ("%x", "i8 addrspace(4)* null" is
	// split as Type + "null", constant expressions verbatim).
	Value string
	// Points is the global the value refers to, through casts,
	// getelementptr and other constant expressions; nil when none.
	Points *Entity

	pointsTok span
}

// SRet returns the sret(T) type of the argument, or nil.
func (a *Arg) SRet() *Type { return a.Attrs.TypeOf("sret") }

// SRet returns the sret(T) type of the parameter, or nil.
func (p *Param) SRet() *Type { return p.Attrs.TypeOf("sret") }
