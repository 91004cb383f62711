// Package conformance runs the peer's own tests — the lit tests of
// intel/llvm for the tools sycbuild replaces, kept in
// ../shared/conformance/intel-llvm beside the repository — against sycbuild,
// checking outputs with the real FileCheck (FileCheck-19).
//
// For each test file the runner reads the RUN lines ("RUN:" after any
// comment leader, a trailing '\' continuing onto the next RUN line) and the
// REQUIRES/UNSUPPORTED/XFAIL lines, substitutes %s %S %p %t %T and their
// %/… forms, and runs the commands as one bash script (chained with &&,
// with pipefail, as lit's external shell does) in a fresh directory:
//
//	<work>/exec            the working directory ("." of the test)
//	<work>/exec/Output     %T; %t is Output/<test file name>.tmp
//	<work>/bin             FileCheck (→ FileCheck-19), not, count, aliases
//	<work>/tmp             TMPDIR
//
// PATH starts with a directory of links named file-table-tform,
// llvm-foreach, sycl-post-link and clang-offload-wrapper that point at a
// freshly built sycbuild, so the tests' command lines run unchanged.
//
// # Adding a tool's tests
//
// Each tool has its own file, cases_<tool>.go, whose init function calls
// Register with one Case per test file: run it as it is, skip it with a
// reason, or adapt it visibly (SkipRun, RewriteRun, ReplaceRun, AddRun, each
// with its reason, printed in the report). A test file that no case names is
// reported as skipped, "not yet covered". A case marked Missing names
// behaviour sycbuild lacks: the test runs, is reported MISSING when it
// fails and fails when it passes (the mark must go with the fix). AddFeature and AddSubstitution
// extend what REQUIRES and the RUN lines may use.
//
// # Running
//
//	go test ./conformance                                   all tests (the summary shows with -v)
//	go test ./conformance -v -run Conformance -args -only=llvm-foreach
//	SYCBUILD_CONFORMANCE_ONLY=file-table-tform-merge go test ./conformance -v
//
// -only (or SYCBUILD_CONFORMANCE_ONLY) keeps the tests whose path contains
// the text. The test prints one line per test — PASS, FAIL or SKIP with the
// reason — then "N passed, N failed, N skipped", followed by the count of
// MISSING tests when there are any; any FAIL fails it. RUN lines may use
// lit's "%if feature %{ … %} [%else %{ … %}]". With
// SYCBUILD_CONFORMANCE_REPORT=<file> the same report is also written to that
// file (make test prints it). Without ../shared/conformance the test is
// skipped, and fails in CI.
//
// -dir=<folder> (or SYCBUILD_CONFORMANCE_DIR) runs another folder of lit
// tests laid out the same way (<folder>/sycl-post-link/...), e.g. more of the
// reference's tests fetched for a local measurement: there a file no case
// names runs as it is instead of being skipped, and the cases of files the
// folder lacks are left out.
package conformance
