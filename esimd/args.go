package esimd

import (
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// Argument kinds of a genx.kernels entry (the "kind" of a vISA input).
const (
	argGeneral = "0"
	argSurface = "2"
)

// kernelArgs gives ESIMD kernel k's parameters the attributes the
// reference's generateKernelMetadata computes and GenXSPIRVWriterAdaptor
// writes from genx.kernels: "VCArgumentKind" (a surface for an image or
// a buffer accessor, else general), "VCArgumentIOKind" (0) and
// "VCArgumentDesc" (the image type, "buffer_t" for a buffer accessor,
// "svmptr_t" for another pointer, "" for a local accessor or a value).
// Accessors are found by !kernel_arg_accessor_ptr and images by
// !kernel_arg_type, as the front end marks them. Buffer accessors are
// pointers (stateless memory, the newest reference's default) unless
// Module.Stateful.
func (l *lowering) kernelArgs(k *llvmir.Entity) {
	var types, accs *llvmir.MDNode
	for _, a := range k.Func.Attachments {
		switch a.Kind {
		case "kernel_arg_type":
			types = a.Node
		case "kernel_arg_accessor_ptr":
			accs = a.Node
		}
	}
	for i, p := range k.Func.Params {
		if p.Attrs.Has("VCArgumentKind") {
			continue
		}
		kind, desc := argGeneral, ""
		argType := ""
		if types != nil && i < len(types.Ops) && types.Ops[i].Kind == llvmir.MDString {
			argType = types.Ops[i].Str
		}
		switch {
		case strings.Contains(argType, "image1d_t") || strings.Contains(argType, "image2d_t") || strings.Contains(argType, "image3d_t"):
			kind, desc = argSurface, argType
		case p.Type != nil && p.Type.Kind == llvmir.PtrType:
			acc := false
			if accs != nil && i < len(accs.Ops) {
				v, ok := accs.Ops[i].Int()
				acc = ok && v != 0
			}
			switch {
			case acc && p.Type.AddrSpace == 3:
				// A local accessor: nothing to describe.
			case acc && l.mod.Stateful:
				kind, desc = argSurface, "buffer_t"
			default:
				desc = "svmptr_t"
			}
		}
		l.mod.Plan.AddParamAttr(k, i, str("VCArgumentDesc", desc))
		l.mod.Plan.AddParamAttr(k, i, str("VCArgumentIOKind", "0"))
		l.mod.Plan.AddParamAttr(k, i, str("VCArgumentKind", kind))
	}
}
