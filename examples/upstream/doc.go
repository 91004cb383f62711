// Package upstream is device code from clang-22's own SYCL front end, not
// DPC++'s: two translation units (src/vector_ops.cpp, src/image_ops.cpp) whose
// kernels are launched through a function template marked
// [[clang::sycl_kernel_entry_point(KernelName)]], with USM pointer
// arguments, SYCL_EXTERNAL helpers (combine, clamp_to) defined in one
// translation unit and called from the other, and a specialization
// constant read through __sycl_getScalar2020SpecConstantValue with
// __builtin_sycl_unique_stable_name, as DPC++'s headers do. make-device.sh
// compiles both with `clang-22 -cc1 -fsycl-is-device` and links them with
// llvm-link-22 into device.ll.
//
// Its tests (go test ./examples/upstream; each skips outside CI when a tool
// is missing):
//
//   - device.ll is what make-device.sh makes with the installed clang-22;
//     the front end's IR has spir_kernel functions named _ZTS<Kernel> and
//     neither "sycl-module-id" nor "sycl-entry-point" attributes.
//   - sycl-post-link splits it per kernel (each module holds its kernel and
//     the helpers it calls) and per source. Without "sycl-module-id" every
//     kernel has the same per-source key, so per-source split gives one
//     module, and the SYCL_EXTERNAL helpers are no entry points. Given
//     "sycl-module-id"="<source_filename>" on every function a translation
//     unit defines (read from the unlinked inputs, since the linked module's
//     source_filename is "llvm-link"), the same splitter writes one module
//     per translation unit with the helpers as entry points, as for DPC++
//     input.
//   - spirv_test.go: every module sycl-post-link writes from device.ll, from
//     examples/quickstart/device.ll (LLVM 15 syntax, which llc-22 reads) and
//     from examples/pocl/testdata/native.ll goes through LLVM's SPIR-V
//     backend (llc-22 -mtriple=spirv64v1.3-unknown-unknown), spirv-val, and
//     ocloc for pvc. SPIR-V 1.3 matters: at the backend's default, 1.4,
//     `icmp eq ptr %p, null` becomes OpPtrEqual (opcode 401), which
//     Debian's ocloc rejects, and ocloc rejects SPIR-V 1.5 and 1.6
//     outright. With -spec-const=native the SpecId decorations and the
//     OpSpecConstant defaults equal the .prop descriptors and default
//     values. The kernels then run on PoCL, after llvm-spirv-15 -r turns
//     the SPIR-V into LLVM 15 bitcode (PoCL takes no SPIR-V): VecScale with
//     its default, a specialized and an emulated constant, and Clamp; the
//     modules in which the backend writes a scalar OpConstantNull crash
//     llvm-spirv-15 -r (an assertion of the translator, not invalid
//     SPIR-V), so they are not run.
//   - build_test.go: sycbuild builds tu/*.ll (the two translation units,
//     unlinked) with targets.yaml (per kernel) and per_source.yaml (per
//     translation unit, after sycbuild sycl-module-id gives each input's
//     functions its source_filename) for llvm_ir, spir64 and spir64_gen on
//     LLVM's SPIR-V backend, the default for IR this new; every module
//     passes spirv-val and ocloc, and the built VecScale and Clamp run on
//     PoCL. The quickstart goes through both routes (translator and
//     backend), and native spec constants built by the backend route carry
//     the .prop's SpecIds. With wrapper: offload-binary, llvm-objdump-22
//     --offloading lists every image of the output object.
//   - offloadbinary_test.go: sycbuild's offload-binary form and LLVM 22's
//     wrapSYCLBinaries register the same descriptor for the same images,
//     field by field; sycbuild's .llvm.offloading holds the images'
//     OffloadBinaries.
//   - wrap_test.go: the SPIR-V images, in an OffloadBinary written by
//     package offloadbin, go through LLVM 22's wrapSYCLBinaries inside
//     clang-linker-wrapper-22 (a stand-in clang-sycl-linker on PATH hands
//     them over as the device link's output); the wrapped object, linked
//     with testdata/desc.c, registers a descriptor whose every field is
//     checked: one device image per binary (version 3, offload kind 8, the
//     image kind as format, the triple as arch, empty options, the image's
//     bytes, no property sets) with one offload entry per "symbols" line.
//   - sycllinker_test.go: sycbuild as clang-sycl-linker. clang++-22 -fsycl
//     compiles and links the sources with it in the loop (COMPILER_PATH
//     names the directory of the link), and the program, linked with
//     testdata/desc.c, prints the images it registers: by default the same
//     as with clang-sycl-linker-22 but for the image's hash, one image per
//     kernel with SYCBUILD_SPLIT=kernel or -Xoffload-linker
//     --sycbuild-split=kernel. Beside clang-sycl-linker-22 on the same
//     device bitcode, the OffloadBinaries are equal field by field and the
//     SPIR-V disassembles the same but for the names LLVM gives struct
//     types it reads twice.
//   - nvptx_test.go: the sources through clang-22's SYCL front end for
//     nvptx64-nvidia-cuda build for an nvptx64 target with llvm-link-22 and
//     llc-22 (stand-ins for ptxas and fatbinary).
package upstream
