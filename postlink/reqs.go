package postlink

import (
	"github.com/sycbuild/sycbuild/llvmir"
)

// requirements computes what target filtering needs to know about a
// module (computeDeviceRequirements): the aspects used by any function it
// defines (negative, internal aspects left out), named by their
// {name, value} pair or through !sycl_aspects, and the sub-group size its
// entry points require.
func (r *run) requirements(mod *Module) Requirements {
	var req Requirements
	seen := map[string]bool{}
	names := r.aspects
	p := mod.Part
	for _, e := range mod.globals() {
		if e.Func == nil || !p.Defines(e) {
			continue
		}
		n := attachmentNode(e, "sycl_used_aspects")
		if n == nil {
			continue
		}
		for i := range n.Ops {
			op := &n.Ops[i]
			name := ""
			var v int64
			var ok bool
			if pair := op.Target(); pair != nil && len(pair.Ops) == 2 {
				name = pair.Ops[0].Str
				v, ok = pair.Ops[1].Int()
			} else if v, ok = op.Int(); ok {
				name = names[v]
			}
			if !ok || v < 0 || seen[name] {
				continue
			}
			seen[name] = true
			req.Aspects = append(req.Aspects, name)
		}
	}
	for _, e := range p.Entries {
		if n := attachmentNode(e, "intel_reqd_sub_group_size"); n != nil && len(n.Ops) == 1 {
			if v, ok := n.Ops[0].Int(); ok && !req.HasSGSize {
				req.SubGroupSize, req.HasSGSize = int(v), true
			}
		}
	}
	return req
}

// aspectNames maps aspect values to names from !sycl_aspects
// (!{!"fp64", i32 6} entries).
func (r *run) aspectNames() map[int64]string {
	out := map[int64]string{}
	nm := r.m.NamedMD("sycl_aspects")
	if nm == nil || nm.Named == nil {
		return out
	}
	for i := range nm.Named.Ops {
		if n := nm.Named.Ops[i].Target(); n != nil && len(n.Ops) == 2 && n.Ops[0].Kind == llvmir.MDString {
			if v, ok := n.Ops[1].Int(); ok {
				if _, dup := out[v]; !dup {
					out[v] = n.Ops[0].Str
				}
			}
		}
	}
	return out
}

func attachmentNode(e *llvmir.Entity, kind string) *llvmir.MDNode {
	if e.Func == nil {
		return nil
	}
	for i := range e.Func.Attachments {
		if e.Func.Attachments[i].Kind == kind {
			return e.Func.Attachments[i].Node
		}
	}
	return nil
}
