package esimd

import (
	"fmt"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// Names of the simd types whose genx_volatile globals keep their vector
// loads and stores as GenX intrinsics.
const (
	simdType    = "sycl::_V1::ext::intel::esimd::simd"
	simdObjImpl = "sycl::_V1::ext::intel::esimd::detail::simd_obj_impl"
)

// volatileTypes are the vector types of the module's genx_volatile
// globals (the reference's collectGenXVolatileTypes): globals of a
// named simd struct holding the vector, directly or in a simd_obj_impl.
func (l *lowering) volatileTypes() map[string]bool {
	if l.gvts != nil {
		return l.gvts
	}
	l.gvts = map[string]bool{}
	for _, g := range l.mod.M.GlobalVars() {
		if _, ok := l.mod.M.Attr(g, "genx_volatile"); !ok {
			continue
		}
		t := g.Var.Type
		if t == nil || t.Kind != llvmir.StructType || !strings.HasSuffix(strings.TrimRight(t.Name, ".0123456789"), simdType) || len(t.Fields) != 1 {
			continue
		}
		v := t.Fields[0]
		if v.Kind == llvmir.StructType && len(v.Fields) == 1 && strings.HasSuffix(strings.TrimRight(v.Name, ".0123456789"), simdObjImpl) {
			v = v.Fields[0]
		}
		if v.Kind == llvmir.VectorType {
			l.gvts[v.String()] = true
		}
	}
	return l.gvts
}

// lowerVLoad is the reference's translateVLoad: a plain load of the result
// type from argument 0, with the type's ABI alignment, unless the type is
// that of a genx_volatile global (then the table's llvm.genx.vload).
func (l *lowering) lowerVLoad(f *llvmir.Entity, c *llvmir.Call, bn *builtinName) error {
	if l.volatileTypes()[c.FnType.Ret.String()] {
		return l.lowerTable(f, c, bn)
	}
	if len(c.Args) < 1 {
		return fmt.Errorf("argument 0 is missing")
	}
	align, err := l.abiAlign(c.FnType.Ret)
	if err != nil {
		return err
	}
	b := l.body(f)
	v := loadName(b, c)
	p := genxArg{c.Args[0].Type, c.Args[0].Value}
	l.replaceCall(b, c, c.Result, v, fmt.Sprintf("%s = load %s, %s, align %d", v, c.FnType.Ret, p, align))
	return nil
}

// lowerVStore is the reference's translateVStore: a plain store of
// argument 1 to argument 0, unless the stored type is a genx_volatile
// global's (then llvm.genx.vstore).
func (l *lowering) lowerVStore(f *llvmir.Entity, c *llvmir.Call, bn *builtinName) error {
	if len(c.Args) < 2 {
		return fmt.Errorf("arguments 0 and 1 are expected")
	}
	data := genxArg{c.Args[1].Type, c.Args[1].Value}
	if l.volatileTypes()[data.ty.String()] {
		return l.lowerTable(f, c, bn)
	}
	align, err := l.abiAlign(data.ty)
	if err != nil {
		return err
	}
	p := genxArg{c.Args[0].Type, c.Args[0].Value}
	l.replaceCall(l.body(f), c, "", "", fmt.Sprintf("store %s, %s, align %d", data, p, align))
	return nil
}
