package wrapper

import (
	"io"

	"github.com/sycbuild/sycbuild/bitcode"
)

// writeBitcode writes the descriptor d as the LLVM module
// clang-offload-wrapper writes (module "offload.wrapper.object", triple
// host): one global per global of d, with the reference's linkage,
// unnamed_addr, sections and alignment; @llvm.used keeping the .info
// records; and, with registration functions, sycl.descriptor_reg and
// sycl.descriptor_unreg in @llvm.global_ctors and @llvm.global_dtors with
// priority 1. Images and manifests are streamed from their files as blobs.
func writeBitcode(w io.Writer, host string, d *desc) error {
	m := bitcode.NewModule()
	m.SourceFilename = "offload.wrapper.object"
	m.Triple = host
	e := &bitcodeEmitter{m: m, ptr: m.Ptr(), i8: m.Int(8), i16: m.Int(16), i32: m.Int(32), i64: m.Int(64),
		globals: map[*global]*bitcode.Global{}, types: map[*structType]bitcode.Type{}}
	lastInfo := -1
	for i, g := range d.globals {
		if g.kind == gInfo {
			lastInfo = i
		}
	}
	var used []bitcode.Constant
	for i, g := range d.globals {
		bg := e.global(g, g == d.images)
		if g.kind == gInfo {
			used = append(used, bg)
		}
		if i == lastInfo {
			// appendToUsed makes @llvm.used anew after each .info record:
			// it ends up after the last one.
			t := m.Array(uint64(len(used)), e.ptr)
			m.AddGlobal(&bitcode.Global{Name: "llvm.used", ValueType: t, Linkage: bitcode.AppendingLinkage,
				Section: "llvm.metadata", Init: &bitcode.Aggregate{Type: t, Elems: used}})
		}
	}
	if d.regFuncs {
		desc := e.globals[d.desc]
		reg := e.registration("sycl.descriptor_reg", "__sycl_register_lib", desc)
		e.structors("llvm.global_ctors", reg)
		unreg := e.registration("sycl.descriptor_unreg", "__sycl_unregister_lib", desc)
		e.structors("llvm.global_dtors", unreg)
	}
	_, err := m.WriteTo(w)
	return err
}

// bitcodeEmitter makes the module's globals from the descriptor's.
type bitcodeEmitter struct {
	m                      *bitcode.Module
	ptr, i8, i16, i32, i64 bitcode.Type
	globals                map[*global]*bitcode.Global
	types                  map[*structType]bitcode.Type
}

// global adds the LLVM global for g.
func (e *bitcodeEmitter) global(g *global, unnamed bool) *bitcode.Global {
	m := e.m
	bg := &bitcode.Global{Name: g.fullName(), Constant: true, Linkage: bitcode.InternalLinkage, UnnamedAddr: bitcode.GlobalUnnamedAddr}
	switch g.kind {
	case gString:
		data := make([]byte, len(g.str)+1)
		copy(data, g.str)
		bg.ValueType = m.Array(uint64(len(data)), e.i8)
		bg.Init = &bitcode.Bytes{Type: bg.ValueType, Data: data}
	case gBytes:
		bg.ValueType = m.Array(uint64(len(g.data)), e.i8)
		bg.Init = &bitcode.Bytes{Type: bg.ValueType, Data: g.data}
	case gManifest, gImage:
		bg.ValueType = m.Array(g.size, e.i8)
		bg.Init = &bitcode.FileBytes{Type: bg.ValueType, File: bitcode.BlobFile{Name: g.file, Size: g.size}}
		bg.Section = g.section
	case gStructs:
		st := e.structType(g.st)
		bg.ValueType = m.Array(uint64(len(g.elems)), st)
		elems := make([]bitcode.Constant, len(g.elems))
		for i, el := range g.elems {
			elems[i] = e.structValue(g.st, el)
		}
		bg.Init = &bitcode.Aggregate{Type: bg.ValueType, Elems: elems}
		if !unnamed {
			bg.UnnamedAddr = bitcode.NoUnnamedAddr
		}
	case gDesc:
		bg.ValueType = e.structType(g.st)
		bg.Init = e.structValue(g.st, g.elems[0])
		bg.UnnamedAddr = bitcode.NoUnnamedAddr
		if g.external {
			bg.Linkage = bitcode.ExternalLinkage
		}
	case gInfo:
		bg.ValueType = m.Array(2, e.i64)
		bg.Init = &bitcode.Aggregate{Type: bg.ValueType, Elems: []bitcode.Constant{
			&bitcode.PtrToInt{Type: e.i64, Value: e.globals[g.image]},
			bitcode.Int{Type: e.i64, Value: g.size},
		}}
		bg.UnnamedAddr = bitcode.LocalUnnamedAddr
		bg.Section = ".tgtimg"
		bg.Align = tgtimgRecAlign
	}
	m.AddGlobal(bg)
	e.globals[g] = bg
	return bg
}

// structType returns the named LLVM struct type of st.
func (e *bitcodeEmitter) structType(st *structType) bitcode.Type {
	if t, ok := e.types[st]; ok {
		return t
	}
	fields := make([]bitcode.Type, len(st.fields))
	for i, f := range st.fields {
		fields[i] = e.scalar(f)
	}
	t := e.m.NamedStruct(st.name, fields...)
	e.types[st] = t
	return t
}

func (e *bitcodeEmitter) scalar(s scalar) bitcode.Type {
	return [...]bitcode.Type{e.i8, e.i16, e.i32, e.i64, e.ptr}[s]
}

// structValue returns the constant struct of type st with fields.
func (e *bitcodeEmitter) structValue(st *structType, fields []field) bitcode.Constant {
	vals := make([]bitcode.Constant, len(fields))
	for i, f := range fields {
		switch f.kind {
		case fInt:
			vals[i] = bitcode.Int{Type: e.scalar(st.fields[i]), Value: f.v}
		case fNull:
			vals[i] = bitcode.Null{Type: e.ptr}
		case fBegin:
			vals[i] = e.globals[f.g]
		case fEnd:
			// getelementptr inbounds (T, ptr @g, 1, 0): one past the array,
			// as LLVM folds the reference's (0, N).
			g := e.globals[f.g]
			vals[i] = &bitcode.GEP{Source: g.ValueType, Base: g, InBounds: true,
				Indices: []bitcode.Constant{bitcode.Int{Type: e.i64, Value: 1}, bitcode.Int{Type: e.i64, Value: 0}}}
		}
	}
	return &bitcode.Aggregate{Type: e.structType(st), Elems: vals}
}

// registration adds the function name, which calls the runtime's function
// callee with the descriptor, and callee's declaration.
func (e *bitcodeEmitter) registration(name, callee string, desc *bitcode.Global) *bitcode.Function {
	m := e.m
	f := m.AddFunction(&bitcode.Function{Name: name, Type: m.Func(m.Void()), Linkage: bitcode.InternalLinkage,
		Section: ".text.startup", Block: "entry"})
	lib := m.AddFunction(&bitcode.Function{Name: callee, Type: m.Func(m.Void(), e.ptr)})
	f.Body = []bitcode.Instruction{&bitcode.Call{Callee: lib, Args: []bitcode.Constant{desc}}, bitcode.Ret{}}
	return f
}

// structors adds @llvm.global_ctors or @llvm.global_dtors holding f with
// priority 1.
func (e *bitcodeEmitter) structors(name string, f *bitcode.Function) {
	m := e.m
	elem := m.Struct(e.i32, e.ptr, e.ptr)
	t := m.Array(1, elem)
	m.AddGlobal(&bitcode.Global{Name: name, ValueType: t, Linkage: bitcode.AppendingLinkage,
		Init: &bitcode.Aggregate{Type: t, Elems: []bitcode.Constant{
			&bitcode.Aggregate{Type: elem, Elems: []bitcode.Constant{bitcode.Int{Type: e.i32, Value: 1}, f, bitcode.Null{Type: e.ptr}}},
		}}})
}
