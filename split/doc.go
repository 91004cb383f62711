// Package split is device-code splitting as DPC++'s sycl-post-link does it
// (version A): it finds the entry points of a linked device module, groups
// them by a key, and turns each group into one output module holding the
// group's entry points and everything they depend on, cleaned up.
//
// # Entry points
//
// Declarations never are. Kernels always are: functions with the
// spir_kernel, amdgpu_kernel or ptx_kernel calling convention, and
// functions that !nvvm.annotations marks as kernels (!{ptr @k, !"kernel",
// i32 1}, how clang 19 marks CUDA kernels). Other definitions are entry
// points when they carry "sycl-module-id" (SYCL_EXTERNAL) and are not SPIR-V,
// SYCL or ESIMD builtins; with OnlyKernels only kernels and virtual
// functions ("indirectly-callable") are.
//
// # Groups and their order
//
// Per kernel, the key is the function's name; per source, it is the
// eleven-part category of FuncCategory; globally, "<GLOBAL>". Groups are
// emitted in descending byte-wise key order (the reference keeps them in a
// std::map and pops from the back), entry points inside a group in module
// order. A module without entry points yields one empty "<GLOBAL>" group.
//
// # Dependencies
//
// The dependency graph is built once per input module. Its nodes are
// functions and global variables; A → B means "if A is in a module, B must
// be too":
//   - A references B anywhere in its text: a call, a use as a value, an
//     initializer, a constant expression (bitcast, getelementptr, …);
//   - aliases are transparent: referencing an alias depends on what it
//     points to;
//   - an indirect call in A depends on every non-kernel function marked
//     "referenced-indirectly" whose function type is the call's;
//   - nothing depends on a function that can be imported from another
//     image (AllowDeps), and such a function's indirect calls add nothing.
//
// A group's module is the closure of its entry points and of every global
// variable that is not discardable if unused (not internal, private,
// linkonce or available_externally); declarations are not followed.
// Everything referenced but outside the closure is written as a
// declaration. Kernels are never callees, so they never follow from
// another function.
//
// # Cleanup
//
// Each module is then cleaned as ModuleDesc::cleanup does: virtual
// functions lose their bodies unless the group defines some, entry points
// get "sycl-entry-point", every other function is internalized, dead
// globals and unused declarations go, dead debug info goes, and the named
// metadata that lists kernels (spirv.ExecutionMode, nvvm.annotations,
// sycl_registered_kernels) keeps only the kernels still present.
package split
