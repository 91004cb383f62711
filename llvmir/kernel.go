package llvmir

// What a kernel is, in one place: a function of a kernel calling
// convention (spir_kernel, ptx_kernel, amdgpu_kernel), or, on NVPTX, a
// function that !nvvm.annotations lists with {ptr @f, !"kernel", i32 1}.
// Module-level code asks IsKernelCallingConv and NVVMKernel; a pre-scan
// that reads lines without parsing the module asks ScanDefineHead and
// IsKernelAnnotationLine, which read those lines with the parser's own
// rules.

// IsKernelCallingConv reports whether cc, as Function.CallingConv holds
// it, is the calling convention of a kernel.
func IsKernelCallingConv(cc string) bool {
	return cc == "spir_kernel" || cc == "ptx_kernel" || cc == "amdgpu_kernel"
}

// NVVMAnnotations is the named metadata that lists NVPTX kernels.
const NVVMAnnotations = "nvvm.annotations"

// NVVMKernel returns the function an !nvvm.annotations operand node marks
// as a kernel, or nil when the node is not such an annotation.
func NVVMKernel(n *MDNode) *Entity {
	if n == nil || !isKernelAnnotation(n.Ops) || n.Ops[0].Global == nil || n.Ops[0].Global.Func == nil {
		return nil
	}
	return n.Ops[0].Global
}

// NVVMKernels returns the functions m's !nvvm.annotations marks as
// kernels.
func (m *Module) NVVMKernels() map[*Entity]bool {
	out := map[*Entity]bool{}
	nm := m.NamedMD(NVVMAnnotations)
	if nm == nil || nm.Named == nil {
		return out
	}
	for i := range nm.Named.Ops {
		if k := NVVMKernel(nm.Named.Ops[i].Target()); k != nil {
			out[k] = true
		}
	}
	return out
}

// isKernelAnnotation reports whether annotation operands read
// {<global value>, !"kernel", i32 1}.
func isKernelAnnotation(ops []MDOperand) bool {
	if len(ops) < 3 {
		return false
	}
	f, key, val := &ops[0], &ops[1], &ops[2]
	if f.Kind != MDValue || (f.Global == nil && f.gtok.End == 0) {
		return false
	}
	if key.Kind != MDString || key.Str != "kernel" {
		return false
	}
	v, ok := val.Int()
	return ok && v == 1
}

// DefineHead is what ScanDefineHead reads of a function definition.
type DefineHead struct {
	Linkage     Linkage
	CallingConv string
}

// ScanDefineHead reads the linkage and calling convention at the start of
// a function definition's line ("define internal spir_kernel void @k(…"),
// without the rest of the module: for pre-scans that must run at the speed
// of a memory scan. ok is false when the line does not start that way.
func ScanDefineHead(line []byte) (h DefineHead, ok bool) {
	p := lineParser(line)
	err := p.guard(func() {
		p.reset(0)
		if !p.isIdent("define") {
			p.failTok("expected define")
		}
		p.next()
		var gh GlobalHeader
		p.parseGlobalHeader(&gh)
		h.Linkage = gh.Linkage
		h.CallingConv = p.parseCallingConv()
	})
	return h, err == nil
}

// IsKernelAnnotationLine reports whether line is a numbered metadata node
// that marks a function as a kernel the way !nvvm.annotations lists it
// ("!3 = !{ptr @k, !"kernel", i32 1}"); which named metadata lists the
// node is not checked, nor that @k is a function.
func IsKernelAnnotationLine(line []byte) bool {
	p := lineParser(line)
	var n *MDNode
	err := p.guard(func() {
		p.reset(0)
		if p.tok.kind != tMetaID {
			p.failTok("expected a metadata node")
		}
		p.next()
		p.expectPunct('=')
		p.acceptIdent("distinct")
		n = p.parseInlineNode()
	})
	return err == nil && isKernelAnnotation(n.Ops)
}

// lineParser returns a parser over one line of a module, not attached to
// it: names stay unresolved.
func lineParser(line []byte) *parser {
	m := newModule("", line)
	return &parser{m: m, src: line, lx: lexer{src: line, end: len(line)}, lines: new([]int)}
}
