package wrapper

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
)

// build lays out the descriptor of images, and its registration, in a new
// object for architecture a. The order of things follows
// clang-offload-wrapper: per image its strings, manifest, properties, data,
// entries and .tgtimg record; then the image array and the descriptor; then
// the registration functions.
func build(a *arch, images []prepared, opt Options) (*object, error) {
	o := newObject(a.machine)
	b := &builder{o: o, a: a}
	var text *section
	if !opt.NoRegFuncs {
		text = o.addSection(".text.startup", elf.SHT_PROGBITS, elf.SHF_ALLOC|elf.SHF_EXECINSTR, funcAlign)
	}
	b.rodata = o.addSection(".rodata", elf.SHT_PROGBITS, elf.SHF_ALLOC, 1)
	b.relro = o.addSection(".data.rel.ro", elf.SHT_PROGBITS, elf.SHF_ALLOC|elf.SHF_WRITE, structAlign)
	var tgtimg, initArray, finiArray *section
	if !opt.NoRegFuncs {
		tgtimg = o.addSection(".tgtimg", elf.SHT_PROGBITS, elf.SHF_ALLOC|elf.SHF_WRITE, tgtimgRecAlign)
		initArray = o.addSection(".init_array.00001", elf.SHT_INIT_ARRAY, elf.SHF_ALLOC|elf.SHF_WRITE, ptrSize)
		finiArray = o.addSection(".fini_array.00001", elf.SHT_FINI_ARRAY, elf.SHF_ALLOC|elf.SHF_WRITE, ptrSize)
		initArray.entsize, finiArray.entsize = ptrSize, ptrSize
	}

	structs := make([][]byte, len(images)) // the image structs, filled as each image is laid out
	imgFields := make([]map[int]target, len(images))
	for i, img := range images {
		st := make([]byte, imgSize)
		le.PutUint16(st[imgVersion:], deviceImageVersion)
		st[imgKind] = byte(img.Kind)
		st[imgFormat] = byte(img.format)
		f := map[int]target{}
		f[imgTarget] = b.str(fmt.Sprintf(".sycl_offloading.target.%d", i), img.Target)
		f[imgCompileOpts] = b.str(fmt.Sprintf(".sycl_offloading.opts.compile.%d", i), img.CompileOptions)
		f[imgLinkOpts] = b.str(fmt.Sprintf(".sycl_offloading.opts.link.%d", i), img.LinkOptions)
		if img.Manifest != "" {
			off := b.rodata.appendFile(img.Manifest, img.manifestSize, 1)
			o.addLocal(fmt.Sprintf(".sycl_offloading.%d.manifest", i), elf.STT_OBJECT, b.rodata, off, img.manifestSize)
			f[imgManifestStart] = target{b.rodata, off}
			f[imgManifestEnd] = target{b.rodata, off + img.manifestSize}
		}
		if img.PropertySets != nil {
			begin, end := b.propertySets(img.PropertySets)
			f[imgPropSetsBegin], f[imgPropSetsEnd] = begin, end
		}
		data := b.imageData(i, img)
		f[imgBinaryStart] = target{data, 0}
		f[imgBinaryEnd] = target{data, img.size}
		if img.Entries != nil {
			begin, end := b.entries(img.Entries)
			f[imgEntriesBegin], f[imgEntriesEnd] = begin, end
		}
		if tgtimg != nil {
			rec, off := tgtimg.reserve(tgtimgRecSize, tgtimgRecAlign)
			le.PutUint64(rec[8:], img.size)
			b.pointer(tgtimg, off, target{data, 0})
			o.addLocal(fmt.Sprintf(".sycl_offloading.%d.info", i), elf.STT_OBJECT, tgtimg, off, tgtimgRecSize)
		}
		structs[i], imgFields[i] = st, f
	}

	arr := b.relro.alignTo(structAlign)
	for i, st := range structs {
		off := b.relro.appendBytes(st, structAlign)
		for field, t := range sortedFields(imgFields[i]) {
			b.pointer(b.relro, off+uint64(field), t)
		}
	}
	o.addLocal(".sycl_offloading.device_images", elf.STT_OBJECT, b.relro, arr, uint64(len(images))*imgSize)

	desc, descOff := b.relro.reserve(descSize, structAlign)
	le.PutUint16(desc[descVersion:], binDescVersion)
	le.PutUint16(desc[descNumImages:], uint16(len(images)))
	b.pointer(b.relro, descOff+descImages, target{b.relro, arr})
	if opt.DescName != "" {
		o.addGlobal(".sycl_offloading."+opt.DescName, elf.STT_OBJECT, b.relro, descOff, descSize)
	} else {
		o.addLocal(".sycl_offloading.descriptor", elf.STT_OBJECT, b.relro, descOff, descSize)
	}

	if text != nil {
		reg := o.addGlobal("__sycl_register_lib", elf.STT_NOTYPE, nil, 0, 0)
		unreg := o.addGlobal("__sycl_unregister_lib", elf.STT_NOTYPE, nil, 0, 0)
		off, size := a.tailCall(o, text, b.relro, descOff, reg)
		o.addLocal("sycl.descriptor_reg", elf.STT_FUNC, text, off, size)
		_, slot := initArray.reserve(ptrSize, ptrSize)
		b.pointer(initArray, slot, target{text, off})
		off, size = a.tailCall(o, text, b.relro, descOff, unreg)
		o.addLocal("sycl.descriptor_unreg", elf.STT_FUNC, text, off, size)
		_, slot = finiArray.reserve(ptrSize, ptrSize)
		b.pointer(finiArray, slot, target{text, off})
	}
	o.addSection(".note.GNU-stack", elf.SHT_PROGBITS, 0, 1)
	return o, nil
}

var le = binary.LittleEndian

// target is an address in the object: an offset in a section.
type target struct {
	sect *section
	off  uint64
}

// builder appends the descriptor's pieces to the shared sections.
type builder struct {
	o      *object
	a      *arch
	rodata *section // strings and bytes without pointers
	relro  *section // structs with pointers (relocated at load time in PIE)
}

// pointer makes the 8 bytes at off in s hold the address of t.
func (b *builder) pointer(s *section, off uint64, t target) {
	b.o.addReloc(s, off, b.a.abs64, t)
}

func (o *object) addReloc(s *section, off uint64, typ uint32, t target) {
	s.addReloc(off, typ, o.sectionSymbol(t.sect), int64(t.off))
}

// str appends a NUL-terminated string, names it, and returns its address.
func (b *builder) str(name, s string) target {
	off := b.rodata.appendString(s)
	b.o.addLocal(name, elf.STT_OBJECT, b.rodata, off, uint64(len(s)+1))
	return target{b.rodata, off}
}

// imageData puts the image's bytes in a section of their own and returns it.
func (b *builder) imageData(i int, img prepared) *section {
	name := bundleSecPrefix + img.Kind.String() + "-" + img.Target
	if img.Target == "" {
		name = fmt.Sprintf(".rodata..sycl_offloading.%d.data", i)
	}
	s := b.o.addSection(name, elf.SHT_PROGBITS, elf.SHF_ALLOC, imageDataAlign)
	s.appendFile(img.data, img.size, imageDataAlign)
	b.o.addLocal(fmt.Sprintf(".sycl_offloading.%d.data", i), elf.STT_OBJECT, s, 0, img.size)
	return s
}

// entries lays out the offload entry array { null, name, 0, 0, 0 } per name
// and returns its bounds.
func (b *builder) entries(names []string) (begin, end target) {
	nameAt := make([]uint64, len(names))
	for i, n := range names {
		nameAt[i] = b.rodata.appendString(n)
	}
	_, off := b.relro.reserve(len(names)*entrySize, structAlign) // every field but the name is zero
	for i := range names {
		b.pointer(b.relro, off+uint64(i*entrySize+entryName), target{b.rodata, nameAt[i]})
	}
	b.o.addLocal("__sycl_offload_entries_arr", elf.STT_OBJECT, b.relro, off, uint64(len(names)*entrySize))
	return target{b.relro, off}, target{b.relro, off + uint64(len(names)*entrySize)}
}

// propertySets lays out each set's property array, the set names and the
// set array, and returns the set array's bounds.
func (b *builder) propertySets(sets []PropertySet) (begin, end target) {
	type bounds struct{ begin, end uint64 }
	props := make([]bounds, len(sets))
	for k, set := range sets {
		nameAt := make([]uint64, len(set.Properties))
		valAt := make([]uint64, len(set.Properties))
		for j, p := range set.Properties {
			nameAt[j] = b.rodata.appendString(p.Name)
			if p.Type != SYCL_PROPERTY_TYPE_UINT32 {
				valAt[j] = b.rodata.appendBytes(p.Bytes, byteArrayAlign)
			}
		}
		arr, off := b.relro.reserve(len(set.Properties)*propSize, structAlign)
		for j, p := range set.Properties {
			at := off + uint64(j*propSize)
			rec := arr[j*propSize : (j+1)*propSize]
			b.pointer(b.relro, at+propName, target{b.rodata, nameAt[j]})
			le.PutUint32(rec[propType:], uint32(p.Type))
			if p.Type == SYCL_PROPERTY_TYPE_UINT32 {
				le.PutUint64(rec[propValSize:], uint64(p.Uint32))
			} else {
				b.pointer(b.relro, at+propValAddr, target{b.rodata, valAt[j]})
				le.PutUint64(rec[propValSize:], uint64(len(p.Bytes)))
			}
		}
		b.o.addLocal("__sycl_offload_prop_sets_arr", elf.STT_OBJECT, b.relro, off, uint64(len(arr)))
		props[k] = bounds{off, off + uint64(len(arr))}
	}
	setNameAt := make([]uint64, len(sets))
	for k, set := range sets {
		setNameAt[k] = b.rodata.appendString(set.Name)
	}
	arr, off := b.relro.reserve(len(sets)*propSetSize, structAlign)
	for k := range sets {
		at := off + uint64(k*propSetSize)
		b.pointer(b.relro, at+propSetName, target{b.rodata, setNameAt[k]})
		b.pointer(b.relro, at+propSetBegin, target{b.relro, props[k].begin})
		b.pointer(b.relro, at+propSetEnd, target{b.relro, props[k].end})
	}
	b.o.addLocal("__sycl_offload_prop_sets_arr", elf.STT_OBJECT, b.relro, off, uint64(len(arr)))
	return target{b.relro, off}, target{b.relro, off + uint64(len(arr))}
}

// sortedFields returns the pointer fields of an image struct in offset
// order, so that relocations come out in a fixed order.
func sortedFields(f map[int]target) func(yield func(int, target) bool) {
	return func(yield func(int, target) bool) {
		for field := imgTarget; field < imgSize; field += ptrSize {
			if t, ok := f[field]; ok && !yield(field, t) {
				return
			}
		}
	}
}
