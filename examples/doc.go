// Package examples holds the runnable examples (one directory each) and,
// in this directory, the tests that build the build-system examples from a
// fresh copy with the real tools:
//
//   - make/: a C program whose device code sycbuild links, built with make
//     -j4; what each edit rebuilds, and a job log that proves make and
//     sycbuild together never run more than 4 jobs (make's jobserver).
//
// A test whose tools are missing is skipped, or fails in CI (see
// internal/testenv).
package examples
