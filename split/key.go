package split

import (
	"slices"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// Scope says how entry points are grouped.
type Scope int

// The grouping scopes: everything in one group, one group per translation
// unit (and optional-feature set), one group per kernel.
const (
	ScopeGlobal Scope = iota
	ScopePerModule
	ScopePerKernel
)

// GlobalKey is the key of the single group of ScopeGlobal, and of the
// empty group of a module without entry points.
const GlobalKey = "<GLOBAL>"

// category computes the grouping key of an entry point.
func (in *info) category(e *llvmir.Entity, scope Scope) string {
	switch scope {
	case ScopePerKernel:
		return e.Name
	case ScopePerModule:
		return in.sourceCategory(e)
	}
	return GlobalKey
}

// sourceCategory is the per-source key: for each rule, in this order, the
// rule's text followed by "-". Functions with different keys must not share
// a module: they come from different translation units or need different
// optional features.
//
//  1. attribute sycl-module-id      2. attribute indirectly-callable
//  3. attribute sycl-register-alloc-mode
//  4. attribute sycl-grf-size      5. !sycl_used_aspects, sorted, "-<v>" each
//  6. !reqd_work_group_size         7. !work_group_num_dim
//  8. !intel_reqd_sub_group_size    9. attribute sycl-optlevel
//
// 10. !sycl_joint_matrix           11. !sycl_joint_matrix_mad (strings)
//
// A missing attribute or node contributes "" (so a plain kernel of a.cpp
// has the key "a.cpp-----------").
func (in *info) sourceCategory(e *llvmir.Entity) string {
	var b strings.Builder
	in.attrRule(&b, e, attrModuleID)
	in.attrRule(&b, e, attrIndirectlyCallable)
	in.attrRule(&b, e, "sycl-register-alloc-mode")
	in.attrRule(&b, e, "sycl-grf-size")
	aspectsRule(&b, e)
	intListRule(&b, e, "reqd_work_group_size")
	intListRule(&b, e, "work_group_num_dim")
	intListRule(&b, e, "intel_reqd_sub_group_size")
	in.attrRule(&b, e, "sycl-optlevel")
	stringListRule(&b, e, "sycl_joint_matrix")
	stringListRule(&b, e, "sycl_joint_matrix_mad")
	return b.String()
}

func (in *info) attrRule(b *strings.Builder, e *llvmir.Entity, key string) {
	if v, ok := in.attr(e, key); ok {
		b.WriteString(v)
	}
	b.WriteByte('-')
}

// zext is the operand's value zero-extended from its integer width, as
// ConstantInt::getZExtValue gives it.
func zext(o *llvmir.MDOperand) (uint64, bool) {
	v, ok := o.Int()
	if !ok {
		return 0, false
	}
	if bits := o.Type.Bits; bits > 0 && bits < 64 {
		return uint64(v) & (1<<bits - 1), true
	}
	return uint64(v), true
}

// aspectsRule appends the used aspects (plain integers or {name, value}
// pairs), sorted ascending as unsigned values.
func aspectsRule(b *strings.Builder, e *llvmir.Entity) {
	if n := e.Attachment("sycl_used_aspects"); n != nil {
		var vals []uint64
		for i := range n.Ops {
			op := &n.Ops[i]
			if pair := op.Target(); pair != nil {
				if len(pair.Ops) == 2 {
					if v, ok := zext(&pair.Ops[1]); ok {
						vals = append(vals, v)
					}
				}
			} else if v, ok := zext(op); ok {
				vals = append(vals, v)
			}
		}
		slices.Sort(vals)
		for _, v := range vals {
			b.WriteByte('-')
			b.WriteString(strconv.FormatUint(v, 10))
		}
	}
	b.WriteByte('-')
}

func intListRule(b *strings.Builder, e *llvmir.Entity, kind string) {
	if n := e.Attachment(kind); n != nil {
		for i := range n.Ops {
			if v, ok := zext(&n.Ops[i]); ok {
				b.WriteByte('-')
				b.WriteString(strconv.FormatUint(v, 10))
			}
		}
	}
	b.WriteByte('-')
}

func stringListRule(b *strings.Builder, e *llvmir.Entity, kind string) {
	if n := e.Attachment(kind); n != nil {
		for i := range n.Ops {
			if n.Ops[i].Kind == llvmir.MDString {
				b.WriteByte('-')
				b.WriteString(n.Ops[i].Str)
			}
		}
	}
	b.WriteByte('-')
}

// Group is the entry points that go into one output module.
type Group struct {
	Key string
	// Entries are the group's entry points in module order.
	Entries []*llvmir.Entity
	// HasVirtual says an entry point is a virtual function
	// ("indirectly-callable"): the group's module then keeps the bodies of
	// virtual functions.
	HasVirtual bool
}

// groups collects the entry points of m into groups in emission order:
// descending byte-wise key order (the reference stores them in a std::map
// and takes them from the back). Without entry points the result is one
// empty GlobalKey group.
func (in *info) groups(scope Scope, onlyKernels bool) []Group {
	byKey := map[string]int{}
	var gs []Group
	for _, e := range in.m.Entities {
		if e.Kind != llvmir.KindFunction || !in.isEntryPoint(e, onlyKernels) {
			continue
		}
		k := in.category(e, scope)
		i, ok := byKey[k]
		if !ok {
			i = len(gs)
			byKey[k] = i
			gs = append(gs, Group{Key: k})
		}
		gs[i].Entries = append(gs[i].Entries, e)
		if in.hasAttr(e, attrIndirectlyCallable) {
			gs[i].HasVirtual = true
		}
	}
	if len(gs) == 0 {
		return []Group{{Key: GlobalKey}}
	}
	slices.SortFunc(gs, func(a, b Group) int { return strings.Compare(b.Key, a.Key) })
	return gs
}
