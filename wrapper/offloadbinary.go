package wrapper

import (
	"debug/elf"
	"fmt"
	"os"
	"strings"

	"github.com/sycbuild/sycbuild/offloadbin"
)

// Upstream LLVM's form of the wrapped images (Options.OffloadBinary): each
// image in an LLVM OffloadBinary container, the containers end to end in a
// section .llvm.offloading (type SHT_LLVM_OFFLOADING, what llvm-objdump
// --offloading and llvm-offload-binary read), and the descriptor that LLVM
// 22's clang-linker-wrapper writes for SYCL (wrapSYCLBinaries in
// llvm/lib/Frontend/Offloading/OffloadWrapper.cpp), laid out by the same
// code as DPC++'s (descriptor.go) with upstream's values:
//
//	descriptor  version 1, the images, null host entries
//	image       version 3, offload kind 8 (sycl), format = the OffloadBinary
//	            image kind, the triple as target string, empty compile and
//	            link options (no manifest field), the image bytes (inside their
//	            container), the entries, the property sets (null unless the
//	            image has some)
//	entry       LLVM 22's __tgt_offload_entry {0, version 1, kind 8, flags 0,
//	            null, name, 0, 0, null}, one per kernel, in an array
//	            .sycl_offloading.entries_arr and again as a weak symbol
//	            .offloading.entry.<name> in section llvm_offload_entries
//
// The container carries the strings clang-sycl-linker-22 writes, "triple",
// "arch" and "symbols" (the entries, one per line), and "properties", the
// image's .prop text, when it has one.

// Values of upstream's descriptor.
const (
	upstreamImageVersion = 3 // __sycl.tgt_device_image.Version
	upstreamEntryVersion = 1 // __tgt_offload_entry.Version
	offloadingSection    = ".llvm.offloading"
	offloadEntrySection  = "llvm_offload_entries"
	shtLLVMOffloading    = elf.SectionType(0x6fff4c0b) // SHT_LLVM_OFFLOADING
)

// upstreamImageStruct is LLVM 22's __sycl.tgt_device_image (version 3),
// DPC++'s without the manifest:
// { uint16_t Version; uint8_t OffloadKind; uint8_t Format; const char *Arch;
// const char *CompileOptions, *LinkOptions; const void *ImageStart, *ImageEnd;
// entry *EntriesBegin, *EntriesEnd; property_set *PropertiesBegin, *PropertiesEnd; }
var upstreamImageStruct = newStruct("__sycl.tgt_device_image", i16, i8, i8, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr)

// upstreamEntryStruct is LLVM 22's __tgt_offload_entry:
// { uint64_t Reserved; uint16_t Version; uint16_t Kind; uint32_t Flags;
// void *Address; char *SymbolName; uint64_t Size; uint64_t Data; void *AuxAddr; }
var upstreamEntryStruct = newStruct("struct.__tgt_offload_entry", i64, i16, i16, i32, ptr, ptr, i64, i64, ptr)

// Triple returns the target triple an image of the given target (the
// DPC++ target string: spir64, spir64_gen, nvptx64, llvm_<arch>) has in
// upstream's form: spirv64-unknown-unknown for SPIR-V, as clang-sycl-linker
// names it, nvptx64-nvidia-cuda, <arch>-unknown-unknown for LLVM IR, and
// <target>-unknown-unknown otherwise (spir64_gen-unknown-unknown, DPC++'s
// triple for Intel GPU code).
func Triple(target string) string {
	switch {
	case strings.Contains(target, "-"):
		return target
	case target == "spir64":
		return "spirv64-unknown-unknown"
	case target == "nvptx64":
		return "nvptx64-nvidia-cuda"
	case strings.HasPrefix(target, "llvm_"):
		return strings.TrimPrefix(target, "llvm_") + "-unknown-unknown"
	}
	return target + "-unknown-unknown"
}

// imageKind returns the OffloadBinary image kind of an image: SPIR-V as
// clang-sycl-linker-22 writes it (IMG_None: LLVM 22 has no SPIR-V kind),
// LLVM IR text as IMG_None, bitcode, and native code as an object (Intel
// GPU binaries are ELF files) or, for NVIDIA, a fat binary.
func (img *prepared) imageKind() offloadbin.ImageKind {
	switch img.format {
	case SYCL_DEVICE_BINARY_TYPE_LLVMIR_BITCODE:
		return offloadbin.ImageBitcode
	case SYCL_DEVICE_BINARY_TYPE_NATIVE:
		if img.Target == "nvptx64" {
			return offloadbin.ImageFatbinary
		}
		return offloadbin.ImageObject
	}
	return offloadbin.ImageNone
}

// container returns the OffloadBinary header of img and the size of its
// whole container.
func (img *prepared) container() ([]byte, uint64, error) {
	props := ""
	if img.props != "" {
		b, err := os.ReadFile(img.props)
		if err != nil {
			return nil, 0, err
		}
		props = string(b)
	}
	// The data is streamed from the file: SYCLImage is given none.
	ob, err := offloadbin.SYCLImage(img.imageKind(), Triple(img.Target), img.Arch, img.Entries, props, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %v", img.File, err)
	}
	return ob.Header(img.size)
}

// layOutOffloadBinary lays out upstream's descriptor of images.
func layOutOffloadBinary(images []prepared, opt Options) (*desc, error) {
	d := &desc{regFuncs: !opt.NoRegFuncs, upstream: true, names: map[string]bool{}}
	structs := make([][]field, len(images))
	for i := range images {
		img := &images[i]
		if img.format == SYCL_DEVICE_BINARY_TYPE_COMPRESSED_NONE {
			return nil, fmt.Errorf("%s: compressed images cannot be wrapped in the offload-binary form", img.File)
		}
		header, total, err := img.container()
		if err != nil {
			return nil, err
		}
		str := func(name, s string) field {
			return beginOf(d.add(&global{name: name, kind: gString, str: s, symbol: true}))
		}
		target := str(fmt.Sprintf("%starget.%d", tag, i), Triple(img.Target))
		compile := str(fmt.Sprintf("%sopts.compile.%d", tag, i), "")
		link := str(fmt.Sprintf("%sopts.link.%d", tag, i), "")
		data := d.add(&global{name: fmt.Sprintf("%s%d.data", tag, i), kind: gContainer, file: img.data, size: img.size,
			header: header, total: total, index: i, symbol: true})
		entries := nullBounds()
		if img.Entries != nil {
			entries = d.upstreamEntries(img.Entries)
		}
		props := nullBounds()
		if img.PropertySets != nil {
			props = d.propertySets(img.PropertySets)
		}
		structs[i] = []field{
			intField(upstreamImageVersion), intField(uint64(offloadbin.OffloadSYCL)), intField(uint64(img.imageKind())),
			target, compile, link, beginOf(data), endOf(data),
			entries[0], entries[1], props[0], props[1],
		}
	}
	d.images = d.add(&global{name: tag + "device_images", kind: gStructs, st: upstreamImageStruct, elems: structs, symbol: true})
	name := "descriptor"
	if opt.DescName != "" {
		name = opt.DescName
	}
	d.desc = d.add(&global{name: tag + name, kind: gDesc, st: descStruct, symbol: true, external: opt.DescName != "",
		elems: [][]field{{intField(binDescVersion), intField(uint64(len(images))), beginOf(d.images), nullField, nullField}}})
	return d, nil
}

// upstreamEntries lays out one LLVM 22 offload entry per name, as a weak
// symbol in llvm_offload_entries and in the image's entry array, and
// returns the array's bounds.
func (d *desc) upstreamEntries(names []string) [2]field {
	elems := make([][]field, len(names))
	for i, n := range names {
		name := d.add(&global{name: ".offloading.entry_name", kind: gString, str: n})
		elems[i] = []field{intField(0), intField(upstreamEntryVersion), intField(uint64(offloadbin.OffloadSYCL)), intField(0),
			nullField, beginOf(name), intField(0), intField(0), nullField}
		d.add(&global{name: ".offloading.entry." + n, kind: gStructs, st: upstreamEntryStruct, elems: elems[i : i+1],
			section: offloadEntrySection, weak: true, symbol: true})
	}
	return bounds(d.add(&global{name: tag + "entries_arr", kind: gStructs, st: upstreamEntryStruct, elems: elems, symbol: true}))
}

// tag prefixes the names of the descriptor's globals.
const tag = ".sycl_offloading."
