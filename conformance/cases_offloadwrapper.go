package conformance

import (
	"path/filepath"
	"runtime"
)

// The peer's clang-offload-wrapper tests (clang/test/Driver/
// clang-offload-wrapper*.c). They check the wrapper's LLVM bitcode through
// llvm-dis; sycbuild writes the ELF object that compiling that bitcode
// gives, so those checks become checks of the same fields in the object: the
// dump that the wrapper's C harness prints when it is linked with the object
// and handed the descriptor at program start (%wrapper_harness), and
// readelf's view of the object. The translated check lines live next to the
// harness, one file per test (%wrapper_checks/<test>.checks). The OpenMP
// parts are skipped: sycbuild wraps -kind=sycl images only.
func init() {
	_, self, _, _ := runtime.Caller(0)
	testdata := filepath.Join(filepath.Dir(self), "..", "wrapper", "testdata")
	AddSubstitution("%wrapper_harness", filepath.Join(testdata, "harness.c"))
	AddSubstitution("%wrapper_checks", filepath.Join(testdata, "conformance"))
	AddFeature("x86-registered-target") // the wrapper writes x86-64 (and aarch64) objects
	AddFeature("zstd")                  // --offload-compress is supported

	const (
		openmp  = "the OpenMP offload kind is not supported (sycbuild wraps -kind=sycl images only)"
		object  = "sycbuild writes an ELF object, not bitcode: the checks of the bitcode's fields are checks of the harness's dump and of readelf's output"
		harness = "cc -o %t.harness %wrapper_harness"
	)
	Register(
		Case{
			File:  "clang-offload-wrapper/clang-offload-wrapper.c",
			Needs: []string{"cc", "readelf", "objcopy"},
			Adapts: []Adapt{
				ReplaceRun("-kind=openmp -target=tg2",
					"clang-offload-wrapper -host=x86_64-pc-linux-gnu -kind=sycl -target=tg1 -compile-opts=-g -link-opts=-cl-denorms-are-zero -format spirv %t1.tgt -target=tg2 -compile-opts= -link-opts= -format native %t2.tgt -o %t.wrapper.o",
					openmp+"; the command keeps its two SYCL images, and the ELF-note warning (about the OpenMP image) is not expected"),
				ReplaceRun("llvm-dis %t.wrapper.bc -o - | FileCheck %s --check-prefix CHECK-IR",
					harness+" %t.wrapper.o && env HARNESS_IMAGE_STEM=%t.img %t.harness | FileCheck %wrapper_checks/clang-offload-wrapper.checks --check-prefix CHECK-IR && cmp %t.img.0 %t1.tgt && cmp %t.img.1 %t2.tgt && readelf -SrsW %t.wrapper.o | FileCheck %wrapper_checks/clang-offload-wrapper.checks --check-prefix CHECK-ELF",
					object+"; the image bytes are compared with the inputs"),
				ReplaceRun("--check-prefix CHECK-IR1",
					"clang-offload-wrapper -kind sycl -host=x86_64-pc-linux-gnu -emit-reg-funcs=0 -desc-name=lalala -o - %t.tgt > %t.ir1.o && readelf -SsW %t.ir1.o | FileCheck %wrapper_checks/clang-offload-wrapper.checks --check-prefix CHECK-IR1 && cc -o %t.ir1 '-DHARNESS_DESC=\".sycl_offloading.lalala\"' %wrapper_harness %t.ir1.o && %t.ir1 | FileCheck %wrapper_checks/clang-offload-wrapper.checks --check-prefix DUMP-IR1",
					object+"; without registration functions the harness registers the global descriptor .sycl_offloading.lalala itself"),
				ReplaceRun("--check-prefix CHECK-IR3",
					"clang-offload-wrapper -host=x86_64-pc-linux-gnu -kind=sycl -entries=%t.txt %t.tgt -o - > %t.ir3.o && "+harness+" %t.ir3.o && %t.harness | FileCheck %wrapper_checks/clang-offload-wrapper.checks --check-prefix CHECK-IR3",
					object),
				RewriteRun("-target=spir64-unknown-linux %t1.tgt", "-o %t.wrapper.bc", "-o %t.wrapper.o",
					"the wrapper's output is the object itself"),
				SkipRun("%clang -target x86_64-pc-linux-gnu -c %t.wrapper.bc",
					"compiles the wrapper's bitcode into an object; sycbuild writes that object directly"),
				ReplaceRun("clang-offload-bundler --type=o",
					"objcopy -O binary --only-section=__CLANG_OFFLOAD_BUNDLE__sycl-spir64-unknown-linux %t.wrapper.o %t1.out",
					"clang-offload-bundler is not in Debian's LLVM packages; unbundling an object copies out the section __CLANG_OFFLOAD_BUNDLE__<kind>-<target>, as objcopy does here"),
				SkipRun("yaml2obj", openmp+" (LLVMOMPOFFLOAD notes of OpenMP images; yaml2obj makes their inputs)"),
				SkipRun("-add-omp-offload-notes -kind=openmp", openmp),
				SkipRun("--check-prefix OMPNOTES", openmp),
			},
		},
		Case{
			File:    "clang-offload-wrapper/clang-offload-wrapper-multi-batch.c",
			Needs:   []string{"cc", "readelf", "clang-19"},
			Aliases: map[string]string{"llvm-strings": "llvm-strings-19"},
			Adapts: []Adapt{
				ReplaceRun("clang-offload-extract --stem=%t.extracted",
					harness+" %t.wrapped.o && env HARNESS_IMAGE_STEM=%t.extracted %t.harness | FileCheck %wrapper_checks/clang-offload-wrapper-multi-batch.checks --check-prefix CHECK-EXTRACT",
					"clang-offload-extract is not in Debian's LLVM packages; the harness is handed the same images at program start and writes them to <stem>.<i> as clang-offload-extract --stem does, for the test's diffs"),
				SkipRun("llvm-dis %t.wrapped.bc", object),
				ReplaceRun("--check-prefix CHECK-DISASM",
					"%t.harness | FileCheck %wrapper_checks/clang-offload-wrapper-multi-batch.checks --check-prefix CHECK-DISASM && readelf -SW %t.wrapped.o | FileCheck %wrapper_checks/clang-offload-wrapper-multi-batch.checks --check-prefix CHECK-SECTIONS",
					object),
				RewriteRun("wrapped.bc", ".wrapped.bc", ".wrapped.o",
					"the wrapper writes an ELF object: named .o, so that clang links it rather than compiling it as bitcode"),
				RewriteRun("wrapped2.bc", ".wrapped2.bc", ".wrapped2.o", "as for .wrapped.o"),
				RewriteRun("%clang -fdeclspec", "%clang", "clang-19", "%clang is clang-19 here"),
			},
		},
		Case{
			File:  "clang-offload-wrapper/clang-offload-wrapper-zstd.c",
			Needs: []string{"cc"},
			Adapts: []Adapt{
				AddRun("clang-offload-wrapper -kind=sycl -target=TARGET -batch %t.img1 -o %t.compressed.o --offload-compress --offload-compression-level=9 --offload-compression-threshold=0",
					"beyond the test's -v messages: the compressed image as the runtime receives it"),
				AddRun(harness+" %t.compressed.o && %t.harness | FileCheck %wrapper_checks/clang-offload-wrapper-zstd.checks",
					"its format is 4 (compressed) and its manifest, entries and properties are kept"),
			},
		},
	)
}
