package postlink

// An action is an option that makes the tool do something; without any of
// them the reference refuses to run. -generate-device-image-default-spec-consts
// alone is deliberately not one.
func (o *Options) hasAction() bool {
	return o.SplitGiven || o.SpecConst != SpecConstOff || o.Symbols || o.Properties ||
		o.EmitParamInfo || o.EmitProgramMetadata || o.SplitESIMD || o.EmitKernelNames ||
		o.EmitExportedSymbols || o.EmitImportedSymbols || o.DeviceGlobals || o.LowerESIMD
}

// irOnlyConflicts are the options that make no sense when a single IR file
// is written instead of a table, in the order the reference checks them.
var irOnlyConflicts = []struct {
	name string
	set  func(*Options) bool
}{
	{"split-esimd", func(o *Options) bool { return o.SplitESIMD }},
	{"symbols", func(o *Options) bool { return o.Symbols }},
	{"properties", func(o *Options) bool { return o.Properties }},
	{"emit-param-info", func(o *Options) bool { return o.EmitParamInfo }},
	{"emit-program-metadata", func(o *Options) bool { return o.EmitProgramMetadata }},
	{"emit-kernel-names", func(o *Options) bool { return o.EmitKernelNames }},
	{"emit-exported-symbols", func(o *Options) bool { return o.EmitExportedSymbols }},
	{"emit-imported-symbols", func(o *Options) bool { return o.EmitImportedSymbols }},
	{"generate-device-image-default-spec-consts", func(o *Options) bool { return o.DefaultSpecConstImage }},
}

// Validate checks the option set the way the reference's main does before
// reading any input, with the same messages.
func (o *Options) Validate() error {
	if !o.hasAction() {
		return plainf("no actions specified; try --help for usage info")
	}
	if o.IROutputOnly {
		// -split=auto still filters entry points with a single output;
		// -split=none (a later spelling) splits nothing either.
		if o.SplitGiven && o.Split != SplitAuto && o.Split != SplitNone {
			return plainf("error: -split=%s can't be used with -ir-output-only", o.Split)
		}
		for _, c := range irOnlyConflicts {
			if c.set(o) {
				return plainf("error: -%s can't be used with -ir-output-only", c.name)
			}
		}
	}
	return nil
}
