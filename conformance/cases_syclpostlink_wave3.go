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
	Case{File: "sycl-post-link/host-pipes/basic.ll",
		Skip: "the test is of --host-pipes, an option gone from the newest reference, whose sycl-post-link no longer lowers compile-time properties of globals into !spirv.Decorations (the front end does; the option table of ../reference/dpcpp-tools.md 3.1 has no --host-pipes); all its checks are of those decorations"},
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
	Case{File: "sycl-post-link/spec-constants/scalar-O0.ll",
		Skip: "the test is of the SYCL 1.2.1 intrinsic __sycl_getScalarSpecConstantValue, which the newest reference no longer lowers (llvm/lib/SYCLLowerIR/SpecConstants.cpp knows only _Z37__sycl_getScalar2020SpecConstantValue and _Z40__sycl_getComposite2020SpecConstantValue); its function is neither a kernel nor SYCL_EXTERNAL, so the newest reference drops it as unused too"},
	Case{File: "sycl-post-link/sycl-esimd/lower-with-no-esimd-entry.ll", Adapts: tableEra(
		"-symbols -lower-esimd -split=auto -S < %s -o %t.table", "CHECK-TABLE", `s/{{\.\*}}_0\.prop|//`)},
	Case{File: "sycl-post-link/sycl-esimd/nbarriers-metadata.ll", Adapts: []Adapt{
		RewriteRun("%t_esimd_0.ll", "%t_esimd_0.ll", "%t_0.esimd.ll", esimdNaming),
	}},
	Case{File: "sycl-post-link/sycl-esimd/no-sycl-esimd-split.ll"},
	Case{File: "sycl-post-link/sycl-esimd/optnone.ll"},
	Case{File: "sycl-post-link/sycl-esimd/sycl-esimd-double-grf.ll",
		Skip: "the test is of the double-GRF ESIMD image split (__esimd_set_kernel_properties, <prefix>_esimd_x2grf_<id> images, isDoubleGRFEsimdImage), which the newest reference no longer has: no source of llvm/tools/sycl-post-link, llvm/lib/SYCLPostLink or llvm/lib/SYCLLowerIR names x2grf or isDoubleGRFEsimdImage, and ESIMDPostSplitProcessing.cpp's lowering pipeline has no kernel-properties pass; the GRF size is now the kernel property sycl-grf-size / sycl-register-alloc-mode (grf-size-conflict.ll)"},
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
			"(llvm/lib/SYCLPostLink/ModuleSplitter.cpp: ModuleDesc::cleanup marks entry points \"sycl-entry-point\" and runs InternalizePass with mustPreserveGV, "+
			"which keeps only those, \"indirectly-callable\" and \"referenced-indirectly\" functions); "+what),
		RewriteRun("FileCheck %s", "FileCheck %s", "FileCheck %t.checks", "check with the adapted copy of the test"),
	}
}

// esimdNaming is the reason of the ESIMD tests' file-name adaptation.
const esimdNaming = "the test predates the newest reference's dot-separated output suffixes: llvm/tools/sycl-post-link/sycl-post-link.cpp's saveModule names an ESIMD module <prefix>_<id>.esimd.ll (the upstream optnone.ll checks %t_0.esimd.ll), not <prefix>_esimd_<id>.ll"
