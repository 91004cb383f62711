// Package postlink is sycbuild's sycl-post-link: the option set, the order in
// which each split module is processed, output naming and the output file
// table. It reproduces "version A" (mid-2025) of the DPC++ tool: the same
// files, the same table, the same diagnostics.
//
// The work itself lives below it: package split finds entry points, groups
// them, builds the dependency graph once and extracts and cleans each
// module; the specialization-constant and property-set steps plug in through
// the hooks of hooks.go. postlink holds no global state: everything comes in
// through Options.
package postlink

// SplitMode is the value of -split.
type SplitMode int

// The split modes. SplitNone is the default (no -split given) and also the
// value of the accepted spelling -split=none.
const (
	SplitNone SplitMode = iota
	SplitSource
	SplitKernel
	SplitAuto
)

func (m SplitMode) String() string {
	switch m {
	case SplitSource:
		return "source"
	case SplitKernel:
		return "kernel"
	case SplitAuto:
		return "auto"
	}
	return "none"
}

// ParseSplitMode maps a -split value to its mode.
func ParseSplitMode(s string) (SplitMode, bool) {
	switch s {
	case "source":
		return SplitSource, true
	case "kernel":
		return SplitKernel, true
	case "auto":
		return SplitAuto, true
	case "none":
		return SplitNone, true
	}
	return SplitNone, false
}

// SpecConstMode is the value of -spec-const. SpecConstOff means the option
// was not given: spec constants are left alone.
type SpecConstMode int

// The spec-constant handling modes.
const (
	SpecConstOff SpecConstMode = iota
	SpecConstNative
	SpecConstEmulation
)

// ParseSpecConstMode maps a -spec-const value, including the 2020-2023
// spellings rt (native) and default (emulation), to its mode.
func ParseSpecConstMode(s string) (SpecConstMode, bool) {
	switch s {
	case "native", "rt":
		return SpecConstNative, true
	case "emulation", "default":
		return SpecConstEmulation, true
	}
	return SpecConstOff, false
}

// Output is one -o value: a table file, optionally for one target
// ("intel_gpu_pvc,out.table"), in which case the table lists only the
// modules compatible with that target.
type Output struct {
	Target string
	File   string
}

// ParseOutput splits an -o value at its first comma, as the reference does;
// a value without a comma is a plain file name.
func ParseOutput(v string) Output {
	for i := 0; i < len(v); i++ {
		if v[i] == ',' {
			if v[i+1:] == "" {
				return Output{File: v[:i]}
			}
			return Output{Target: v[:i], File: v[i+1:]}
		}
	}
	return Output{File: v}
}

// Options is everything sycl-post-link is told on its command line.
type Options struct {
	// Input is the input IR file; "-" is standard input.
	Input string
	// Outputs are the -o values in command-line order; empty means the
	// default "<stem>.files" (or "<stem>.out" with IROutputOnly).
	Outputs []Output
	// OutDir is -out-dir: where the produced files go ("" = beside the
	// first output).
	OutDir string
	// DeviceLibDir is -device-lib-dir (bfloat16 device libraries).
	DeviceLibDir string
	// Force is -f: allow binary output on a terminal.
	Force bool
	// IROutputOnly is -ir-output-only: write one IR file, no table.
	IROutputOnly bool
	// Assembly is -S: write modules as .ll text instead of .bc bitcode
	// (see IO.Assemble).
	Assembly bool

	// Split is -split; SplitGiven records that it occurred at all (an
	// action on its own, even as -split=none).
	Split      SplitMode
	SplitGiven bool
	// SplitESIMD is -split-esimd; LowerESIMD is -lower-esimd (package
	// esimd lowers the ESIMD code of each module; a no-op on modules
	// without ESIMD code).
	SplitESIMD bool
	LowerESIMD bool
	// ESIMDStateful is -lower-esimd-force-stateless-mem=false: ESIMD
	// kernels take buffer accessors as surfaces, not pointers.
	ESIMDStateful bool
	// OptLevel is the ESIMD pipeline level from -O0..-O3/-Os/-Oz (default 2).
	OptLevel int

	Symbols    bool
	Properties bool
	SpecConst  SpecConstMode

	EmitParamInfo       bool
	EmitProgramMetadata bool
	EmitKernelNames     bool
	// EmbedAuxInfo (-embed-aux-info-as-metadata) puts each module's
	// property sets and symbol table into the module itself, as the
	// strings of !sycl_properties and !sycl_symbol_table, instead of
	// .prop and .sym files: the table has only the Code column.
	EmbedAuxInfo          bool
	EmitExportedSymbols   bool
	EmitImportedSymbols   bool
	EmitOnlyKernelsAsEPs  bool
	DeviceGlobals         bool
	DefaultSpecConstImage bool // -generate-device-image-default-spec-consts
	// AllowDeps is -allow-device-image-dependencies (old spelling
	// -support-dynamic-linking): images may import functions from others.
	AllowDeps bool
}
