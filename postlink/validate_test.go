package postlink

import "testing"

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		o    Options
		want string // "" = valid
	}{
		{"nothing", Options{}, "no actions specified; try --help for usage info"},
		{"default-spec-consts alone is no action", Options{DefaultSpecConstImage: true}, "no actions specified; try --help for usage info"},
		{"split none is an action", Options{SplitGiven: true}, ""},
		{"symbols", Options{Symbols: true}, ""},
		{"spec-const", Options{SpecConst: SpecConstEmulation}, ""},
		{"device-globals", Options{DeviceGlobals: true}, ""},
		{"ir-only with auto", Options{IROutputOnly: true, SplitGiven: true, Split: SplitAuto}, ""},
		{"ir-only with kernel", Options{IROutputOnly: true, SplitGiven: true, Split: SplitKernel}, "error: -split=kernel can't be used with -ir-output-only"},
		{"ir-only with source", Options{IROutputOnly: true, SplitGiven: true, Split: SplitSource}, "error: -split=source can't be used with -ir-output-only"},
		{"ir-only with split-esimd", Options{IROutputOnly: true, SplitESIMD: true}, "error: -split-esimd can't be used with -ir-output-only"},
		{"ir-only with symbols", Options{IROutputOnly: true, Symbols: true}, "error: -symbols can't be used with -ir-output-only"},
		{"ir-only with properties", Options{IROutputOnly: true, Properties: true}, "error: -properties can't be used with -ir-output-only"},
		{"ir-only with param info", Options{IROutputOnly: true, EmitParamInfo: true}, "error: -emit-param-info can't be used with -ir-output-only"},
		{"ir-only with program metadata", Options{IROutputOnly: true, EmitProgramMetadata: true}, "error: -emit-program-metadata can't be used with -ir-output-only"},
		{"ir-only with kernel names", Options{IROutputOnly: true, EmitKernelNames: true}, "error: -emit-kernel-names can't be used with -ir-output-only"},
		{"ir-only with exported", Options{IROutputOnly: true, EmitExportedSymbols: true}, "error: -emit-exported-symbols can't be used with -ir-output-only"},
		{"ir-only with imported", Options{IROutputOnly: true, EmitImportedSymbols: true}, "error: -emit-imported-symbols can't be used with -ir-output-only"},
		{"ir-only with default images", Options{IROutputOnly: true, SpecConst: SpecConstNative, DefaultSpecConstImage: true}, "error: -generate-device-image-default-spec-consts can't be used with -ir-output-only"},
		{"split checked before other conflicts", Options{IROutputOnly: true, SplitGiven: true, Split: SplitKernel, Symbols: true}, "error: -split=kernel can't be used with -ir-output-only"},
		{"lower-esimd is an action", Options{LowerESIMD: true}, ""},
		{"lower-esimd with split-esimd", Options{LowerESIMD: true, SplitESIMD: true}, ""},
	}
	for _, c := range cases {
		err := c.o.Validate()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestModeParsing(t *testing.T) {
	for in, want := range map[string]SpecConstMode{"native": SpecConstNative, "rt": SpecConstNative, "emulation": SpecConstEmulation, "default": SpecConstEmulation} {
		if got, ok := ParseSpecConstMode(in); !ok || got != want {
			t.Errorf("ParseSpecConstMode(%q) = %v,%v", in, got, ok)
		}
	}
	if _, ok := ParseSpecConstMode("x"); ok {
		t.Error("ParseSpecConstMode accepted x")
	}
	for in, want := range map[string]SplitMode{"source": SplitSource, "kernel": SplitKernel, "auto": SplitAuto, "none": SplitNone} {
		if got, ok := ParseSplitMode(in); !ok || got != want || got.String() != in {
			t.Errorf("ParseSplitMode(%q) = %v,%v", in, got, ok)
		}
	}
}
