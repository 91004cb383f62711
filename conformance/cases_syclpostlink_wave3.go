package conformance

// The reference's other sycl-post-link tests (wave 3; their provenance is
// sycl-post-link/PROVENANCE-wave3.md beside them). They mix eras: each is
// run as it is where sycbuild passes it, adapted where an option is gone
// or the newest reference contradicts the test (the reason names the
// source), skipped where it drives a tool sycbuild does not replace, or
// marked Missing where sycbuild lacks the behaviour it checks.
func init() {
	Register(syclPostLinkWave3...)
}

// syclPostLinkWave3 is the wave-3 sycl-post-link tests, registered by init.
var syclPostLinkWave3 = []Case{
	Case{File: "sycl-post-link/assert/indirect-with-split.ll"},
	Case{File: "sycl-post-link/assert/property-1.ll"},
	Case{File: "sycl-post-link/device-code-split/amd-kernel-split.ll"},
	Case{File: "sycl-post-link/device-code-split/auto-module-split-2.ll", Adapts: moduleSplitTool(
		internalized("-split=auto -symbols -S < %s -o %t.table", "foo, foo1 and foo2 are copies in the kernels' modules",
			`s/define dso_local spir_func/define {{.*}}spir_func/`)...)},
	Case{File: "sycl-post-link/device-code-split/auto-module-split-3.ll", Adapts: moduleSplitTool(
		internalized("-split=auto -symbols -S < %s -o %t.table", "foo, foo1, foo2 and foo3 are copies in the kernels' modules",
			`s/define dso_local spir_func/define {{.*}}spir_func/`)...)},
	Case{File: "sycl-post-link/device-code-split/auto-module-split-func-ptr.ll", Adapts: moduleSplitTool(
		internalized("-split=auto -symbols -S < %s -o %t.table", "_Z2f1i is no SYCL_EXTERNAL function, only referenced from a global's initializer",
			`s/define dso_local spir_func i32 @_Z2f1i/define {{.*}}spir_func i32 @_Z2f1i/`)...)},
	Case{File: "sycl-post-link/device-code-split/indirectly-callable-auto-split.ll", Adapts: moduleSplitTool()},
	Case{File: "sycl-post-link/device-code-split/indirectly-callable-per-kernel-split.ll", Adapts: moduleSplitTool()},
	Case{File: "sycl-post-link/device-code-split/per-aspect-split-2.ll", Adapts: moduleSplitTool()},
	Case{File: "sycl-post-link/device-code-split/per-aspect-split-3.ll", Adapts: moduleSplitTool(
		internalized("-split=auto -symbols -S < %s -o %t.table", "foo is an entry point of its own module and a copy in kernel1's",
			`s/CHECK-M1-IR-DAG: define spir_func void @foo/CHECK-M1-IR-DAG: define {{.*}}spir_func void @foo/`)...)},
	Case{File: "sycl-post-link/device-code-split/per-aspect-split-4.ll"},
	Case{File: "sycl-post-link/device-code-split/per-joint-matrix-1.ll", Adapts: moduleSplitTool()},
	Case{File: "sycl-post-link/device-code-split/per-reqd-sub-group-size-split-1.ll", Adapts: moduleSplitTool()},
	Case{File: "sycl-post-link/device-code-split/per-reqd-sub-group-size-split-2.ll", Adapts: moduleSplitTool()},
	Case{File: "sycl-post-link/device-code-split/per-reqd-wg-size-split-1.ll", Adapts: moduleSplitTool()},
	Case{File: "sycl-post-link/device-code-split/per-reqd-wg-size-split-2.ll", Adapts: moduleSplitTool()},
	Case{File: "sycl-post-link/device-code-split/split-with-func-ptrs.ll"},
	Case{File: "sycl-post-link/device-code-split/vtable.ll"},
	Case{File: "sycl-post-link/device-globals/test_global_variable_drop_used_opaque_ptr.ll"},
	Case{File: "sycl-post-link/device-globals/test_global_variable_empty_set.ll", Adapts: []Adapt{
		RewriteRun("--spec-const=rt", "sycl-post-link --spec-const=rt", "sycl-post-link -properties --spec-const=rt",
			"the test predates -properties: the .prop files were always written"),
	}},
	Case{File: "sycl-post-link/device-globals/test_global_variable_many_modules_one_var_error.ll"},
	Case{File: "sycl-post-link/device-globals/test_global_variable_name_mapping_metadata.ll"},
	Case{File: "sycl-post-link/device-globals/test_global_variable_trim_used_opaque_ptr.ll"},
	Case{File: "sycl-post-link/device-globals/test_no_metadata_generated.ll"},
	Case{File: "sycl-post-link/device-requirements/aspects.ll"},
	Case{File: "sycl-post-link/device-requirements/fixed-target.ll"},
	Case{File: "sycl-post-link/device-requirements/joint-matrix.ll"},
	Case{File: "sycl-post-link/device-requirements/mask.ll"},
	Case{File: "sycl-post-link/device-requirements/reqd-sub-group-size.ll"},
	Case{File: "sycl-post-link/device-requirements/sycl-declared-aspects.ll", Adapts: []Adapt{
		RewriteRun("sycl-post-link -split=", "sycl-post-link -split=", "sycl-post-link -properties -split=",
			"the test predates -properties: the .prop files were always written"),
	}},
	Case{File: "sycl-post-link/device-sanitizer/dynamic-link-multi-image.ll"},
	Case{File: "sycl-post-link/device-sanitizer/tsan.ll"},
	Case{File: "sycl-post-link/embed_aux_info_as_metadata.ll"},
	Case{File: "sycl-post-link/emit_exported_symbols.ll"},
	Case{File: "sycl-post-link/emit_intel_reqd_sub_group_size.ll"},
	Case{File: "sycl-post-link/erase_used_opaque.ll"},
	Case{File: "sycl-post-link/exclude_external_functions.ll", Adapts: internalized(
		"-split=kernel -S < %s -o %t.table",
		"with image dependencies allowed only kernels and importable functions are kept (ModuleSplitter.cpp canBeImportedFunction: a SYCL_EXTERNAL function whose name does not start with \"__\"), so @internal (no sycl-module-id) and @__private are internal",
		`s/CHECK-LL-2: define weak_odr spir_func void @internal()/CHECK-LL-2: define internal spir_func void @internal()/`,
		`s/CHECK-LL-2: define weak_odr spir_func void @__private()/CHECK-LL-2: define internal spir_func void @__private()/`)},
	Case{File: "sycl-post-link/grf-size-conflict.ll", Adapts: []Adapt{
		RewriteRun("-split=source", "sycl-post-link -split=source", "sycl-post-link -properties -split=source",
			"the test predates -properties: the properties, whose computation finds the conflict, were always computed"),
	}},
	Case{File: "sycl-post-link/host-pipes/basic.ll", Adapts: []Adapt{
		ReplaceRun("--host-pipes -S %s -o %t.files.table", newestFails("sycl-post-link --host-pipes -S %s -o %t.files.table", "Unknown command line argument {{.}}--host-pipes"), hostPipesGone),
		SkipRun("-input-file=%t.files_0.ll", "no module is written: the command fails"),
		ReplaceRun("--host-pipes --ir-output-only", newestFails("sycl-post-link --host-pipes --ir-output-only %s -S -o -", "Unknown command line argument {{.}}--host-pipes"), hostPipesGone),
	}},
	Case{File: "sycl-post-link/imported.ll", Adapts: []Adapt{
		RewriteRun("-imports", "-symbols -imports", "-symbols",
			"-imports is gone: the newest reference writes imported symbols as the [SYCL/imported symbols] property set (-emit-imported-symbols, emit_imported_symbols.ll), not as .imported_sym files; the .sym checks stay"),
		SkipRun(".imported_sym", "checks of the .imported_sym files that -imports wrote"),
	}},
	Case{File: "sycl-post-link/internalize/exceptions.ll"},
	Case{File: "sycl-post-link/internalize/only-kernels-as-entry-points.ll"},
	Case{File: "sycl-post-link/internalize_functions.ll"},
	Case{File: "sycl-post-link/spec-constants/SYCL-alloca-error.ll"},
	Case{File: "sycl-post-link/spec-constants/cuda_spec_const_wrong_triple.ll"},
	Case{File: "sycl-post-link/spec-constants/default-value/bool.ll"},
	Case{File: "sycl-post-link/spec-constants/default-value/split-by-kernel.ll"},
	Case{File: "sycl-post-link/spec-constants/default-value/split-by-source.ll"},
	Case{File: "sycl-post-link/spec-constants/hierarchy.ll"},
	Case{File: "sycl-post-link/spec-constants/remove-dead-private-constants.ll", Adapts: []Adapt{
		SkipRun("-debug-only=SpecConst", "LLVM's debug output (-debug-only, of LLVM builds with assertions) is not part of sycbuild; the IR checks stay"),
	}},
	Case{File: "sycl-post-link/spec-constants/scalar-O0.ll", Adapts: []Adapt{
		ReplaceRun("-spec-const=default %s", newestDrops("sycl-post-link --ir-output-only -spec-const=default %s -S -o -"), specConst121Gone),
		ReplaceRun("-spec-const=rt %s", newestDrops("sycl-post-link --ir-output-only -spec-const=rt %s -S -o -"), specConst121Gone),
	}},
	Case{File: "sycl-post-link/sycl-esimd/lower-with-no-esimd-entry.ll", Adapts: tableEra(
		"-symbols -lower-esimd -split=auto -S < %s -o %t.table", "CHECK-TABLE", `s/{{\.\*}}_0\.prop|//`)},
	Case{File: "sycl-post-link/sycl-esimd/nbarriers-metadata.ll", Adapts: []Adapt{
		RewriteRun("%t_esimd_0.ll", "%t_esimd_0.ll", "%t_0.esimd.ll", esimdNaming),
	}},
	Case{File: "sycl-post-link/sycl-esimd/no-sycl-esimd-split.ll"},
	Case{File: "sycl-post-link/sycl-esimd/optnone.ll"},
	Case{File: "sycl-post-link/sycl-esimd/sycl-esimd-double-grf.ll", Adapts: []Adapt{
		ReplaceRun("-split-esimd -lower-esimd -S %s -o %t.table", newestFails("sycl-post-link -split=source -symbols -split-esimd -lower-esimd -S %s -o %t.table", "__esimd_set_kernel_properties"), doubleGRFGone),
		SkipRun("-input-file=%t", "no module is written: the command fails"),
	}},
	Case{File: "sycl-post-link/sycl-external-funcs/drop-known-builtins.ll", Adapts: []Adapt{
		SkipRun("%t-red.ll", "the run with -reduce-memory-usage and its check: -reduce-memory-usage (sharing the split's working memory between modules) is gone from the newest reference's options (../reference/dpcpp-tools.md 3.1); the same checks run on the line without it"),
	}},
	Case{File: "sycl-post-link/sycl-external-funcs/keep-indirectly-ref-funcs.ll"},
	Case{File: "sycl-post-link/sycl-external-funcs/split-and-lower-esimd.ll", Adapts: []Adapt{
		RewriteRun("%t_esimd_0.ll", "%t_esimd_0.ll", "%t_0.esimd.ll", esimdNaming),
	}},
	Case{File: "sycl-post-link/sycl-external-funcs/split-global.ll"},
	Case{File: "sycl-post-link/sycl-external-funcs/split-per-kernel.ll"},
	Case{File: "sycl-post-link/sycl-external-funcs/split-per-source2.ll"},
	Case{File: "sycl-post-link/virtual-functions/dummy.ll"},
	Case{File: "sycl-post-link/virtual-functions/module-cleanup-comdat.ll"},
	Case{File: "sycl-post-link/virtual-functions/module-cleanup.ll"},
}

// moduleSplitTool drops the RUN lines that drive sycl-module-split and
// check its outputs (%t2…), then applies more.
func moduleSplitTool(more ...Adapt) []Adapt {
	return append([]Adapt{
		SkipRun("sycl-module-split", "sycl-module-split is a separate tool of the reference (the same split as a library call) that sycbuild does not replace"),
		SkipRun("=%t2", "checks of the sycl-module-split outputs"),
	}, more...)
}

// internalized adapts the checks of a test written before internalization:
// the RUN line containing match also writes %t.checks, the test with the
// sed expressions applied, and FileCheck reads that copy.
func internalized(match, what string, seds ...string) []Adapt {
	return []Adapt{
		checksCopy(match, seds, "the test predates internalization: the newest reference internalizes every function that is not an entry point of its module "+
			"(llvm/lib/SYCLPostLink/ModuleSplitter.cpp at intel/llvm 03e5a6a6: ModuleDesc::cleanup marks entry points \"sycl-entry-point\" and runs InternalizePass with mustPreserveGV, "+
			"which keeps only those, \"indirectly-callable\" and \"referenced-indirectly\" functions); "+what),
		RewriteRun("FileCheck %s", "FileCheck %s", "FileCheck %t.checks", "check with the adapted copy of the test"),
	}
}

// esimdNaming is the reason of the ESIMD tests' file-name adaptation.
const esimdNaming = "the test predates the newest reference's dot-separated output suffixes: llvm/tools/sycl-post-link/sycl-post-link.cpp's saveModule names an ESIMD module <prefix>_<id>.esimd.ll (the upstream optnone.ll checks %t_0.esimd.ll), not <prefix>_esimd_<id>.ll"

// The reasons of the adaptations of tests whose behaviour the newest
// reference no longer has, with the sources that show it.
const (
	hostPipesGone = "--host-pipes is gone: it was only in a one-version snapshot of the tool (llvm/tools/sycl-post-link/HostPipes.cpp and this test, intel/llvm 823985f1); " +
		"the newest sycl-post-link.cpp defines no such option and does not run CompileTimePropertiesPass, which clang's SYCL device pipeline runs instead " +
		"(clang/lib/CodeGen/BackendUtil.cpp, registerPipelineStartEPCallback), so the test's !spirv.Decorations are the front end's; the adapted line checks the option is refused, as the newest reference refuses it"
	specConst121Gone = "the SYCL 1.2.1 intrinsic __sycl_getScalarSpecConstantValue is not lowered by the newest reference (llvm/lib/SYCLLowerIR/SpecConstants.cpp at 08fde7a7 names only " +
		"_Z37__sycl_getScalar2020SpecConstantValue and _Z40__sycl_getComposite2020SpecConstantValue; the 1.2.1 names were only in the older llvm/tools/sycl-post-link/SpecConstants.cpp, f88f4492), " +
		"and @FOO, neither a kernel nor SYCL_EXTERNAL, is internalized and dropped by ModuleDesc::cleanup (llvm/lib/SYCLPostLink/ModuleSplitter.cpp), -ir-output-only included: " +
		"the adapted line checks that nothing of @FOO, the intrinsic or a SPIR-V spec constant is left"
	doubleGRFGone = "the double-GRF ESIMD image split is gone from the newest reference (no x2grf, isDoubleGRFEsimdImage or SYCLLowerESIMDKernelPropsPass in llvm/lib/SYCLPostLink's " +
		"ModuleSplitter.cpp (03e5a6a6), ESIMDPostSplitProcessing.cpp (5c2bd9e5) or ComputeModuleRuntimeInfo.cpp (09168482); the GRF size is the kernel property sycl-grf-size, grf-size-conflict.ll), and its LowerESIMD " +
		"(llvm/lib/SYCLLowerIR/ESIMD/LowerESIMD.cpp, getIntrinDesc: \"unknown ESIMD intrinsic: \") refuses an __esimd_* builtin it has no entry for: the adapted line checks that the split fails naming __esimd_set_kernel_properties"
)

// newestFails is a RUN line checking that the command fails with an error
// message matching check (a FileCheck pattern, written to %t.newest).
func newestFails(cmd, check string) string {
	return "echo 'CHECK: " + check + "' > %t.newest && not " + cmd + " 2>&1 | FileCheck %t.newest"
}

// newestDrops is a RUN line checking that the module cmd prints keeps
// nothing of the test's function @FOO and its 1.2.1 spec constant.
func newestDrops(cmd string) string {
	return "echo 'CHECK: target triple' > %t.newest && " + cmd +
		" | FileCheck %t.newest --implicit-check-not=@FOO --implicit-check-not=__sycl_getScalarSpecConstantValue --implicit-check-not=__spirv_SpecConstant"
}
