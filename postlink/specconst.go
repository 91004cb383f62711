package postlink

import (
	"bytes"

	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/props"
	"github.com/sycbuild/sycbuild/specconst"
)

// specConstOptions are the lowering options for mod.
func specConstOptions(mod *Module, mode specconst.Mode) specconst.Options {
	return specconst.Options{Mode: mode, Kept: mod.Part.Written, Defines: mod.Part.Defines, Cloned: mod.Cloned,
		Globals: mod.globals()}
}

func lowerMode(mode SpecConstMode) specconst.Mode {
	if mode == SpecConstEmulation {
		return specconst.Emulation
	}
	return specconst.Native
}

// lowerSpecConstants is the SpecConstants hook: the default-value copy is
// made first, from the module as it is (the reference clones before
// lowering), then the module itself is lowered in mode.
func lowerSpecConstants(o *Options, mod *Module, mode SpecConstMode, defaults bool) (bool, *Module, error) {
	var def *Module
	if defaults && specconst.ContainsSpecConsts(mod.globals(), mod.Part.Written) {
		part := *mod.Part
		// The copy's entry points are rebuilt: all its spir kernels.
		part.Entries = nil
		for _, e := range mod.globals() {
			if e.Func != nil && e.Func.CallingConv == "spir_kernel" && part.Defines(e) {
				part.Entries = append(part.Entries, e)
			}
		}
		def = &Module{Part: &part, Plan: part.Plan(), M: mod.M, Cloned: true, DefaultValues: true}
		if _, err := specconst.Lower(mod.M, def.Plan, specConstOptions(def, specconst.DefaultValues)); err != nil {
			return false, nil, errorf("%s", err)
		}
	}
	if mode == SpecConstOff {
		return false, def, nil
	}
	res, err := specconst.Lower(mod.M, mod.Plan, specConstOptions(mod, lowerMode(mode)))
	if err != nil {
		return false, nil, errorf("%s", err)
	}
	return res.Modified, def, nil
}

// moduleProperties is the Properties hook: the .prop file of mod for the
// table of target.
func moduleProperties(o *Options, mod *Module, target string) ([]byte, error) {
	img := &props.Image{
		M:                 mod.M,
		Kept:              mod.Part.Written,
		Globals:           mod.globals(),
		Declaration:       func(e *llvmir.Entity) bool { return !mod.Part.Defines(e) },
		EntryPoints:       mod.Part.Entries,
		Esimd:             props.EsimdStatus(mod.Part.Status),
		Cloned:            mod.Cloned,
		DefaultValueImage: mod.DefaultValues,
		Dummy:             mod.Dummy,
	}
	if o.SpecConst != SpecConstOff && !mod.DefaultValues {
		// What the lowering recorded, computed again without edits.
		res, err := specconst.Lower(mod.M, nil, specConstOptions(mod, lowerMode(o.SpecConst)))
		if err != nil {
			return nil, errorf("%s", err)
		}
		img.SpecConsts, img.SpecConstDefaults = res.SpecConsts, res.Defaults
	}
	reg, err := props.Compute(img, props.Options{
		EmitParamInfo:         o.EmitParamInfo,
		EmitProgramMetadata:   o.EmitProgramMetadata,
		EmitExportedSymbols:   o.EmitExportedSymbols,
		EmitImportedSymbols:   o.EmitImportedSymbols,
		EmitKernelNames:       o.EmitKernelNames,
		DeviceGlobals:         o.DeviceGlobals,
		AllowDeps:             o.AllowDeps,
		DropReqdWorkGroupSize: o.Split == SplitNone,
		CompileTarget:         target,
	})
	if err != nil {
		return nil, errorf("%s", err)
	}
	var b bytes.Buffer
	if err := reg.Write(&b); err != nil {
		return nil, errorf("%s", err)
	}
	return b.Bytes(), nil
}
