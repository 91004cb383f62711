package syclpostlink

import (
	"strconv"

	"github.com/sycbuild/sycbuild/postlink"
)

// Args renders o as the sycl-post-link command line (without the program
// name) that Parse reads back as o: the build prints it and keys its action
// on it. The options the DPC++ driver passes come first, in the driver's
// order (clang/test/Driver/sycl-post-link-options.cpp), then the others,
// then the outputs and the input ("-", standard input, is left out: it is
// the default).
//
// Two values have no spelling of their own and are rendered as the value
// that means the same: the default optimization level -O2 is left out, and
// an output file without a target whose name holds a comma cannot be
// written at all (ParseOutput would split it; the DPC++ tool does too).
func Args(o postlink.Options) []string {
	var a []string
	flag := func(on bool, name string) {
		if on {
			a = append(a, name)
		}
	}
	flag(o.DeviceGlobals, "-device-globals")
	flag(o.Properties, "-properties")
	switch o.SpecConst {
	case postlink.SpecConstNative:
		a = append(a, "-spec-const=native")
	case postlink.SpecConstEmulation:
		a = append(a, "-spec-const=emulation")
	}
	if o.SplitGiven {
		a = append(a, "-split="+o.Split.String())
	}
	flag(o.EmitOnlyKernelsAsEPs, "-emit-only-kernels-as-entry-points")
	flag(o.EmitParamInfo, "-emit-param-info")
	flag(o.Symbols, "-symbols")
	flag(o.EmitExportedSymbols, "-emit-exported-symbols")
	flag(o.EmitImportedSymbols, "-emit-imported-symbols")
	flag(o.SplitESIMD, "-split-esimd")
	flag(o.Assembly, "-S")

	flag(o.LowerESIMD, "-lower-esimd")
	if o.OptLevel != 2 {
		a = append(a, "-O"+strconv.Itoa(o.OptLevel))
	}
	flag(o.EmitProgramMetadata, "-emit-program-metadata")
	flag(o.EmitKernelNames, "-emit-kernel-names")
	flag(o.EmbedAuxInfo, "-embed-aux-info-as-metadata")
	flag(o.DefaultSpecConstImage, "-generate-device-image-default-spec-consts")
	flag(o.AllowDeps, "-allow-device-image-dependencies")
	flag(o.IROutputOnly, "-ir-output-only")
	flag(o.Force, "-f")
	if o.OutDir != "" {
		a = append(a, "-out-dir="+o.OutDir)
	}
	if o.DeviceLibDir != "" {
		a = append(a, "-device-lib-dir="+o.DeviceLibDir)
	}
	for _, out := range o.Outputs {
		v := out.File
		if out.Target != "" {
			v = out.Target + "," + out.File
		}
		a = append(a, "-o", v)
	}
	if o.Input != "-" && o.Input != "" {
		a = append(a, o.Input)
	}
	return a
}

// Defaults are the options of a command line that gives none: standard
// input, the default optimization level.
func Defaults() postlink.Options { return newFlags("sycl-post-link").options() }
