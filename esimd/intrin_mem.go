package esimd

import (
	"fmt"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// abiAlign is the ABI alignment of t in the module's data layout.
func (l *lowering) abiAlign(t *llvmir.Type) (uint64, error) {
	dl := l.mod.M.DataLayout
	if dl == nil {
		var err error
		if dl, err = llvmir.ParseDataLayout(""); err != nil {
			return 0, err
		}
	}
	return dl.ABIAlign(t)
}

// ptrTo is the pointer to elem in address space as, typed when the module
// uses typed pointers.
func (l *lowering) ptrTo(elem *llvmir.Type, as uint32) *llvmir.Type {
	p := &llvmir.Type{Kind: llvmir.PtrType, AddrSpace: as}
	if l.typedPointers() {
		p.Elem = elem
	}
	return p
}

// typedPointers reports whether the module's pointers are typed ("T*",
// LLVM 15 and older IR) rather than opaque ("ptr"): what the first
// pointer among the functions' parameters and call arguments is.
func (l *lowering) typedPointers() bool {
	if l.typed == 0 {
		l.typed = 2
	scan:
		for _, f := range l.mod.Funcs {
			for _, p := range f.Func.Params {
				if p.Type != nil && p.Type.Kind == llvmir.PtrType {
					l.typed = 1 + b2u(p.Type.Elem != nil)
					break scan
				}
			}
			for i := range f.Func.Calls {
				for _, a := range f.Func.Calls[i].Args {
					if a.Type != nil && a.Type.Kind == llvmir.PtrType {
						l.typed = 1 + b2u(a.Type.Elem != nil)
						break scan
					}
				}
			}
		}
	}
	return l.typed == 2
}

func b2u(v bool) uint8 {
	if v {
		return 1
	}
	return 0
}

// alignArg is the alignment the builtin's template argument 2 gives, or
// the ABI alignment of t when it is 0 (LLVM's MaybeAlign).
func (l *lowering) alignArg(bn *builtinName, t *llvmir.Type) (uint64, error) {
	_, v, err := bn.tmplInt(2, 64)
	if err != nil {
		return 0, err
	}
	if v > 0 {
		return uint64(v), nil
	}
	return l.abiAlign(t)
}

// slmPointer converts the SLM offset g (an i32) into a pointer to elem in
// address space 3, as the reference's IntToPtr (folded for a constant).
func (l *lowering) slmPointer(b *llvmir.BodyEdit, g genxArg, elem *llvmir.Type) (genxArg, []string) {
	pt := l.ptrTo(elem, 3)
	if !strings.HasPrefix(g.val, "%") {
		return genxArg{pt, fmt.Sprintf("inttoptr (%s to %s)", g, pt)}, nil
	}
	v := b.NewValue()
	return genxArg{pt, v}, []string{fmt.Sprintf("%s = inttoptr %s to %s", v, g, pt)}
}

// loadName is the name of a value replacing call c that takes c's name
// while c still exists (made unique), or a new unnamed value.
func loadName(b *llvmir.BodyEdit, c *llvmir.Call) string {
	if n := localName(c); n != "" {
		return "%" + llvmir.QuoteName(b.NewName(n))
	}
	return b.NewValue()
}

// lowerBlockLoad is the reference's translateBlockLoad: __esimd_svm_block_ld
// and __esimd_slm_block_ld become a load of the result type aligned as
// template argument 2 says, from the pointer argument (SLM: from the i32
// offset made an address space 3 pointer).
func (l *lowering) lowerBlockLoad(f *llvmir.Entity, c *llvmir.Call, bn *builtinName, slm bool) error {
	if len(c.Args) < 1 {
		return fmt.Errorf("argument 0 is missing")
	}
	data := c.FnType.Ret
	align, err := l.alignArg(bn, data)
	if err != nil {
		return err
	}
	b := l.body(f)
	p, lines, err := l.blockPointer(b, c, data, slm)
	if err != nil {
		return err
	}
	v := loadName(b, c)
	lines = append(lines, fmt.Sprintf("%s = load %s, %s, align %d", v, data, p, align))
	l.replaceCall(b, c, c.Result, v, lines...)
	return nil
}

// lowerBlockStore is the reference's translateBlockStore: the store of
// argument 1 to argument 0, aligned as template argument 2 says.
func (l *lowering) lowerBlockStore(f *llvmir.Entity, c *llvmir.Call, bn *builtinName, slm bool) error {
	if len(c.Args) < 2 {
		return fmt.Errorf("arguments 0 and 1 are expected")
	}
	data := genxArg{c.Args[1].Type, c.Args[1].Value}
	align, err := l.alignArg(bn, data.ty)
	if err != nil {
		return err
	}
	b := l.body(f)
	p, lines, err := l.blockPointer(b, c, data.ty, slm)
	if err != nil {
		return err
	}
	lines = append(lines, fmt.Sprintf("store %s, %s, align %d", data, p, align))
	l.replaceCall(b, c, "", "", lines...)
	return nil
}

// lowerGatherLoad is the reference's translateGatherLoad: __esimd_gather_ld
// and __esimd_slm_gather_ld become llvm.masked.gather of the addresses
// (argument 0 made a vector of pointers, generic or SLM), the mask
// (argument 1 compared "ne 0") and the pass-through value (argument 2),
// aligned as template argument 2 says.
func (l *lowering) lowerGatherLoad(f *llvmir.Entity, c *llvmir.Call, bn *builtinName, slm bool) error {
	if len(c.Args) < 3 {
		return fmt.Errorf("arguments 0 to 2 are expected")
	}
	data := c.FnType.Ret
	if data.Kind != llvmir.VectorType {
		return fmt.Errorf("a vector result is expected, not %s", data)
	}
	_, align, err := bn.tmplInt(2, 64)
	if err != nil {
		return err
	}
	b := l.body(f)
	mask, line, err := toI1(b, genxArg{c.Args[1].Type, c.Args[1].Value})
	if err != nil {
		return fmt.Errorf("mask: %v", err)
	}
	var lines []string
	if line != "" {
		lines = append(lines, line)
	}
	as := uint32(4)
	if slm {
		as = 3
	}
	vp := &llvmir.Type{Kind: llvmir.VectorType, Len: data.Len, Elem: l.ptrTo(data.Elem, as)}
	off := genxArg{c.Args[0].Type, c.Args[0].Value}
	ptrs := genxArg{vp, fmt.Sprintf("inttoptr (%s to %s)", off, vp)}
	if strings.HasPrefix(off.val, "%") {
		ptrs.val = b.NewValue()
		lines = append(lines, fmt.Sprintf("%s = inttoptr %s to %s", ptrs.val, off, vp))
	}
	name := "llvm.masked.gather." + mangleType(data) + "." + mangleType(vp)
	l.declare(name, fmt.Sprintf("declare %s @%s(%s, i32 immarg, %s, %s)", data, name, vp, mask.ty, data))
	v := b.NewValue()
	lines = append(lines, fmt.Sprintf("%s = call %s @%s(%s, i32 %d, %s, %s %s)", v, data, name, ptrs, align, mask, data, c.Args[2].Value))
	l.replaceCall(b, c, c.Result, v, lines...)
	return nil
}

// blockPointer returns where a block access of data goes: argument 0, a
// pointer, or for SLM the i32 offset made an address space 3 pointer (with
// the lines that make it).
func (l *lowering) blockPointer(b *llvmir.BodyEdit, c *llvmir.Call, data *llvmir.Type, slm bool) (genxArg, []string, error) {
	p := genxArg{c.Args[0].Type, c.Args[0].Value}
	if slm {
		p, lines := l.slmPointer(b, p, data)
		return p, lines, nil
	}
	if p.ty.Kind != llvmir.PtrType {
		return p, nil, fmt.Errorf("a pointer is expected as argument 0, not %s", p.ty)
	}
	return p, nil, nil
}
