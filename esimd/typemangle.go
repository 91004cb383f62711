package esimd

import (
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// mangleType is LLVM's getMangledTypeStr: the suffix an overloaded
// intrinsic's name gets for type t ("v8i32", "i64", "f16"). A pointer is
// "p<addrspace>" followed, for a typed pointer (LLVM 15 and older IR),
// by its pointee ("p1i32", "p0v16i32"); an opaque one is "p1" alone.
func mangleType(t *llvmir.Type) string {
	var b strings.Builder
	writeMangled(&b, t)
	return b.String()
}

func writeMangled(b *strings.Builder, t *llvmir.Type) {
	switch t.Kind {
	case llvmir.PtrType:
		b.WriteString("p" + strconv.FormatUint(uint64(t.AddrSpace), 10))
		if t.Elem != nil {
			writeMangled(b, t.Elem)
		}
	case llvmir.ArrayType:
		b.WriteString("a" + strconv.FormatUint(t.Len, 10))
		writeMangled(b, t.Elem)
	case llvmir.VectorType:
		if t.Scalable {
			b.WriteString("nx")
		}
		b.WriteString("v" + strconv.FormatUint(t.Len, 10))
		writeMangled(b, t.Elem)
	case llvmir.StructType:
		if t.Name != "" {
			b.WriteString("s_" + t.Name)
			return
		}
		b.WriteString("sl_")
		for _, f := range t.Fields {
			writeMangled(b, f)
		}
		b.WriteString("s")
	case llvmir.FuncType:
		b.WriteString("f_")
		writeMangled(b, t.Ret)
		for _, p := range t.Fields {
			writeMangled(b, p)
		}
		if t.VarArg {
			b.WriteString("vararg")
		}
		b.WriteString("f")
	case llvmir.IntType:
		b.WriteString("i" + strconv.FormatUint(uint64(t.Bits), 10))
	default:
		b.WriteString(primitiveMangled[t.Kind])
	}
}

var primitiveMangled = map[llvmir.TypeKind]string{
	llvmir.HalfType: "f16", llvmir.BFloatType: "bf16", llvmir.FloatType: "f32", llvmir.DoubleType: "f64",
	llvmir.FP128Type: "f128", llvmir.X86FP80Type: "f80", llvmir.PPCFP128Type: "ppcf128",
	llvmir.VoidType: "isVoid", llvmir.MetadataType: "Metadata", llvmir.X86MMXType: "x86mmx",
	llvmir.X86AMXType: "x86amx",
}
