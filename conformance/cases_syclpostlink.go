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
	const props = "needs property sets (issue 5)"
	const specConsts = "needs specialization constants (issue 5)"
	Register(
		Case{File: "sycl-post-link/help.test"},
		splitCase("sycl-post-link/device-code-split/basic-module-split.ll", "-o %t.table", true, true),
		splitCase("sycl-post-link/device-code-split/auto-module-split-1.ll", "-o %t.table", true, true),
		splitCase("sycl-post-link/device-code-split/one-kernel-per-module.ll", "-o %t.files.table", true, true),
		Case{File: "sycl-post-link/sycl-external-funcs/drop-unref-funcs.ll"},
		Case{File: "sycl-post-link/sycl-external-funcs/split-per-source1.ll", Adapts: tableEra(
			"-emit-only-kernels-as-entry-points -symbols -S %s -o %t.table",
			"CHECK-TABLE", `s/{{\.\*}}_0\.prop|//`)},
		Case{File: "sycl-post-link/sym_but_no_split.ll", Adapts: tableEra(
			"-symbols -spec-const=rt -S %s -o %t.files.table", "CHECK-TABLE", "")},
		Case{File: "sycl-post-link/emit_imported_symbols.ll", Adapts: []Adapt{
			SkipRun("-input-file=%t_0.prop", props),
			SkipRun("-input-file=%t_1.prop", props),
			SkipRun("-input-file=%t_2.prop", props),
		}},
		Case{File: "sycl-post-link/emit_program_metadata.ll", Skip: props},
		Case{File: "sycl-post-link/omit_kernel_args.ll", Skip: props},
		Case{File: "sycl-post-link/device-globals/test_global_variable.ll", Skip: props + "; also the device-global lowering (!spirv.Decorations)"},
		Case{File: "sycl-post-link/spec-constants/SYCL-2020.ll", Skip: specConsts},
		Case{File: "sycl-post-link/spec-constants/bool.ll", Skip: specConsts},
		Case{File: "sycl-post-link/spec-constants/composite-padding-desc.ll", Skip: specConsts},
		Case{File: "sycl-post-link/spec-constants/default-value/device-image.ll", Skip: specConsts},
	)
}

// splitCase adapts the device-code-split tests: -properties goes (their
// checks read no .prop file), the sycl-module-split lines go (a tool
// sycbuild does not replace), and the checks are brought to version A.
func splitCase(file, out string, internalized, gepFolded bool) Case {
	seds := []string{}
	var why []string
	if internalized {
		seds = append(seds, `s/define dso_local spir_func/define {{.*}} spir_func/`)
		why = append(why, `"define dso_local spir_func" -> "define {{.*}} spir_func": the test predates internalization, version A makes non-entry functions internal (the upstream test now says the same)`)
	}
	if gepFolded {
		seds = append(seds,
			`s/ptr addrspace(4) addrspacecast (ptr addrspace(1) @{{\.\*}}GV/ptr addrspace(4) {{.*}}addrspacecast (ptr addrspace(1) @{{.*}}GV/`,
			`s/to ptr addrspace(4)), align 4/to ptr addrspace(4)){{.*}}, align 4/`)
		why = append(why, "the load's operand may keep its getelementptr of all-zero indices: LLVM folds it away when it parses, sycbuild writes the input's text as it is")
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
