// Package esimd lowers the ESIMD code of a module as the reference's
// sycl-post-link does with -lower-esimd (its LowerESIMD pipeline, then the
// GenXSPIRVWriterAdaptor): the __esimd_* builtins become GenX intrinsics
// or kernel attributes, and ESIMD functions get the vector-compute ("VC")
// attributes the SPIR-V translator turns into execution modes.
//
// It covers the builtins of builtins.go (kernel attributes, barriers),
// the reference's table of __esimd_* builtins and GenX intrinsics
// (intrin_table.go, lowered by intrin.go with the overloaded intrinsics'
// names of intrin_sigs.go and typemangle.go), the special cases it
// lowers to plain LLVM IR or SPIR-V builtins (intrin_mem.go,
// intrin_vload.go, intrin_mask.go, intrin_pair.go, llvmintrin.go,
// devicelib.go), and the loads of the sub-group SPIR-V variables
// (spirvglobals.go); a module calling another
// __esimd_* builtin is refused with the builtin's name, rather than
// written unlowered.
package esimd

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// Module is what Lower works on: the input module, the plan that writes
// one output module of it, and the functions that plan writes.
type Module struct {
	M     *llvmir.Module
	Plan  *llvmir.Plan
	Funcs []*llvmir.Entity // functions written, in module order
	// Defines reports whether the module writes a function's body.
	Defines func(*llvmir.Entity) bool
	// IsESIMD reports whether a function is ESIMD code: only those are
	// lowered (a module holding SYCL code too keeps that code as it is).
	IsESIMD func(*llvmir.Entity) bool
	// WholeESIMD says the module holds ESIMD code only (its ESIMD code was
	// split out, -split-esimd): only then are optnone and noinline removed
	// from its functions, as the reference's SYCLLowerESIMDPass does when
	// the module contains no scalar code.
	WholeESIMD bool
	// Warnings is what Lower has to say about the module (it appends).
	Warnings []string
	// Stateful says buffer accessors are surfaces
	// (-lower-esimd-force-stateless-mem=false), not pointers.
	Stateful bool
}

// Lower adds the lowering's edits to mod.Plan and reports whether it
// changed anything.
func Lower(mod *Module) (bool, error) {
	l := &lowering{mod: mod, kernelNBar: map[*llvmir.Entity]uint64{}, kernelSLM: map[*llvmir.Entity]uint64{}}
	l.callers = map[*llvmir.Entity][]*llvmir.Entity{}
	for _, f := range mod.Funcs {
		if !mod.Defines(f) {
			continue
		}
		for _, c := range f.Func.Callees {
			l.callers[c] = append(l.callers[c], f)
		}
	}
	for _, f := range mod.Funcs {
		if !mod.Defines(f) || !mod.IsESIMD(f) {
			continue
		}
		l.esimd = append(l.esimd, f)
		if err := l.lowerCalls(f); err != nil {
			return false, err
		}
		l.lowerSpirvGlobals(f)
	}
	if len(l.esimd) == 0 {
		return false, nil
	}
	for _, f := range l.edited {
		if _, err := mod.Plan.SetBody(l.bodies[f]); err != nil {
			return false, fmt.Errorf("%s: %v", mod.M.File, err)
		}
	}
	if err := l.attributes(); err != nil {
		return false, err
	}
	for _, d := range l.decls {
		mod.Plan.Add(llvmir.KindFunction, d)
	}
	// A lowered builtin's declaration goes once no call of it is left, as
	// the reference's cleanup drops dead prototypes.
	for _, f := range mod.Funcs {
		if (isESIMDBuiltin(f.Name) || isDevicelibConversion(f.Name)) && !mod.Defines(f) && l.allLowered(f) {
			mod.Plan.Drop(f)
		}
	}
	return true, nil
}

type lowering struct {
	mod     *Module
	esimd   []*llvmir.Entity                    // ESIMD function definitions
	callers map[*llvmir.Entity][]*llvmir.Entity // direct callers of each function
	// kernelNBar and kernelSLM are the named-barrier counts and SLM sizes
	// the kernels' call graphs ask for (the largest one wins).
	kernelNBar, kernelSLM map[*llvmir.Entity]uint64
	decls                 []string // GenX intrinsic declarations to add
	declared              map[string]bool
	bodies                map[*llvmir.Entity]*llvmir.BodyEdit
	edited                []*llvmir.Entity // functions with a body edit, in order
	typed                 uint8            // pointers: 0 not known yet, 1 opaque, 2 typed
	gvts                  map[string]bool  // vector types of genx_volatile globals
}

// lowerCalls rewrites the __esimd_* calls of function f.
func (l *lowering) lowerCalls(f *llvmir.Entity) error {
	for i := range f.Func.Calls {
		c := &f.Func.Calls[i]
		if c.Callee != nil && isDevicelibConversion(c.Callee.Name) {
			if err := l.lowerDevicelib(f, c); err != nil {
				return fmt.Errorf("%s: @%s: @%s: %v", l.mod.M.File, f.Name, c.Callee.Name, err)
			}
			continue
		}
		if c.Callee != nil && strings.HasPrefix(c.Callee.Name, "llvm.") {
			l.lowerLLVMIntrinsic(f, c)
			continue
		}
		if c.Callee != nil && !isESIMDBuiltin(c.Callee.Name) {
			l.inlineTrivial(f, c)
			continue
		}
		if c.Callee == nil {
			continue
		}
		lower := l.lowerBuiltin
		if b, ok := builtins[c.Callee.Name]; ok {
			lower = func(f *llvmir.Entity, c *llvmir.Call) error { return b(l, f, c) }
		}
		if err := lower(f, c); err != nil {
			if u := (*unknownBuiltin)(nil); errors.As(err, &u) {
				return fmt.Errorf("%s: @%s calls the ESIMD builtin @%s, which sycbuild's ESIMD lowering does not implement (%v)", l.mod.M.File, f.Name, c.Callee.Name, err)
			}
			return fmt.Errorf("%s: @%s: @%s: %v", l.mod.M.File, f.Name, c.Callee.Name, err)
		}
	}
	return nil
}

// erase removes call c of function f (a call whose value nothing uses).
func (l *lowering) erase(f *llvmir.Entity, c *llvmir.Call) error {
	if c.Result != "" {
		return fmt.Errorf("the call's value %%%s cannot be dropped", c.Result)
	}
	l.body(f).Replace(c.Start, c.End, "", "")
	return nil
}

// replace replaces call c of function f with a call of GenX intrinsic
// name, declared with decl.
func (l *lowering) replace(f *llvmir.Entity, c *llvmir.Call, call, name, decl string) error {
	if c.Result != "" {
		return fmt.Errorf("the call's value %%%s is not handled", c.Result)
	}
	l.declare(name, decl)
	l.replaceCall(l.body(f), c, "", "", call)
	return nil
}

// declare adds the declaration decl of function name unless the module
// or an earlier call has it.
func (l *lowering) declare(name, decl string) {
	if l.declared == nil {
		l.declared = map[string]bool{}
	}
	if !l.declared[name] && l.mod.M.Global(name) == nil {
		l.declared[name] = true
		l.decls = append(l.decls, decl)
	}
}

// body returns the edit of f's body, started on first use.
func (l *lowering) body(f *llvmir.Entity) *llvmir.BodyEdit {
	if l.bodies == nil {
		l.bodies = map[*llvmir.Entity]*llvmir.BodyEdit{}
	}
	b := l.bodies[f]
	if b == nil {
		b = l.mod.M.EditBody(f)
		l.bodies[f] = b
		l.edited = append(l.edited, f)
	}
	return b
}

// constArg returns call c's argument i as an unsigned integer constant.
func constArg(c *llvmir.Call, i int) (uint64, error) {
	if i >= len(c.Args) {
		return 0, fmt.Errorf("argument %d is missing", i)
	}
	v, err := strconv.ParseUint(c.Args[i].Value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("an integral constant is expected as argument %d, not %q", i, c.Args[i].Value)
	}
	return v, nil
}

// allLowered reports whether every function calling f is ESIMD code the
// lowering rewrote (so no call of f is left) and nothing else refers to f.
func (l *lowering) allLowered(f *llvmir.Entity) bool {
	for _, c := range l.callers[f] {
		if !l.mod.IsESIMD(c) {
			return false
		}
	}
	for _, g := range l.mod.Funcs {
		if l.mod.Defines(g) && slices.Contains(g.Func.AddressTaken, f) {
			return false
		}
	}
	return true
}

// kernelsOf calls fn for every kernel whose call graph reaches f (f
// included), as the reference's traverseCallgraphUp does.
func (l *lowering) kernelsOf(f *llvmir.Entity, fn func(k *llvmir.Entity)) {
	seen := map[*llvmir.Entity]bool{f: true}
	work := []*llvmir.Entity{f}
	for len(work) > 0 {
		g := work[len(work)-1]
		work = work[:len(work)-1]
		if g.Func.CallingConv == "spir_kernel" {
			fn(g)
		}
		for _, c := range l.callers[g] {
			if !seen[c] {
				seen[c] = true
				work = append(work, c)
			}
		}
	}
}

// isESIMDBuiltin: _Z<digits>__esimd_….
func isESIMDBuiltin(name string) bool {
	rest, ok := strings.CutPrefix(name, "_Z")
	if !ok {
		return false
	}
	return strings.HasPrefix(strings.TrimLeft(rest, "0123456789"), "__esimd_")
}

// dbgAttachment is a call's debug location attachment.
var dbgAttachment = regexp.MustCompile(`,\s*!dbg\s+(![0-9]+|!DILocation\([^)]*\))\s*$`)

// replaceCall replaces call c of the body edit b with lines, each given
// c's debug location, as the reference's IRBuilder (inserting at c) or its
// setDebugLoc gives it.
func (l *lowering) replaceCall(b *llvmir.BodyEdit, c *llvmir.Call, result, with string, lines ...string) {
	if m := dbgAttachment.FindSubmatch(l.mod.M.Src[c.Start:c.End]); m != nil {
		for i := range lines {
			lines[i] += ", !dbg " + string(m[1])
		}
	}
	b.Replace(c.Start, c.End, result, with, lines...)
}
