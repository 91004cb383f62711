package conformance

import "strings"

// The peer's sycl-post-link tests (llvm/test/tools/sycl-post-link).
//
// Most of them come from before two changes of the reference, and are
// adapted the same way, visibly, per test:
//   - before -properties existed the Properties column and .prop files were
//     always written; version A writes them only with -properties;
//   - before internalization existed, functions that are not entry points
//     kept their linkage ("define dso_local spir_func"); version A
//     internalizes them (the upstream tests now say "define {{.*}} spir_func").
//
// Checks are adapted through a copy of the test file made by sed
// (%t.checks), because the runner adapts RUN lines only.
func init() {
	Register(
		Case{File: "sycl-post-link/help.test"},
		splitCase("sycl-post-link/device-code-split/basic-module-split.ll", "-o %t.table", true),
		splitCase("sycl-post-link/device-code-split/auto-module-split-1.ll", "-o %t.table", true),
		splitCase("sycl-post-link/device-code-split/one-kernel-per-module.ll", "-o %t.files.table", true),
		Case{File: "sycl-post-link/sycl-external-funcs/drop-unref-funcs.ll"},
		Case{File: "sycl-post-link/sycl-external-funcs/split-per-source1.ll", Adapts: tableEra(
			"-emit-only-kernels-as-entry-points -symbols -S %s -o %t.table",
			"CHECK-TABLE", `s/{{\.\*}}_0\.prop|//`)},
		Case{File: "sycl-post-link/sym_but_no_split.ll", Adapts: tableEra(
			"-symbols -spec-const=rt -S %s -o %t.files.table", "CHECK-TABLE", "")},
		Case{File: "sycl-post-link/emit_imported_symbols.ll", Adapts: []Adapt{
			RewriteRun("-emit-imported-symbols", "sycl-post-link -symbols", "sycl-post-link -properties -allow-device-image-dependencies -symbols",
				"the test predates -properties (.prop files were always written) and -allow-device-image-dependencies, without which version A imports nothing (the upstream test now passes both)"),
			checksCopy("-split=kernel -S < %s -o %t.table", []string{
				`s/^; CHECK-IMPORTED-SYM-1: .*/&\n; CHECK-IMPORTED-SYM-1-NEXT: middle/`,
				`s/^; CHECK-IMPORTED-SYM-2: .*/&\n; CHECK-IMPORTED-SYM-2-NEXT: middle/`,
				`/CHECK-IMPORTED-SYM-[12]-NEXT: childD/d`,
			}, "with image dependencies allowed, version A imports the SYCL_EXTERNAL function middle instead of copying it into the kernels' images, so those images import middle and no longer childD (the upstream test now expects the same)"),
			RewriteRun("FileCheck %s", "FileCheck %s", "FileCheck %t.checks", "check with the adapted copy of the test"),
		}},
		Case{File: "sycl-post-link/emit_program_metadata.ll"},
		Case{File: "sycl-post-link/omit_kernel_args.ll", Adapts: []Adapt{
			RewriteRun("-emit-param-info", "sycl-post-link -emit-param-info", "sycl-post-link -properties -emit-param-info",
				"the test predates -properties: the Properties column and .prop files were always written"),
		}},
		Case{File: "sycl-post-link/device-globals/test_global_variable.ll", Adapts: []Adapt{
			RewriteRun("--device-globals -S %s", "sycl-post-link --device-globals -S %s",
				`sed -e 's/^\(@_ZL[0-9a-z_]*\) = internal addrspace(1)/\1 = weak_odr addrspace(1)/' -e 's/^define internal spir_func/define weak_odr spir_func/' %s > %t.in && sycl-post-link -properties --device-globals -S %t.in`,
				"the test predates version A's cleanup: its device globals are internal and used only by an internal function, so version A drops them all as unused; they become weak_odr, as in the upstream test (%t.in is the adapted copy); and -properties, since the .prop files were always written before"),
			SkipRun("-input-file=%t.files_0.ll", `version A's sycl-post-link no longer lowers device globals' compile-time properties into !spirv.Decorations (the front end does); the upstream test dropped these IR checks`),
			SkipRun("--ir-output-only --device-globals", "the same IR checks (!spirv.Decorations), on the -ir-output-only output"),
		}},
		Case{File: "sycl-post-link/spec-constants/SYCL-2020.ll", Adapts: []Adapt{
			RewriteRun("-spec-const=emulation < %s", "sycl-post-link -spec-const=emulation < %s",
				`sed -e 's/^define dso_local void @_Z/define dso_local spir_kernel void @_Z/' -e 's/^define void @test/define spir_kernel void @test/' -e 's/CHECK-LABEL: define dso_local void @_Z/CHECK-LABEL: define dso_local spir_kernel void @_Z/' %s > %t.in && sycl-post-link -properties -spec-const=emulation < %t.in`,
				"the test predates version A's internalization: its functions are neither kernels nor SYCL_EXTERNAL, so version A drops them as unused; they become spir_kernel, as in the upstream test (%t.in is the adapted copy); and -properties, since the .prop file was always written before"),
			RewriteRun("-spec-const=native < %s", "sycl-post-link -spec-const=native < %s", "sycl-post-link -properties -spec-const=native < %t.in",
				"the same adapted input, and -properties"),
			RewriteRun("FileCheck %s", "FileCheck %s", "FileCheck %t.in", "check with the adapted copy of the test"),
		}},
		Case{File: "sycl-post-link/spec-constants/bool.ll"},
		Case{File: "sycl-post-link/spec-constants/composite-padding-desc.ll", Adapts: []Adapt{
			RewriteRun("-o %t.files.table", "sycl-post-link -spec-const=native", "sycl-post-link -properties -spec-const=native",
				"the test predates -properties: the .prop file was always written"),
			SkipRun("-debug-only=SpecConst", "LLVM's debug output (-debug-only) is not part of sycbuild; the descriptors it prints are checked through the .prop file"),
		}},
		Case{File: "sycl-post-link/spec-constants/default-value/device-image.ll", Adapts: []Adapt{
			RewriteRun("-generate-device-image-default-spec-consts", "sycl-post-link -split=auto", "sycl-post-link -properties -split=auto",
				"the test predates -properties: the .prop files were always written"),
		}},
	)
}

// splitCase adapts the device-code-split tests: -properties goes (their
// checks read no .prop file), the sycl-module-split lines go (a tool
// sycbuild does not replace), and the checks are brought to version A.
func splitCase(file, out string, internalized bool) Case {
	seds := []string{}
	var why []string
	if internalized {
		seds = append(seds, `s/define dso_local spir_func/define {{.*}}spir_func/`)
		why = append(why, `"define dso_local spir_func" -> "define {{.*}}spir_func": the test predates internalization, version A makes non-entry functions internal (the upstream test now says the same)`)
	}
	return Case{File: file, Adapts: []Adapt{
		SkipRun("sycl-module-split", "sycl-module-split is a separate tool that sycbuild does not replace"),
		SkipRun("-input-file=%t2", "checks of the sycl-module-split outputs"),
		RewriteRun("sycl-post-link", "-properties ", "", "the checks read no .prop file; property sets are issue 5"),
		checksCopy(out, seds, strings.Join(why, "; ")),
		RewriteRun("FileCheck %s", "FileCheck %s", "FileCheck %t.checks", "check with the adapted copy of the test"),
	}}
}

// tableEra adapts a table check written before -properties existed: the
// header loses "Properties" and, with rowSed, the rows their .prop cell.
func tableEra(runMatch, prefix, rowSed string) []Adapt {
	seds := []string{`s/\[Code|Properties|Symbols\]/[Code|Symbols]/`}
	if rowSed != "" {
		seds = append(seds, "/"+prefix+"/"+rowSed)
	}
	return []Adapt{
		checksCopy(runMatch, seds, "the table check predates -properties (the Properties column was always written); version A writes it only with -properties, so the expected header is [Code|Symbols]"),
		RewriteRun("--check-prefixes "+prefix, "FileCheck %s", "FileCheck %t.checks", "check with the adapted copy of the test"),
	}
}

// checksCopy makes the RUN line containing match also write %t.checks, a
// copy of the test file with the sed expressions applied.
func checksCopy(match string, seds []string, reason string) Adapt {
	cmd := match + " && sed"
	for _, s := range seds {
		cmd += " -e '" + s + "'"
	}
	cmd += " %s > %t.checks"
	return RewriteRun(match, match, cmd, reason)
}
