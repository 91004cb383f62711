package postlink

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

const syclOnly = `target triple = "spir64-unknown-unknown"

define spir_kernel void @k1() #0 {
  call spir_func void @helper()
  ret void
}

define spir_kernel void @k2() #1 {
  ret void
}

define spir_func void @helper() {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-module-id"="b.cpp" }
`

const esimdFuncOnly = `target triple = "spir64-unknown-unknown"

define spir_kernel void @k() #0 {
  call spir_func void @esimdHelper()
  ret void
}

define spir_func void @esimdHelper() #0 !sycl_explicit_simd !0 {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }

!0 = !{}
`

// runLowerESIMD runs the tool on src in a fresh directory, with
// -lower-esimd when lower is set, and returns the files written.
func runLowerESIMD(t *testing.T, src string, lower bool) (map[string]string, error) {
	t.Helper()
	t.Chdir(t.TempDir())
	o := Options{Input: "-", Split: SplitSource, SplitGiven: true, SplitESIMD: true, Symbols: true,
		Assembly: true, LowerESIMD: lower, Outputs: []Output{{File: "o.table"}}}
	var stdout, stderr bytes.Buffer
	err := Run(&o, IO{Stdin: strings.NewReader(src), Stdout: &stdout, Stderr: &stderr, Argv0: "sycl-post-link"})
	out := map[string]string{}
	for _, f := range files(t, ".") {
		out[f] = readFile(t, f)
	}
	return out, err
}

// TestLowerESIMD: -lower-esimd changes nothing in a module without ESIMD
// code and refuses one with ESIMD code, naming its ESIMD kernels (or,
// without any, its ESIMD functions) and writing nothing.
func TestLowerESIMD(t *testing.T) {
	without, err := runLowerESIMD(t, syclOnly, false)
	if err != nil {
		t.Fatal(err)
	}
	with, err := runLowerESIMD(t, syclOnly, true)
	if err != nil {
		t.Fatalf("-lower-esimd on a module without ESIMD code: %v", err)
	}
	if len(with) != 5 || fmt.Sprint(with) != fmt.Sprint(without) {
		t.Errorf("-lower-esimd changed the output:\n%v\nwithout it:\n%v", with, without)
	}

	var many strings.Builder
	many.WriteString("target triple = \"spir64-unknown-unknown\"\n")
	for i := range 12 {
		fmt.Fprintf(&many, "define spir_kernel void @e%d() #0 !sycl_explicit_simd !0 {\n  ret void\n}\n", i)
	}
	many.WriteString("attributes #0 = { \"sycl-module-id\"=\"a.cpp\" }\n!0 = !{}\n")

	const tail = "; lowering ESIMD code needs the vc-intrinsics pipeline, which sycbuild does not implement (build ESIMD code with the DPC++ sycl-post-link)"
	for _, tc := range []struct{ name, src, want string }{
		{"ESIMD and SYCL kernels", esimdMix, "sycl-post-link: -lower-esimd: <stdin> has ESIMD kernel esimdK" + tail},
		{"an ESIMD function", esimdFuncOnly, "sycl-post-link: -lower-esimd: <stdin> has ESIMD function esimdHelper" + tail},
		{"many ESIMD kernels", many.String(), "sycl-post-link: -lower-esimd: <stdin> has ESIMD kernels e0, e1, e2, e3, e4, e5, e6, e7, e8, e9 and 2 more" + tail},
	} {
		out, err := runLowerESIMD(t, tc.src, true)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v\nwant %s", tc.name, err, tc.want)
		}
		if len(out) != 0 {
			t.Errorf("%s: files written: %v", tc.name, out)
		}
		// Without -lower-esimd the same module is processed.
		if _, err := runLowerESIMD(t, tc.src, false); err != nil {
			t.Errorf("%s without -lower-esimd: %v", tc.name, err)
		}
	}
}
