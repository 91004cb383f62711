// Package pocl proves sycbuild's specialization-constant lowering end to
// end on a real OpenCL device: PoCL's CPU device, which runs LLVM 15
// bitcode given to clCreateProgramWithBinary but takes no SPIR-V (so native
// constants are specialized offline by the translator).
//
// Its tests (go test ./examples/pocl; they need llvm-as-15, llvm-spirv-15,
// spirv-val, spirv-dis, gcc with the OpenCL headers and an OpenCL platform,
// and skip outside CI when one is missing):
//
//   - native: testdata/native.ll goes through `sycl-post-link -spec-const=native
//     -properties`, llvm-as-15, llvm-spirv-15 (with the DPC++ driver's
//     extension list) and spirv-val; spirv-dis must show one OpSpecConstant
//     with a SpecId per descriptor of the .prop file, holding the default
//     that the .prop's default-value blob gives for it. The SPIR-V is then
//     specialized with `llvm-spirv-15 -r --spec-const=…` using the IDs read
//     back from the .prop, loaded into PoCL and run; the kernel must have
//     computed with the new values.
//   - emulation: testdata/emulation.ll, whose kernel passes its spec-constant buffer
//     argument to the intrinsic calls, goes through `sycl-post-link
//     -spec-const=emulation -properties` and llvm-as-15 into PoCL. The test
//     builds the buffer the way the SYCL runtime does — the .prop
//     default-value blob, constants placed in ID order by the sizes the .prop
//     gives — overrides some constants, runs the kernel and checks every
//     value it read: scalars, a nested struct with padding, an array, a
//     vector, a bool, and the defaults of the constants left alone.
//
// testdata/host.c is the OpenCL host program both tests build and run;
// testdata/native.ll and testdata/emulation.ll are the inputs.
package pocl
