// Package examples holds the runnable examples (one directory each) and,
// in this directory, the tests that build the build-system examples from a
// fresh copy with the real tools:
//
//   - make/: a C program whose device code sycbuild links, built with make
//     -j4: what each edit rebuilds, make -n, the depfile, and a job log
//     proving that make and sycbuild together never run more than 4 jobs
//     (sycbuild takes its job slots from make's jobserver).
//   - cmake/: sycbuild_device_link() (cmake/SyclDeviceLink.cmake), built
//     with the Ninja and the Unix Makefiles generators: what each edit
//     rebuilds, and that sycbuild's depfile alone keeps the build correct.
//   - bazel/: the sycl_device_link Starlark rule, built offline with
//     Debian's Bazel: a second build is fully cached, and two clean output
//     bases get byte-identical outputs.
//
// A test whose tools are missing is skipped, or fails in CI (see
// internal/testenv).
package examples
