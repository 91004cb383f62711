package wrapper

import (
	"fmt"
	"strconv"
)

// The descriptor of a set of images, laid out once as the globals that hold
// it, in the order clang-offload-wrapper creates them, with its names (LLVM
// makes a repeated name unique with a module-wide counter: prop, prop.1,
// __sycl_offload_prop_sets_arr.2, ...). The ELF writer (elfbuild.go) places
// these globals in sections; the bitcode writer (bitcode.go) makes each an
// LLVM global variable. Per image i, with tag ".sycl_offloading.":
//
//	<tag>target.<i>, <tag>opts.compile.<i>, <tag>opts.link.<i>   strings
//	<tag><i>.manifest                                         the manifest's bytes, if any
//	per property set: per property its name (prop) and, for a byte array,
//	  its value (prop_val); the property array (__sycl_offload_prop_sets_arr);
//	  the set's name (SYCL_PropSetName); then the set array
//	  (__sycl_offload_prop_sets_arr); an empty array is a null pointer pair
//	<tag><i>.data                                             the image's bytes
//	per entry its name (__sycl_offload_entry_name); the entry array
//	  (__sycl_offload_entries_arr)
//	<tag><i>.info                                             {image address, size}, with registration functions
//
// then <tag>device_images (the image structs) and the descriptor
// <tag>descriptor (or <tag><desc-name>, a global symbol).
type desc struct {
	globals []*global
	images  *global // .sycl_offloading.device_images
	desc    *global // the descriptor
	// regFuncs: registration functions and .info records are emitted.
	regFuncs bool
	// upstream: LLVM 22's layout (offloadbinary.go), which has no .info
	// records.
	upstream bool

	names  map[string]bool // the names asked for, without .N
	unique int             // LLVM's counter for making names unique
}

// globalKind is what a global holds.
type globalKind uint8

const (
	gString    globalKind = iota // str and a NUL
	gBytes                       // data
	gManifest                    // the first size bytes of file
	gImage                       // the first size bytes of file: an image, in a section of its own
	gStructs                     // an array of structs of type st, one per element of elems
	gDesc                        // one struct of type st, elems[0]
	gInfo                        // {address of image, size}: a .tgtimg record
	gContainer                   // header, the first size bytes of file, zeros up to total: an OffloadBinary in .llvm.offloading; the global is its image
)

// global is one global of the descriptor.
type global struct {
	name    string // the name asked for; with suffix > 0 the global is name.<suffix>
	kind    globalKind
	str     string
	data    []byte
	file    string
	size    uint64
	section string // gImage: the bundle section, "" when the target is empty; gStructs: a writable section of its own, "" for .data.rel.ro
	index   int    // gImage: the image's number
	st      *structType
	elems   [][]field
	image   *global // gInfo: the image data
	// symbol: the ELF object names it in its symbol table (the object
	// leaves out the names of strings and values reached only through a
	// struct, whose number grows with the kernels).
	symbol   bool
	external bool // gDesc: a global symbol (-desc-name)
	suffix   int

	header []byte // gContainer: the container's bytes before the image
	total  uint64 // gContainer: the container's size
	weak   bool   // gStructs in a section of its own: a weak symbol
}

// fullName returns the global's unique name.
func (g *global) fullName() string {
	if g.suffix == 0 {
		return g.name
	}
	return g.name + "." + strconv.Itoa(g.suffix)
}

// byteSize returns the global's size in bytes.
func (g *global) byteSize() uint64 {
	switch g.kind {
	case gString:
		return uint64(len(g.str)) + 1
	case gBytes:
		return uint64(len(g.data))
	case gManifest, gImage, gContainer:
		return g.size
	case gStructs, gDesc:
		return uint64(len(g.elems)) * uint64(g.st.size)
	default: // gInfo
		return tgtimgRecSize
	}
}

// fieldKind is what a struct field holds.
type fieldKind uint8

const (
	fInt   fieldKind = iota // the integer v
	fNull                   // a null pointer
	fBegin                  // the address of g
	fEnd                    // the address just past g
)

// field is the value of one struct field.
type field struct {
	kind fieldKind
	v    uint64
	g    *global
}

var nullField = field{kind: fNull}

func intField(v uint64) field   { return field{kind: fInt, v: v} }
func beginOf(g *global) field   { return field{kind: fBegin, g: g} }
func endOf(g *global) field     { return field{kind: fEnd, g: g} }
func bounds(g *global) [2]field { return [2]field{beginOf(g), endOf(g)} }
func nullBounds() [2]field      { return [2]field{nullField, nullField} }

// add appends g, making its name unique as LLVM does: a name already taken
// gets ".N" with the next N of the module's counter. Such a name is never
// taken already: the names asked for more than once are the fixed ones
// (prop, __sycl_offload_entry_name, ...), which end in no ".N" and start
// with no ".", while every other name starts with ".sycl_offloading." and
// is asked for once, except the descriptor's (-desc-name), which comes last
// and whose ".N" form no other name has. So the ".N" names need not be
// made, nor recorded, until they are written.
func (d *desc) add(g *global) *global {
	if d.names[g.name] {
		d.unique++
		g.suffix = d.unique
	} else {
		d.names[g.name] = true
	}
	d.globals = append(d.globals, g)
	return g
}

// layOut lays out the descriptor of images.
func layOut(images []prepared, opt Options) *desc {
	d := &desc{regFuncs: !opt.NoRegFuncs, names: map[string]bool{}}
	const tag = ".sycl_offloading."
	structs := make([][]field, len(images))
	for i, img := range images {
		str := func(name, s string) field {
			return beginOf(d.add(&global{name: name, kind: gString, str: s, symbol: true}))
		}
		target := str(fmt.Sprintf("%starget.%d", tag, i), img.Target)
		compile := str(fmt.Sprintf("%sopts.compile.%d", tag, i), img.CompileOptions)
		link := str(fmt.Sprintf("%sopts.link.%d", tag, i), img.LinkOptions)
		manifest := nullBounds()
		if img.Manifest != "" {
			manifest = bounds(d.add(&global{name: fmt.Sprintf("%s%d.manifest", tag, i), kind: gManifest, file: img.manifest, size: img.manifestSize, symbol: true}))
		}
		props := nullBounds()
		if img.PropertySets != nil {
			props = d.propertySets(img.PropertySets)
		}
		section := ""
		if img.Target != "" {
			section = bundleSecPrefix + img.Kind.String() + "-" + img.Target
		}
		data := d.add(&global{name: fmt.Sprintf("%s%d.data", tag, i), kind: gImage, file: img.data, size: img.size, section: section, index: i, symbol: true})
		entries := nullBounds()
		if img.Entries != nil {
			entries = d.entries(img.Entries)
		}
		if d.regFuncs {
			d.add(&global{name: fmt.Sprintf("%s%d.info", tag, i), kind: gInfo, image: data, size: img.size, symbol: true})
		}
		structs[i] = []field{
			intField(deviceImageVersion), intField(uint64(img.Kind)), intField(uint64(img.format)),
			target, compile, link, manifest[0], manifest[1], beginOf(data), endOf(data),
			entries[0], entries[1], props[0], props[1],
		}
	}
	d.images = d.add(&global{name: tag + "device_images", kind: gStructs, st: imageStruct, elems: structs, symbol: true})
	name := "descriptor"
	if opt.DescName != "" {
		name = opt.DescName
	}
	d.desc = d.add(&global{name: tag + name, kind: gDesc, st: descStruct, symbol: true, external: opt.DescName != "",
		elems: [][]field{{intField(binDescVersion), intField(uint64(len(images))), beginOf(d.images), nullField, nullField}}})
	return d
}

// entries lays out one name per entry and the entry array
// { null, name, 0, 0, 0 }, and returns the array's bounds.
func (d *desc) entries(names []string) [2]field {
	elems := make([][]field, len(names))
	strs := make([]global, len(names)) // one allocation each for the many names and fields
	fields := make([]field, len(names)*len(entryStruct.fields))
	for i, n := range names {
		strs[i] = global{name: "__sycl_offload_entry_name", kind: gString, str: n}
		f := fields[i*len(entryStruct.fields) : (i+1)*len(entryStruct.fields)]
		f[0], f[1], f[2], f[3], f[4] = nullField, beginOf(d.add(&strs[i])), intField(0), intField(0), intField(0)
		elems[i] = f
	}
	return bounds(d.add(&global{name: "__sycl_offload_entries_arr", kind: gStructs, st: entryStruct, elems: elems, symbol: true}))
}

// propertySets lays out each set (its properties' names and values, its
// property array, its name) and the set array, and returns the set array's
// bounds; an empty array is a null pointer pair, as in the reference.
func (d *desc) propertySets(sets []PropertySet) [2]field {
	var setElems [][]field
	for _, set := range sets {
		var elems [][]field
		for _, p := range set.Properties {
			name := d.add(&global{name: "prop", kind: gString, str: p.Name})
			if p.Type == SYCL_PROPERTY_TYPE_UINT32 {
				elems = append(elems, []field{beginOf(name), nullField, intField(uint64(p.Type)), intField(uint64(p.Uint32))})
				continue
			}
			val := d.add(&global{name: "prop_val", kind: gBytes, data: p.Bytes})
			elems = append(elems, []field{beginOf(name), beginOf(val), intField(uint64(p.Type)), intField(uint64(len(p.Bytes)))})
		}
		props := d.structArray(propStruct, elems)
		setName := d.add(&global{name: "SYCL_PropSetName", kind: gString, str: set.Name})
		setElems = append(setElems, []field{beginOf(setName), props[0], props[1]})
	}
	return d.structArray(propSetStruct, setElems)
}

// structArray adds a property or property set array and returns its
// bounds, null for an empty one.
func (d *desc) structArray(st *structType, elems [][]field) [2]field {
	if len(elems) == 0 {
		return nullBounds()
	}
	return bounds(d.add(&global{name: "__sycl_offload_prop_sets_arr", kind: gStructs, st: st, elems: elems, symbol: true}))
}

// structType is a struct of the descriptor: its LLVM name and field types,
// with the LP64 layout computed from them.
type structType struct {
	name    string
	fields  []scalar
	offsets []int
	size    int
}

// scalar is the type of a struct field.
type scalar uint8

const (
	i8 scalar = iota
	i16
	i32
	i64
	ptr
)

func (s scalar) size() int { return [...]int{1, 2, 4, 8, ptrSize}[s] }

func newStruct(name string, fields ...scalar) *structType {
	st := &structType{name: name, fields: fields}
	off, align := 0, 1
	for _, f := range fields {
		n := f.size()
		off = (off + n - 1) / n * n
		st.offsets = append(st.offsets, off)
		off += n
		align = max(align, n)
	}
	st.size = (off + align - 1) / align * align
	return st
}

// The descriptor's structs, as the runtime declares them
// (sycl/include/sycl/detail/compiler.hpp), with the names
// clang-offload-wrapper gives their LLVM types.
var (
	// _sycl_offload_entry_struct / __tgt_offload_entry:
	// { void *addr; char *name; size_t size; int32_t flags; int32_t reserved; }
	entryStruct = newStruct("__tgt_offload_entry", ptr, ptr, i64, i32, i32)
	// _sycl_device_binary_property_struct:
	// { char *Name; void *ValAddr; uint32_t Type; uint64_t ValSize; }
	propStruct = newStruct("_pi_device_binary_property_struct", ptr, ptr, i32, i64)
	// _sycl_device_binary_property_set_struct:
	// { char *Name; property *PropertiesBegin; property *PropertiesEnd; }
	propSetStruct = newStruct("_pi_device_binary_property_set_struct", ptr, ptr, ptr)
	// sycl_device_binary_struct (14 fields):
	// { uint16_t Version; uint8_t Kind; uint8_t Format; const char *DeviceTargetSpec;
	//   const char *CompileOptions; const char *LinkOptions;
	//   const unsigned char *ManifestStart, *ManifestEnd, *BinaryStart, *BinaryEnd;
	//   entry *EntriesBegin, *EntriesEnd; property_set *PropertySetsBegin, *PropertySetsEnd; }
	imageStruct = newStruct("__tgt_device_image", i16, i8, i8, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr)
	// sycl_device_binaries_struct:
	// { uint16_t Version; uint16_t NumDeviceBinaries; sycl_device_binary DeviceBinaries;
	//   entry *HostEntriesBegin, *HostEntriesEnd; }
	descStruct = newStruct("__tgt_bin_desc", i16, i16, ptr, ptr, ptr)
)
