package split

import "github.com/sycbuild/sycbuild/llvmir"

// SplitESIMD is handleESIMD's split of a module into its ESIMD and SYCL
// halves (splitByESIMD). A module with only one kind of entry point (and,
// for SYCL, no ESIMD function at all) comes back as it is, with its status
// set. Otherwise the ESIMD half holds every ESIMD function, the ESIMD entry
// points and what they need; the SYCL half the SYCL entry points and what
// they need except ESIMD functions. With separate, the halves are returned
// (ESIMD first); without, they are joined again into one SYCL_AND_ESIMD
// module, and joined reports that.
//
// Joining differs from the reference in one respect: a function both
// halves use is written once, where the reference links two copies (the
// ESIMD one renamed with ".esimd") because it lowers the ESIMD half
// separately, which sycbuild does not do (-lower-esimd refuses ESIMD code).
func (s *Splitter) SplitESIMD(p *Part, separate bool) (parts []*Part, joined bool) {
	var esimdEntries, syclEntries []*llvmir.Entity
	for _, e := range p.Entries {
		if IsESIMD(e) {
			esimdEntries = append(esimdEntries, e)
		} else {
			syclEntries = append(syclEntries, e)
		}
	}
	var esimdFuncs []*llvmir.Entity
	for _, e := range s.esimd {
		if p.st[e.Index] != stNone {
			esimdFuncs = append(esimdFuncs, e)
		}
	}
	hasESIMD := len(esimdEntries) > 0 || len(esimdFuncs) > 0
	hasSYCL := len(syclEntries) > 0 || !hasESIMD
	if !hasESIMD || !hasSYCL {
		q := *p
		q.Warnings = nil
		if hasESIMD {
			q.Status, q.Entries = ESIMDOnly, esimdEntries
		} else {
			q.Status, q.Entries = SYCLOnly, syclEntries
		}
		return []*Part{&q}, false
	}
	var defined []*llvmir.Entity // ESIMD functions that are definitions here
	for _, e := range esimdFuncs {
		if p.st[e.Index] == stDef {
			defined = append(defined, e)
		}
	}
	esimdSel := s.closure(nil, esimdEntries, defined, p.st, nil)
	esimd := s.clean(esimdSel, cleanOptions{base: p, entries: esimdEntries, marked: p.marked, hasVirtual: p.HasVirtual, status: ESIMDOnly})
	syclSel := s.closure(nil, syclEntries, nil, p.st, func(e *llvmir.Entity) bool { return !IsESIMD(e) })
	sycl := s.clean(syclSel, cleanOptions{base: p, entries: syclEntries, marked: p.marked, hasVirtual: p.HasVirtual, warn: !s.cfg.AllowDeps, status: SYCLOnly})
	if separate {
		p.Release()
		return []*Part{esimd, sycl}, false
	}
	var union []int32
	for i := range p.st {
		if esimd.st[i] == stDef || sycl.st[i] == stDef {
			union = append(union, int32(i))
		}
	}
	entries := append(append([]*llvmir.Entity(nil), esimdEntries...), syclEntries...)
	linked := s.clean(union, cleanOptions{base: p, entries: entries, marked: p.marked, hasVirtual: p.HasVirtual, status: SYCLAndESIMD})
	linked.Warnings = sycl.Warnings
	p.Release()
	esimd.Release()
	sycl.Release()
	return []*Part{linked}, true
}

// ESIMDCode returns the module's ESIMD functions that have a body: the
// kernels among them, and the others, each in module order.
func (s *Splitter) ESIMDCode() (kernels, others []*llvmir.Entity) {
	for _, e := range s.esimd {
		switch {
		case e.Func.Declaration:
		case s.in.isKernel(e):
			kernels = append(kernels, e)
		default:
			others = append(others, e)
		}
	}
	return kernels, others
}
