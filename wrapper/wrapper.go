// Package wrapper writes the host object that carries SYCL device images:
// the SYCL device-binary descriptor (the structs of descriptor.go, the
// enums of abi.go), the image bytes, and two functions that register the
// descriptor with the SYCL runtime at program start and unregister it at
// exit. The descriptor is laid out once (descriptor.go) and written in one
// of two forms:
//
//   - an LLVM bitcode module, what clang-offload-wrapper writes, for llc or
//     clang to compile (Options.Output = Bitcode; bitcode.go);
//   - an ELF64 relocatable object, what compiling that module gives, written
//     directly without LLVM (the default; elfbuild.go, elf.go).
//
// What the ELF object holds, for images 0..n-1 (names are those of the local
// symbols, after the LLVM globals of clang-offload-wrapper):
//
//	.rodata                 target, compile and link option strings; manifests;
//	                        entry names; property and set names; byte-array values
//	.data.rel.ro            per image: offload entries, properties, property sets;
//	                        .sycl_offloading.device_images (n image structs) and
//	                        the descriptor .sycl_offloading.descriptor
//	__CLANG_OFFLOAD_BUNDLE__sycl-<target>
//	                        one section per image with its bytes (the name the
//	                        offload bundler looks for; ".rodata..sycl_offloading.<i>.data"
//	                        when the target is empty)
//	.tgtimg                 per image {image address, image size}
//	.text.startup           sycl.descriptor_reg / sycl.descriptor_unreg
//	.init_array.00001       → sycl.descriptor_reg   (constructor priority 1)
//	.fini_array.00001       → sycl.descriptor_unreg (destructor priority 1)
//	.note.GNU-stack         no executable stack
//
// The registration functions and the init/fini arrays and .tgtimg exist only
// with registration functions on (the default). Every pointer in data is a
// 64-bit absolute relocation (R_X86_64_64, R_AARCH64_ABS64), so image data
// can lie anywhere in the address space; the functions reach the descriptor
// PC-relatively (it is in .data.rel.ro, near the code) and call the runtime
// through the PLT. Images larger than 2 GiB work as far as this object is
// concerned; a program that puts more than 2 GiB of read-only data between
// its code and its other data needs the images placed after its other
// sections, as DPC++'s -fsycl-link-huge-device-code does with a linker
// script (see the package's large-image benchmark). In bitcode an image is
// one constant, which LLVM limits to 4 GiB - 1 bytes.
//
// Image bytes and manifests are never read into memory: their sizes come
// from the file system and their bytes are copied into the output while it
// is written. The output depends only on the inputs' contents and the
// options (no paths, times or addresses), so two runs give identical bytes.
package wrapper

import (
	"fmt"
	"io"
	"os"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/internal/basedir"
)

// Image is one device image to wrap, with what the runtime is told about it.
type Image struct {
	Kind           OffloadKind // only OFK_SYCL can be wrapped
	Target         string      // device target, e.g. "spir64" (DeviceTargetSpec)
	Format         BinaryFormat
	CompileOptions string
	LinkOptions    string
	// File is the image's bytes.
	File string
	// Manifest is a file whose bytes are passed as the manifest; "" for none.
	Manifest string
	// Entries are the offload entry names (kernels). nil gives null
	// pointers; an empty non-nil slice gives an empty array.
	Entries []string
	// PropertySets are the image's property sets; nil gives null pointers.
	PropertySets []PropertySet
	// PropertiesFile is the .prop file PropertySets were read from; in the
	// offload-binary form its text is the container's "properties".
	PropertiesFile string
	// Arch is the container's "arch" in the offload-binary form ("" for
	// SPIR-V, which has none).
	Arch string
}

// PropertySet is a named list of properties, as the runtime receives it.
type PropertySet struct {
	Name       string
	Properties []Property
}

// Property is one property value. A SYCL_PROPERTY_TYPE_UINT32 property
// carries Uint32 (passed in ValSize, with a null ValAddr); a byte array
// carries Bytes, its raw value (the 8-byte bit count, then the data), which
// ValAddr points to, with ValSize = len(Bytes).
type Property struct {
	Name   string
	Type   PropertyType
	Uint32 uint32
	Bytes  []byte
}

// Output is the form of what Write writes.
type Output uint8

const (
	ELFObject Output = iota // an ELF relocatable object
	Bitcode                 // an LLVM bitcode module, as clang-offload-wrapper writes it
)

// Options are the settings of one object.
type Options struct {
	// Output is the form of the output; the zero value is an ELF object.
	Output Output
	// Host is the target triple of the object; "" means DefaultHost().
	Host string
	// NoRegFuncs leaves out the registration functions, their init/fini
	// array entries and the .tgtimg records (-emit-reg-funcs=0).
	NoRegFuncs bool
	// DescName, when set, names the descriptor ".sycl_offloading.<DescName>"
	// and makes it a global symbol; otherwise it is the local
	// ".sycl_offloading.descriptor".
	DescName string
	// Compress compresses (zstd) every image of at least
	// CompressionThreshold bytes at CompressionLevel (a zstd level, 1–22);
	// such an image gets format SYCL_DEVICE_BINARY_TYPE_COMPRESSED_NONE.
	Compress             bool
	CompressionLevel     int
	CompressionThreshold int64
	// Verbose, when set, receives a line per image and per compression.
	Verbose io.Writer
	// OffloadBinary writes upstream LLVM's form (offloadbinary.go): the
	// images in OffloadBinary containers in .llvm.offloading, registered
	// with LLVM 22's descriptor. Only an ELF object can be written so.
	OffloadBinary bool
	// Dir is the directory the relative paths of the images' files and of
	// WriteFile's name are relative to; "" is the working directory.
	// Messages name the files as given.
	Dir string
}

// Write writes the object (or module) for images to w.
func Write(w io.Writer, images []Image, opt Options) error {
	a, err := archForTriple(opt.host())
	if err != nil {
		return err
	}
	if len(images) == 0 {
		return fmt.Errorf("no device images to wrap")
	}
	if len(images) > descMaxImages {
		return fmt.Errorf("%d device images: one descriptor holds at most %d", len(images), descMaxImages)
	}
	for _, img := range images {
		if err := img.check(); err != nil {
			return err
		}
	}
	prep, cleanup, err := prepare(images, opt)
	defer cleanup()
	if err != nil {
		return err
	}
	var d *desc
	if opt.OffloadBinary {
		if opt.Output == Bitcode {
			return fmt.Errorf("the offload-binary form is written as an ELF object only")
		}
		if d, err = layOutOffloadBinary(prep, opt); err != nil {
			return err
		}
	} else {
		d = layOut(prep, opt)
	}
	if opt.Output == Bitcode {
		return writeBitcode(w, opt.host(), d)
	}
	obj, err := build(a, d)
	if err != nil {
		return err
	}
	return obj.writeTo(w)
}

// WriteFile writes the object for images to the file called name, through a
// temporary file in the same directory renamed into place, so that a failure
// leaves no partial output.
func WriteFile(name string, images []Image, opt Options) error {
	return atomicfile.Write(basedir.Resolve(opt.Dir, name), func(w io.Writer) error { return Write(w, images, opt) })
}

// check reports what in img cannot be wrapped.
func (img *Image) check() error {
	if img.Kind != OFK_SYCL {
		return fmt.Errorf("%s: offload kind '%s' is not supported: only -kind=sycl images can be wrapped", img.File, img.Kind)
	}
	for _, set := range img.PropertySets {
		for _, p := range set.Properties {
			switch p.Type {
			case SYCL_PROPERTY_TYPE_UINT32:
			case SYCL_PROPERTY_TYPE_BYTE_ARRAY:
				if len(p.Bytes) < 8 {
					return fmt.Errorf("%s: property %s/%s: a byte array needs its 8-byte size prefix (%d bytes given)", img.File, set.Name, p.Name, len(p.Bytes))
				}
			default:
				return fmt.Errorf("%s: property %s/%s: unsupported property type: %d", img.File, set.Name, p.Name, p.Type)
			}
		}
	}
	return nil
}

func (o Options) host() string {
	if o.Host == "" {
		return DefaultHost()
	}
	return o.Host
}

// prepared is an image ready to be laid out: its data file (the input, or
// its compressed copy) and the sizes of its files. data, manifest and props
// are paths to open (resolved against Options.Dir).
type prepared struct {
	Image
	data         string
	manifest     string
	props        string
	size         uint64
	format       BinaryFormat
	manifestSize uint64
}

// prepare sizes every input file and compresses the images to compress. The
// returned cleanup removes temporary files; it is never nil.
func prepare(images []Image, opt Options) ([]prepared, func(), error) {
	var temps []string
	cleanup := func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}
	out := make([]prepared, len(images))
	for i, img := range images {
		p := prepared{Image: img, data: basedir.Resolve(opt.Dir, img.File), format: img.Format}
		if img.Manifest != "" {
			p.manifest = basedir.Resolve(opt.Dir, img.Manifest)
		}
		if img.PropertiesFile != "" {
			p.props = basedir.Resolve(opt.Dir, img.PropertiesFile)
		}
		size, err := fileSize(p.data)
		if err != nil {
			return nil, cleanup, err
		}
		p.size = size
		if img.Manifest != "" {
			if p.manifestSize, err = fileSize(p.manifest); err != nil {
				return nil, cleanup, err
			}
		}
		if opt.Compress && size > 0 && int64(size) >= opt.CompressionThreshold {
			tmp, csize, err := compressFile(p.data, size, opt.CompressionLevel)
			if tmp != "" {
				temps = append(temps, tmp)
			}
			if err != nil {
				return nil, cleanup, err
			}
			if opt.Verbose != nil {
				fmt.Fprintf(opt.Verbose, "[Compression] Original image size: %d\n", size)
				fmt.Fprintf(opt.Verbose, "[Compression] Compressed image size: %d\n", csize)
				fmt.Fprintf(opt.Verbose, "[Compression] Compression level used: %d\n", opt.CompressionLevel)
			}
			p.data, p.size, p.format = tmp, csize, SYCL_DEVICE_BINARY_TYPE_COMPRESSED_NONE
		}
		if opt.Verbose != nil {
			fmt.Fprintf(opt.Verbose, "adding image: offload kind=%s target=%q format=%s size=%d file=%s", img.Kind, img.Target, p.format, p.size, img.File)
			if img.Manifest != "" {
				fmt.Fprintf(opt.Verbose, " manifest=%s", img.Manifest)
			}
			fmt.Fprintf(opt.Verbose, " entries=%d property sets=%d\n", len(img.Entries), len(img.PropertySets))
		}
		out[i] = p
	}
	return out, cleanup, nil
}

// fileSize returns the size of the regular file called name.
func fileSize(name string) (uint64, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return 0, err
	}
	if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("%s: not a regular file", name)
	}
	return uint64(fi.Size()), nil
}
