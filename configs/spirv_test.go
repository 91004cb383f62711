package configs

import (
	"strings"
	"testing"
)

// TestSPIRVAndWrapperKeys checks the spirv: and wrapper: keys: values,
// defaults, and which kinds take spirv:.
func TestSPIRVAndWrapperKeys(t *testing.T) {
	c, err := Parse("targets.yaml", []byte("inputs: [a.ll]\nwrapper: offload-binary\ntargets:\n  - kind: spir64\n    spirv: llvm-backend\n  - kind: spir64_gen\n    devices: [pvc]\n    spirv: translator\n  - kind: spir64\n    name: auto\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Wrapper != WrapperOffloadBinary || c.Targets[0].SPIRV != SPIRVBackend || c.Targets[1].SPIRV != SPIRVTranslator || c.Targets[2].SPIRV != "" {
		t.Errorf("wrapper %q, spirv %q %q %q", c.Wrapper, c.Targets[0].SPIRV, c.Targets[1].SPIRV, c.Targets[2].SPIRV)
	}
	if c, err := Parse("targets.yaml", []byte("inputs: [a.ll]\ntargets: [{kind: llvm_ir}]\n")); err != nil || c.Wrapper != WrapperDPCPP {
		t.Errorf("default wrapper: %v, %v", c, err)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"inputs: [a.ll]\ntargets:\n  - kind: spir64\n    spirv: llc\n", `targets.yaml:4:12: targets[0].spirv: unknown SPIR-V route "llc" (want llvm-backend or translator)`},
		{"inputs: [a.ll]\ntargets:\n  - kind: llvm_ir\n    spirv: translator\n", "targets.yaml:4:12: targets[0].spirv: only spir64 and spir64_gen targets make SPIR-V"},
		{"inputs: [a.ll]\nwrapper: llvm\ntargets: [{kind: llvm_ir}]\n", `targets.yaml:2:10: wrapper: unknown wrapper format "llvm" (want dpcpp or offload-binary)`},
	} {
		_, err := Parse("targets.yaml", []byte(tc.yaml))
		if err == nil || strings.TrimSpace(err.Error()) != tc.want {
			t.Errorf("%q: error %v, want %s", tc.yaml, err, tc.want)
		}
	}
}
