package offloadbin

import "strconv"

// Magic is the first four bytes of every OffloadBinary.
const Magic = "\x10\xff\x10\xad"

// Version is the format version this package reads and writes, the one
// LLVM 22 writes.
const Version = 1

// Alignment is the alignment of a binary, of its image and of its size.
const Alignment = 8

// The sizes of the fixed-size parts of a binary.
const (
	HeaderSize      = 32
	EntrySize       = 40
	StringEntrySize = 16
)

// ImageKind is the kind of the image a binary holds (LLVM's ImageKind).
type ImageKind uint16

// The image kinds.
const (
	ImageNone      ImageKind = iota // IMG_None: unknown, or SPIR-V as clang-sycl-linker-22 writes it
	ImageObject                     // IMG_Object: an object file
	ImageBitcode                    // IMG_Bitcode: LLVM bitcode
	ImageCubin                      // IMG_Cubin
	ImageFatbinary                  // IMG_Fatbinary
	ImagePTX                        // IMG_PTX
	ImageSPIRV                      // IMG_SPIRV: later LLVM versions; LLVM 22's tools print it as "<none>"
)

var imageKindNames = [...]string{
	ImageNone:      "none",
	ImageObject:    "o",
	ImageBitcode:   "bc",
	ImageCubin:     "cubin",
	ImageFatbinary: "fatbin",
	ImagePTX:       "s",
	ImageSPIRV:     "spv",
}

// String returns the kind's name as LLVM's getImageKindName gives it (the
// file extension llvm-offload-binary maps to the kind), "none" for
// ImageNone, or the number for a kind it does not know.
func (k ImageKind) String() string {
	if int(k) < len(imageKindNames) {
		return imageKindNames[k]
	}
	return "ImageKind(" + strconv.Itoa(int(k)) + ")"
}

// OffloadKind is the programming model that produced an image (LLVM's
// OffloadKind). Since LLVM 20 the values are bit flags.
type OffloadKind uint16

// The offload kinds.
const (
	OffloadNone   OffloadKind = 0
	OffloadOpenMP OffloadKind = 1 << 0
	OffloadCUDA   OffloadKind = 1 << 1
	OffloadHIP    OffloadKind = 1 << 2
	OffloadSYCL   OffloadKind = 1 << 3
)

// String returns the kind's name as llvm-offload-binary's "kind=" takes it
// and llvm-objdump's "producer" line prints it.
func (k OffloadKind) String() string {
	switch k {
	case OffloadNone:
		return "none"
	case OffloadOpenMP:
		return "openmp"
	case OffloadCUDA:
		return "cuda"
	case OffloadHIP:
		return "hip"
	case OffloadSYCL:
		return "sycl"
	}
	return "OffloadKind(" + strconv.Itoa(int(k)) + ")"
}

// String is one key/value pair of an image's string map.
type String struct {
	Key, Value string
}

// Image is one binary: an image and its metadata.
type Image struct {
	ImageKind   ImageKind
	OffloadKind OffloadKind
	Flags       uint32
	// Strings are the image's key/value pairs in the order of the binary's
	// string entries. Keys are unique; neither keys nor values hold NUL.
	Strings []String
	// Data is the image. Read leaves it pointing into its input.
	Data []byte
}

// Get returns the value of key and whether the image has it.
func (im *Image) Get(key string) (string, bool) {
	for _, s := range im.Strings {
		if s.Key == key {
			return s.Value, true
		}
	}
	return "", false
}

// Triple returns the value of "triple", or "".
func (im *Image) Triple() string { v, _ := im.Get("triple"); return v }

// Arch returns the value of "arch", or "".
func (im *Image) Arch() string { v, _ := im.Get("arch"); return v }

func alignUp(n uint64) uint64 { return (n + Alignment - 1) &^ (Alignment - 1) }
