// Package offloadbin reads and writes LLVM's OffloadBinary container, the
// format upstream LLVM uses to carry device images beside their metadata
// (llvm/Object/OffloadBinary.h). It mirrors the format as LLVM 22 writes it:
// version 1, one image per binary, several binaries laid end to end in a
// ".llvm.offloading" section.
//
// # Layout
//
// All integers are little-endian and all offsets are byte offsets from the
// start of the binary. A binary is
//
//	Header       {Magic [4]byte = 10 FF 10 AD; Version uint32 = 1;
//	              Size uint64; EntryOffset uint64; EntrySize uint64}   32 bytes
//	Entry        {ImageKind uint16; OffloadKind uint16; Flags uint32;
//	              StringOffset uint64; NumStrings uint64;
//	              ImageOffset uint64; ImageSize uint64}                40 bytes
//	StringEntry  {KeyOffset uint64; ValueOffset uint64}                16 bytes each
//	string table (NUL-terminated strings, ELF style: a leading NUL, tails shared)
//	padding to 8, the image, padding to 8
//
// Size is the whole binary and a multiple of 8, so binaries can follow one
// another in a section. LLVM writes the header, the entry, the string
// entries, the string table and the image in this order, and Marshal does
// the same byte for byte: for the same images, in the same string order,
// the bytes equal those of llvm-offload-binary and clang-sycl-linker.
//
// Later LLVM versions change the format (version 2: several entries per
// binary and a value size per string; version 3: compression); Read
// rejects them by their version field.
//
// # SYCL images
//
// clang-sycl-linker-22 writes one binary for the linked device code, with
// offload kind sycl (8), image kind none (0) for SPIR-V, and three strings:
//
//	"triple"   the target triple given by --triple (e.g. "spirv64")
//	"arch"     the value of --arch, the empty string when not given
//	"symbols"  the names of the module's kernels, in module order, joined
//	           by "\n" (no trailing newline)
//
// It writes no property sets: LLVM 22 has no key for them. SYCLImage builds
// these strings; a SYCL image's property sets (what sycl-post-link writes
// into a .prop file) go under the key "properties", holding the .prop text,
// a key of this package that LLVM 22 does not read.
//
// LLVM 22's wrapSYCLBinaries (in clang-linker-wrapper-22) registers each
// binary of such a section as one __sycl.tgt_device_image: version 3, the
// offload kind, the image kind as its format, the "triple" string as its
// target, empty compile and link options, the image's bytes, one offload
// entry (kind sycl) per line of "symbols", and no property sets.
package offloadbin
