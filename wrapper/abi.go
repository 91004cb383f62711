package wrapper

import "strconv"

// The SYCL device-binary descriptor ABI: the enums and struct layouts that
// clang-offload-wrapper emits and the SYCL runtime reads
// (sycl/include/sycl/detail/compiler.hpp, "sycl_device_binaries_struct" and
// friends; ClangOffloadWrapper.cpp's getSyclDeviceImageTy and
// getSyclBinDescTy). The names of constants are the runtime's, so that they
// can be found in its headers. Layouts are for LP64 hosts (x86-64, aarch64):
// pointers and size_t are 8 bytes, little-endian.

// OffloadKind is a device image's offload kind
// (sycl_device_binary_struct.Kind; the wrapper's OffloadKind enum).
type OffloadKind uint8

const (
	OFK_Unknown OffloadKind = 0 /* unknown */
	OFK_Host    OffloadKind = 1 /* host */
	OFK_OpenMP  OffloadKind = 2 /* OpenMP */
	OFK_HIP     OffloadKind = 3 /* HIP */
	OFK_SYCL    OffloadKind = 4 /* SYCL */
)

var offloadKindNames = []intName{
	{0, "unknown"}, {1, "host"}, {2, "openmp"}, {3, "hip"}, {4, "sycl"},
}

func (k OffloadKind) String() string { return stringName(uint32(k), offloadKindNames) }

// BinaryFormat is the format of a device image's bytes
// (sycl_device_binary_struct.Format; sycl_device_binary_type).
type BinaryFormat uint8

const (
	SYCL_DEVICE_BINARY_TYPE_NONE            BinaryFormat = 0 /* not set; the runtime looks at the bytes */
	SYCL_DEVICE_BINARY_TYPE_NATIVE          BinaryFormat = 1 /* native device code */
	SYCL_DEVICE_BINARY_TYPE_SPIRV           BinaryFormat = 2 /* SPIR-V */
	SYCL_DEVICE_BINARY_TYPE_LLVMIR_BITCODE  BinaryFormat = 3 /* LLVM bitcode */
	SYCL_DEVICE_BINARY_TYPE_COMPRESSED_NONE BinaryFormat = 4 /* a zstd frame; the format of what it holds is found after decompression */
)

var binaryFormatNames = []intName{
	{0, "none"}, {1, "native"}, {2, "spirv"}, {3, "llvmbc"}, {4, "compressed"},
}

func (f BinaryFormat) String() string { return stringName(uint32(f), binaryFormatNames) }

// PropertyType is the type of a property value
// (sycl_device_binary_property_struct.Type; sycl_property_type).
type PropertyType uint32

const (
	SYCL_PROPERTY_TYPE_UNKNOWN    PropertyType = 0 /* not a valid value */
	SYCL_PROPERTY_TYPE_UINT32     PropertyType = 1 /* ValAddr null, the value in ValSize */
	SYCL_PROPERTY_TYPE_BYTE_ARRAY PropertyType = 2 /* ValAddr: 8-byte bit count, then the data; ValSize: their byte size */
	SYCL_PROPERTY_TYPE_STRING     PropertyType = 3 /* defined by the runtime, never emitted by the tools */
)

var propertyTypeNames = []intName{
	{0, "unknown"}, {1, "uint32"}, {2, "byte array"}, {3, "string"},
}

func (t PropertyType) String() string { return stringName(uint32(t), propertyTypeNames) }

// Version numbers written in the structs. The runtime's header defines
// SYCL_DEVICE_BINARY_VERSION as 1, but clang-offload-wrapper writes 2 in
// every image struct (the 14-field layout); the runtime accepts it.
const (
	deviceImageVersion = 2 // sycl_device_binary_struct.Version
	binDescVersion     = 1 // sycl_device_binaries_struct.Version (SYCL_DEVICE_BINARIES_VERSION)
)

// Sizes and alignments of the descriptor's parts (LP64). The structs'
// fields are those of descriptor.go's struct types, which compute their
// offsets.
const (
	ptrSize         = 8
	descMaxImages   = 1<<16 - 1 // NumDeviceBinaries is a uint16_t
	tgtimgRecSize   = 16        // .tgtimg record: { uint64 image address, uint64 image size }
	tgtimgRecAlign  = 16        // 2 × pointer size, as clang-offload-wrapper aligns it
	imageDataAlign  = 16        // what LLVM gives an unaligned constant array of more than 16 bytes
	byteArrayAlign  = 8         // property values start with a uint64 bit count
	structAlign     = ptrSize
	bundleSecPrefix = "__CLANG_OFFLOAD_BUNDLE__"
)

// intName is one named value of an enum, for String methods.
type intName struct {
	i uint32
	s string
}

func stringName(i uint32, names []intName) string {
	for _, n := range names {
		if n.i == i {
			return n.s
		}
	}
	return strconv.FormatUint(uint64(i), 10)
}
