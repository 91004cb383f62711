package specconst

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/llvmir"
)

// Every module the lowering writes is accepted by the LLVM that accepts its
// input: llvm-as-15 (typed and opaque pointers) and llvm-as-19 (opaque
// pointers only), in every mode. Inputs are this package's testdata and
// the peer's spec-constant tests (read in place) that are valid IR.
func TestLoweredModulesAssemble(t *testing.T) {
	inputs := map[string]string{"typed.ll": typedModule, "opaque.ll": header + opaqueBody}
	files, err := filepath.Glob(filepath.Join("testdata", "*.ll"))
	if err != nil {
		t.Fatal(err)
	}
	conf := testenv.ConformanceDir(t)
	for _, f := range []string{"bool.ll", "composite-padding-desc.ll", "default-value/device-image.ll"} {
		files = append(files, filepath.Join(conf, "sycl-post-link", "spec-constants", f))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = string(b)
	}
	as15 := testenv.Tool(t, "llvm-as-15")
	as19 := testenv.Tool(t, "llvm-as-19")
	dir := t.TempDir()
	assemble := func(as, file string) error {
		out, err := exec.Command(as, file, "-o", os.DevNull).CombinedOutput()
		if err != nil {
			return &asError{string(out)}
		}
		return nil
	}
	for name, src := range inputs {
		in := filepath.Join(dir, "in.ll")
		if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		var asms []string
		for _, as := range []string{as15, as19} {
			if assemble(as, in) == nil {
				asms = append(asms, as)
			}
		}
		if len(asms) == 0 {
			t.Errorf("%s: no assembler accepts the input", name)
			continue
		}
		for _, mode := range []Mode{Native, Emulation, DefaultValues} {
			m, err := llvmir.Parse(name, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			p := m.NewPlan()
			res, err := Lower(m, p, Options{Mode: mode})
			if err != nil {
				t.Errorf("%s %v: %v", name, mode, err)
				continue
			}
			if !res.Modified {
				t.Errorf("%s %v: nothing lowered", name, mode)
			}
			var b bytes.Buffer
			if err := p.Write(&b); err != nil {
				t.Errorf("%s %v: %v", name, mode, err)
				continue
			}
			out := filepath.Join(dir, "out.ll")
			if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, as := range asms {
				if err := assemble(as, out); err != nil {
					t.Errorf("%s %v: %s rejects the output: %v\n%s", name, mode, filepath.Base(as), err, b.String())
				}
			}
		}
	}
}

type asError struct{ msg string }

func (e *asError) Error() string { return strings.TrimSpace(e.msg) }

// typedModule is header's constants used from LLVM 15 typed-pointer IR.
const typedModule = header + `
define spir_kernel void @k(%struct.S addrspace(4)* %ret, i8 addrspace(4)* %buf, i32 addrspace(1)* %out) {
entry:
  %0 = call spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(i8 addrspace(4)* getelementptr inbounds ([7 x i8], [7 x i8] addrspace(4)* addrspacecast ([7 x i8] addrspace(1)* @name_a to [7 x i8] addrspace(4)*), i64 0, i64 0), i8 addrspace(4)* addrspacecast (i8 addrspace(1)* bitcast (%spec_id.i32 addrspace(1)* @sc_a to i8 addrspace(1)*) to i8 addrspace(4)*), i8 addrspace(4)* %buf)
  store i32 %0, i32 addrspace(1)* %out, align 4
  %1 = call spir_func zeroext i1 @_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_(i8 addrspace(4)* getelementptr inbounds ([7 x i8], [7 x i8] addrspace(4)* addrspacecast ([7 x i8] addrspace(1)* @name_b to [7 x i8] addrspace(4)*), i64 0, i64 0), i8 addrspace(4)* addrspacecast (i8 addrspace(1)* getelementptr inbounds (%spec_id.bool, %spec_id.bool addrspace(1)* @sc_b, i64 0, i32 0) to i8 addrspace(4)*), i8 addrspace(4)* %buf)
  call spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI1SET_PKcPKvS5_(%struct.S addrspace(4)* sret(%struct.S) align 4 %ret, i8 addrspace(4)* getelementptr inbounds ([7 x i8], [7 x i8] addrspace(4)* addrspacecast ([7 x i8] addrspace(1)* @name_c to [7 x i8] addrspace(4)*), i64 0, i64 0), i8 addrspace(4)* addrspacecast (i8 addrspace(1)* bitcast (%spec_id.S addrspace(1)* @sc_c to i8 addrspace(1)*) to i8 addrspace(4)*), i8 addrspace(4)* %buf)
  %2 = zext i1 %1 to i32
  ret void
}

declare spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(i8 addrspace(4)*, i8 addrspace(4)*, i8 addrspace(4)*)
declare spir_func zeroext i1 @_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_(i8 addrspace(4)*, i8 addrspace(4)*, i8 addrspace(4)*)
declare spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI1SET_PKcPKvS5_(%struct.S addrspace(4)* sret(%struct.S) align 4, i8 addrspace(4)*, i8 addrspace(4)*, i8 addrspace(4)*)
`
