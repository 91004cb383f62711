package conformance

import (
	"path/filepath"
	"runtime"
)

// The peer's clang-offload-wrapper tests (clang/test/Driver/
// clang-offload-wrapper*.c). sycbuild's clang-offload-wrapper writes the
// same LLVM bitcode module as the DPC++ tool, so the tests' llvm-dis checks
// (llvm-dis is llvm-dis-19 here) run as written, and their %clang steps
// compile and link that bitcode with clang-19. What is adapted, each with
// its reason: the OpenMP parts are skipped (sycbuild wraps -kind=sycl images
// only), and clang-offload-extract and the SYCL use of clang-offload-bundler
// (not available here in the DPC++ form) are replaced by the wrapper's C
// harness (%wrapper_harness, which stands in for the SYCL runtime, prints
// every field it is handed and writes the images out) and objcopy. Check
// lines written for sycbuild live next to the harness, one file per test
// (%wrapper_checks/<test>.checks).
func init() {
	_, self, _, _ := runtime.Caller(0)
	testdata := filepath.Join(filepath.Dir(self), "..", "wrapper", "testdata")
	AddSubstitution("%wrapper_harness", filepath.Join(testdata, "harness.c"))
	AddSubstitution("%wrapper_checks", filepath.Join(testdata, "conformance"))
	AddFeature("x86-registered-target") // the wrapper writes x86-64 (and aarch64) hosts' bitcode and objects
	AddFeature("zstd")                  // --offload-compress is supported

	const (
		openmp  = "the OpenMP offload kind is not supported (sycbuild wraps -kind=sycl images only)"
		clang   = "%clang is clang-19 here"
		llvmDis = "llvm-dis-19"
	)
	Register(
		Case{
			File:    "clang-offload-wrapper/clang-offload-wrapper.c",
			Needs:   []string{"cc", "objcopy", "clang-19", "llc-19"},
			Aliases: map[string]string{"llvm-dis": llvmDis},
			Adapts: []Adapt{
				ReplaceRun("-kind=openmp -target=tg2",
					"clang-offload-wrapper -host=x86_64-pc-linux-gnu -kind=sycl -target=tg1 -compile-opts=-g -link-opts=-cl-denorms-are-zero -format spirv %t1.tgt -target=tg2 -compile-opts= -link-opts= -format native %t2.tgt -o %t.wrapper.bc && cp %t.wrapper.bc %t.wrapper-ir.bc",
					openmp+"; the command keeps its two SYCL images (and keeps a copy of its bitcode for a check added at the end), and the ELF-note warning (about the OpenMP image) is not expected"),
				ReplaceRun("llvm-dis %t.wrapper.bc -o - | FileCheck %s --check-prefix CHECK-IR",
					"llvm-dis %t.wrapper.bc -o - | FileCheck %wrapper_checks/clang-offload-wrapper.checks --check-prefix CHECK-IR",
					"the test's CHECK-IR lines interleave the OpenMP image's globals with the SYCL ones: the checks file holds its SYCL lines as written, the constructor and destructor arrays with the SYCL entry alone"),
				AddRun("llc-19 -filetype=obj -relocation-model=pic %t.wrapper-ir.bc -o %t.wrapper-ir.o && cc -o %t.harness %wrapper_harness %t.wrapper-ir.o && env HARNESS_IMAGE_STEM=%t.img %t.harness | FileCheck %wrapper_checks/clang-offload-wrapper.checks --check-prefix DUMP-IR && cmp %t.img.0 %t1.tgt && cmp %t.img.1 %t2.tgt",
					"beyond the test: the CHECK-IR bitcode compiled by llc-19 and linked with the harness registers both images with every field, and their bytes are the inputs"),
				RewriteRun("%clang -target x86_64-pc-linux-gnu -c %t.wrapper.bc", "%clang", "clang-19", clang),
				ReplaceRun("clang-offload-bundler --type=o",
					"objcopy -O binary --only-section=__CLANG_OFFLOAD_BUNDLE__sycl-spir64-unknown-linux %t.wrapper.o %t1.out",
					"the clang-offload-bundler at hand (LLVM 22's) accepts no sycl-<triple> target; unbundling an object copies out the section __CLANG_OFFLOAD_BUNDLE__<kind>-<target>, as objcopy does here"),
				SkipRun("yaml2obj", openmp+" (LLVMOMPOFFLOAD notes of OpenMP images; yaml2obj makes their inputs)"),
				SkipRun("-add-omp-offload-notes -kind=openmp", openmp),
				SkipRun("--check-prefix OMPNOTES", openmp),
			},
		},
		Case{
			File:    "clang-offload-wrapper/clang-offload-wrapper-multi-batch.c",
			Needs:   []string{"cc", "clang-19", "llc-19"},
			Aliases: map[string]string{"llvm-strings": "llvm-strings-19", "llvm-dis": llvmDis},
			Adapts: []Adapt{
				RewriteRun("%clang -fdeclspec", "%clang", "clang-19", clang),
				ReplaceRun("clang-offload-extract --stem=%t.extracted",
					"llc-19 -filetype=obj -relocation-model=pic %t.wrapped.bc -o %t.wrapped.o && cc -o %t.harness %wrapper_harness %t.wrapped.o && env HARNESS_IMAGE_STEM=%t.extracted %t.harness | FileCheck %wrapper_checks/clang-offload-wrapper-multi-batch.checks --check-prefix CHECK-EXTRACT",
					"clang-offload-extract is not in Debian's LLVM packages; the wrapper's bitcode compiled by llc-19 and linked with the harness hands it the same images at program start, which it writes to <stem>.<i> as clang-offload-extract --stem does, for the test's diffs"),
			},
		},
		Case{
			File:    "clang-offload-wrapper/clang-offload-wrapper-zstd.c",
			Needs:   []string{"cc", "llc-19"},
			Aliases: map[string]string{"llvm-dis": llvmDis},
			Adapts: []Adapt{
				AddRun("clang-offload-wrapper -kind=sycl -target=TARGET -batch %t.img1 -o %t.compressed.bc --offload-compress --offload-compression-level=9 --offload-compression-threshold=0",
					"beyond the test's -v messages: the compressed image as the runtime receives it"),
				AddRun("llc-19 -filetype=obj -relocation-model=pic %t.compressed.bc -o %t.compressed.o && cc -o %t.harness %wrapper_harness %t.compressed.o && %t.harness | FileCheck %wrapper_checks/clang-offload-wrapper-zstd.checks",
					"its format is 4 (compressed) and its manifest, entries and properties are kept"),
				AddRun("llvm-dis %t.compressed.bc -o - | FileCheck %wrapper_checks/clang-offload-wrapper-zstd.checks --check-prefix CHECK-IR",
					"the compressed image's global, a zstd frame, in the bundle section of its target"),
			},
		},
	)
}
