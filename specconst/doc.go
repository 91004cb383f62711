// Package specconst lowers SYCL 2020 specialization constants in one output
// module, as DPC++'s SpecConstantsPass does (version A; dpcpp-tools.md
// §3.8), on sycbuild's textual IR.
//
// The device code asks for a constant's value through calls of
// __sycl_getScalar2020SpecConstantValue<T> and
// __sycl_getComposite2020SpecConstantValue<T> (a composite comes back by
// value or through an sret pointer), and sizes private arrays with
// llvm.sycl.alloca. Each call names the constant by a symbolic ID (a C
// string), points at its specialization_id global, whose first field holds
// the default value, and passes the run-time buffer used when constants are
// emulated. Lowering replaces every such call:
//
//   - Native: with calls of the SPIR-V friendly _Z20__spirv_SpecConstant…
//     (one per scalar leaf, carrying a numeric ID and the leaf's default)
//     and _Z29__spirv_SpecConstantComposite… (one per aggregate, depth
//     first). IDs are handed out in order of first sight; a composite's
//     leaves get consecutive IDs; padding fields of the returned type get
//     undef and use up an ID that is not reported.
//   - Emulation: with a load from the run-time buffer, where all constants
//     sit in ID order at their ABI alignment.
//   - Default values: with the default value itself (the images of
//     -generate-device-image-default-spec-consts).
//
// The module gets !sycl.specialization-constants (per constant its symbolic
// ID and {ID, offset, size} descriptors) and
// !sycl.specialization-constants-default-values (the defaults, with zero
// padding in emulation); the Result carries the same information for the
// property sets, including the defaults as the runtime's byte blob.
//
// A constant's type is walked element by element, so its cost is what the
// flattened constant holds, not what its text suggests: a type that repeats
// a struct at every level (%t2 = type { %t1, %t1 }, …) holds exponentially
// many elements. Each type's element count is therefore taken once, before
// anything is emitted, and a constant with more than MaxElements scalar
// elements, or nested deeper than llvmir.MaxNesting, is refused at its call
// with a file:line:col error.
//
// Calls are visited as the reference visits them: declarations in module
// order, each one's calls in LLVM use-list order (see props.CallSites),
// which decides which constant gets which ID. The functions are rewritten
// through llvmir.BodyEdit, as LLVM prints them after the pass: the calls
// replaced, their results' uses replaced, new unnamed values numbered in
// order and the later ones shifted (the reference's tests check those
// numbers), new named values (gep, bc, load, tobool, bool, alloca) made
// unique as LLVM does. This package does not read function bodies itself.
package specconst
