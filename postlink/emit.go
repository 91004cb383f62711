package postlink

import (
	"context"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/sycbuild/sycbuild/split"
)

// groupResult is what making one group's modules yields.
type groupResult struct {
	mods     []*Module // one, or ESIMD then SYCL
	defaults []*Module // default-value copies (next ID)
	dummies  []*Module // dummy copies of virtual functions (the ID after)
	warnings []string
	halves   bool // the group had both SYCL and ESIMD entry points
	modified bool
	bf16     bool // a module uses the bfloat16 device library
	// rows are the table rows of mods, per table, when the worker already
	// wrote their files (see run.early).
	rows [][]Row
	err  error
}

// makeGroup runs the per-group steps: extract and clean the group's
// module, split off its ESIMD part, lower spec constants, build each
// module's plan and, when the group's ID is known in advance (run.early),
// write its files. It runs on several groups at once.
func (r *run) makeGroup(i int) (res groupResult) {
	res = r.buildGroup(i)
	if res.err != nil || !r.early {
		return res
	}
	res.rows = make([][]Row, len(r.tables))
	for _, mod := range res.mods {
		rows, err := r.files(mod, i, "")
		if err != nil {
			res.err = err
			return res
		}
		for t, row := range rows {
			if row != nil {
				res.rows[t] = append(res.rows[t], *row)
			}
		}
	}
	res.release()
	return res
}

// release gives the group's module memory back once its files are
// written. Default-value copies share their module's state, so only the
// modules themselves are released.
func (res *groupResult) release() {
	for _, mod := range res.mods {
		mod.Part.Release()
	}
}

// buildGroup makes group i's modules without writing anything.
func (r *run) buildGroup(i int) (res groupResult) {
	p := r.sp.Part(i)
	res.warnings = append(res.warnings, p.Warnings...)
	parts, joined := r.sp.SplitESIMD(p, r.o.SplitESIMD)
	res.halves = len(parts) > 1 || joined
	res.modified = joined
	for _, q := range parts {
		res.warnings = append(res.warnings, q.Warnings...)
		mod := &Module{Part: q, Plan: q.Plan(), M: r.m, Cloned: r.sp.Splits() || len(parts) > 1}
		if r.o.LowerESIMD && q.Status != split.SYCLOnly {
			changed, warnings, err := r.lowerESIMD(mod)
			if err != nil {
				res.err = err
				return res
			}
			res.warnings = append(res.warnings, warnings...)
			res.modified = res.modified || changed
		}
		if r.o.SpecConst != SpecConstOff || r.o.DefaultSpecConstImage {
			changed, def, err := r.specConstants(mod)
			if err != nil {
				res.err = err
				return res
			}
			res.modified = res.modified || changed
			if def != nil {
				res.modified = addSanitizerKernels(def) || res.modified
				res.defaults = append(res.defaults, def)
			}
		}
		res.modified = addSanitizerKernels(mod) || res.modified
		res.bf16 = res.bf16 || r.usesBF16(q)
		res.mods = append(res.mods, mod)
		if d := dummyOf(mod); d != nil {
			res.dummies = append(res.dummies, d)
		}
	}
	return res
}

// specConstants runs the spec-constant hook on a module. Without a hook a
// module that uses no specialization constant needs nothing; one that
// does is refused rather than written unlowered.
func (r *run) specConstants(mod *Module) (bool, *Module, error) {
	if r.hooks.SpecConstants != nil {
		return r.hooks.SpecConstants(r.o, mod, r.o.SpecConst, r.o.DefaultSpecConstImage)
	}
	if usesSpecConstants(mod) {
		return false, nil, errorf("specialization constants are used but not implemented in this build (-spec-const, -generate-device-image-default-spec-consts)")
	}
	return false, nil, nil
}

// produce makes the groups' modules with bounded parallelism and hands
// them to use in group order. At most a window of groups is made ahead of
// the one being used, so memory stays bounded however many groups there
// are. use's error stops everything.
//
// The first worker runs on the job token the caller holds; each further
// one (up to jobs) starts only when IO.Tokens lends a token, asked without
// waiting when the work starts and again as each group is used, and gives
// it back when it stops.
func (r *run) produce(n int, use func(i int, res groupResult) error) error {
	jobs := min(r.jobs(), n)
	slots := make([]chan groupResult, n)
	for i := range slots {
		slots[i] = make(chan groupResult, 1)
	}
	window := make(chan struct{}, 2*max(jobs, 1))
	var next atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(jobs, 1))
	work := func() error {
		for {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return nil
			}
			i := int(next.Add(1) - 1)
			if i >= n {
				<-window
				return nil
			}
			slots[i] <- r.makeGroup(i)
		}
	}
	workers := 0
	grow := func() {
		for workers < jobs && next.Load() < int64(n) {
			lent := workers > 0 && r.io.Tokens != nil
			if lent && !r.io.Tokens.TryAcquire() {
				return
			}
			workers++
			g.Go(func() error {
				if lent {
					defer r.io.Tokens.Release()
				}
				return work()
			})
		}
	}
	grow()
	var err error
	for i := 0; i < n && err == nil; i++ {
		res := <-slots[i]
		<-window
		err = use(i, res)
		grow()
	}
	// Let every worker finish its current group and leave.
	cancel()
	g.Wait()
	return err
}

// emitAll writes every module and fills the tables, in the reference's
// order: each group's modules get the next ID (ESIMD first, then SYCL),
// its default-value copies the one after, then its dummy copies of virtual
// functions. When no group can have such copies, a group's ID is its index and the workers write
// the files themselves (run.early); the tables are filled in order here
// either way.
func (r *run) emitAll(st *state) error {
	n := len(r.sp.Groups())
	r.early = n > 1 && !r.o.DefaultSpecConstImage && !hasVirtualFunctions(r.m)
	id := 0
	bf16 := false
	if err := r.out.tableFirst(r.tables); err != nil {
		return err
	}
	err := r.produce(n, func(i int, res groupResult) error {
		for _, w := range res.warnings {
			r.diag.Warning(w)
		}
		if res.err != nil {
			return res.err
		}
		if err := r.checkHalves(st, res); err != nil {
			return err
		}
		st.modified = st.modified || res.modified
		bf16 = bf16 || res.bf16
		if res.rows != nil {
			for t, rows := range res.rows {
				for _, row := range rows {
					r.tables[t].Add(row)
				}
			}
			id++
			return nil
		}
		irName := ""
		if !st.modified && !r.outputsGiven() {
			irName = r.o.Input
			r.diag.Note("no modifications to the input LLVM IR have been made")
		}
		for _, mod := range res.mods {
			if err := r.save(mod, id, irName); err != nil {
				return err
			}
		}
		id++
		if len(res.defaults) > 0 {
			for _, mod := range res.defaults {
				if err := r.save(mod, id, irName); err != nil {
					return err
				}
			}
			id++
		}
		if len(res.dummies) > 0 {
			for _, mod := range res.dummies {
				if err := r.save(mod, id, irName); err != nil {
					return err
				}
			}
			id++
		}
		res.release()
		return nil
	})
	if err != nil {
		return err
	}
	if bf16 && r.o.DeviceLibDir != "" {
		return r.saveDeviceLibs(id)
	}
	return nil
}

// checkHalves applies the rules about groups that held both SYCL and ESIMD
// entry points: such a split counts as a split, and per-kernel splitting
// cannot keep the two together.
func (r *run) checkHalves(st *state, res groupResult) error {
	if !res.halves {
		return nil
	}
	if st.splitOccurred && r.o.Split == SplitKernel && !r.o.SplitESIMD {
		return errorf("SYCL and ESIMD entry points detected with -split-mode=per-kernel and -split-esimd=false. So -split-esimd=true is mandatory.")
	}
	st.splitOccurred = true
	return nil
}

// save writes one module's files and adds its rows to the tables.
func (r *run) save(mod *Module, id int, irName string) error {
	rows, err := r.files(mod, id, irName)
	if err != nil {
		return err
	}
	for t, row := range rows {
		if row != nil {
			r.tables[t].Add(*row)
		}
	}
	return nil
}

// files writes one module as module id (unless irName names an input left
// as it is), its symbol file and, per table that takes the module, its
// property file; it returns the module's row for each table (nil where the
// table's target does not take it). It touches no shared state but the
// outputs, so workers may call it.
func (r *run) files(mod *Module, id int, irName string) ([]*Row, error) {
	esimd := mod.Part.Status == split.ESIMDOnly
	row := Row{Code: irName}
	if r.o.EmbedAuxInfo {
		return r.embedded(mod, id, esimd)
	}
	if row.Code == "" {
		row.Code = r.naming.IR(esimd, id)
		split.AddStatus(mod.Plan, mod.Part.Status, mod.DefaultValues)
		if err := r.out.writeModule(row.Code, mod.Plan); err != nil {
			return nil, err
		}
	}
	if r.o.Symbols {
		row.Symbols = r.naming.Sym(esimd, id)
		syms, err := mod.Part.SymbolTable()
		if err != nil {
			return nil, err
		}
		if err := r.out.writeBytes(row.Symbols, []byte(syms)); err != nil {
			return nil, err
		}
	}
	rows := make([]*Row, len(r.tables))
	var reqs *Requirements
	for i, t := range r.tables {
		if t.Output.Target != "" {
			if reqs == nil {
				rq := r.requirements(mod)
				reqs = &rq
			}
			if !TargetAccepts(t.Output.Target, *reqs, esimd) {
				continue
			}
		}
		trow := row
		if r.o.Properties {
			trow.Properties = r.naming.Prop(t.Output.Target, esimd, id)
			data, err := r.hooks.Properties(r.o, mod, t.Output.Target)
			if err != nil {
				return nil, err
			}
			if err := r.out.writeBytes(trow.Properties, data); err != nil {
				return nil, err
			}
		}
		rows[i] = &trow
	}
	return rows, nil
}

// embedded writes one module with its property sets and symbol table in
// it (-embed-aux-info-as-metadata): one row, the Code column only, in
// every table. The property sets are those of the first table's target.
func (r *run) embedded(mod *Module, id int, esimd bool) ([]*Row, error) {
	target := ""
	if len(r.tables) > 0 {
		target = r.tables[0].Output.Target
	}
	data, err := r.hooks.Properties(r.o, mod, target)
	if err != nil {
		return nil, err
	}
	var syms *string
	if r.o.Symbols {
		s, err := mod.Part.SymbolTable()
		if err != nil {
			return nil, err
		}
		syms = &s
	}
	row := Row{Code: r.naming.IR(esimd, id)}
	split.AddStatus(mod.Plan, mod.Part.Status, mod.DefaultValues)
	split.AddAuxInfo(mod.Plan, data, syms)
	if err := r.out.writeModule(row.Code, mod.Plan); err != nil {
		return nil, err
	}
	rows := make([]*Row, len(r.tables))
	for i := range rows {
		rows[i] = &row
	}
	return rows, nil
}

// irOnly is -ir-output-only: the first group's (only) module, cleaned,
// goes to the output file; splitting is an error.
func (r *run) irOnly(st *state) error {
	return r.produce(1, func(_ int, res groupResult) error {
		for _, w := range res.warnings {
			r.diag.Warning(w)
		}
		if res.err != nil {
			return res.err
		}
		if err := r.checkHalves(st, res); err != nil {
			return err
		}
		if st.splitOccurred {
			return errorf("some modules had to be split, '-ir-output-only' can't be used")
		}
		mod := res.mods[0]
		return r.out.writeModule(r.o.Outputs[0].File, mod.Plan)
	})
}
