package wrapper

import (
	"debug/elf"
	"encoding/binary"
	"fmt"

	"github.com/sycbuild/sycbuild/offloadbin"
)

// build places the descriptor d, and its registration, in a new object for
// architecture a: strings and bytes without pointers in .rodata, structs in
// .data.rel.ro, each image in a section of its own, the .info records in
// .tgtimg, each in the order of d; then the registration functions.
func build(a *arch, d *desc) (*object, error) {
	o := newObject(a.machine)
	b := &builder{o: o, a: a, at: map[*global]target{}}
	var text *section
	if d.regFuncs {
		text = o.addSection(".text.startup", elf.SHT_PROGBITS, elf.SHF_ALLOC|elf.SHF_EXECINSTR, funcAlign)
	}
	b.rodata = o.addSection(".rodata", elf.SHT_PROGBITS, elf.SHF_ALLOC, 1)
	b.relro = o.addSection(".data.rel.ro", elf.SHT_PROGBITS, elf.SHF_ALLOC|elf.SHF_WRITE, structAlign)
	var initArray, finiArray *section
	if d.regFuncs {
		if !d.upstream {
			b.tgtimg = o.addSection(".tgtimg", elf.SHT_PROGBITS, elf.SHF_ALLOC|elf.SHF_WRITE, tgtimgRecAlign)
		}
		initArray = o.addSection(".init_array.00001", elf.SHT_INIT_ARRAY, elf.SHF_ALLOC|elf.SHF_WRITE, ptrSize)
		finiArray = o.addSection(".fini_array.00001", elf.SHT_FINI_ARRAY, elf.SHF_ALLOC|elf.SHF_WRITE, ptrSize)
		initArray.entsize, finiArray.entsize = ptrSize, ptrSize
	}
	for _, g := range d.globals {
		if err := b.place(g); err != nil {
			return nil, err
		}
	}

	if text != nil {
		desc := b.at[d.desc]
		reg := o.addGlobal("__sycl_register_lib", elf.STT_NOTYPE, nil, 0, 0)
		unreg := o.addGlobal("__sycl_unregister_lib", elf.STT_NOTYPE, nil, 0, 0)
		off, size := a.tailCall(o, text, desc.sect, desc.off, reg)
		o.addLocal("sycl.descriptor_reg", elf.STT_FUNC, text, off, size)
		_, slot := initArray.reserve(ptrSize, ptrSize)
		b.pointer(initArray, slot, target{text, off})
		off, size = a.tailCall(o, text, desc.sect, desc.off, unreg)
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

// builder places the descriptor's globals in the shared sections.
type builder struct {
	o      *object
	a      *arch
	rodata *section // strings and bytes without pointers
	relro  *section // structs with pointers (relocated at load time in PIE)
	tgtimg *section
	at     map[*global]target  // where each placed global is
	named  map[string]*section // sections of their own (offloadbinary.go), by name
}

// place appends g to its section, names it when it has a symbol, and
// records where it is.
func (b *builder) place(g *global) error {
	var t target
	switch g.kind {
	case gString:
		t = target{b.rodata, b.rodata.appendString(g.str)}
	case gBytes:
		t = target{b.rodata, b.rodata.appendBytes(g.data, byteArrayAlign)}
	case gManifest:
		t = target{b.rodata, b.rodata.appendFile(g.file, g.size, 1)}
	case gImage:
		name := g.section
		if name == "" {
			name = fmt.Sprintf(".rodata..sycl_offloading.%d.data", g.index)
		}
		s := b.o.addSection(name, elf.SHT_PROGBITS, elf.SHF_ALLOC, imageDataAlign)
		t = target{s, s.appendFile(g.file, g.size, imageDataAlign)}
	case gContainer:
		s := b.section(offloadingSection, shtLLVMOffloading, elf.SHF_ALLOC, offloadbin.Alignment)
		s.appendBytes(g.header, offloadbin.Alignment)
		t = target{s, s.appendFile(g.file, g.size, 1)}
		if pad := g.total - uint64(len(g.header)) - g.size; pad > 0 {
			s.appendBytes(make([]byte, pad), 1)
		}
	case gStructs, gDesc:
		into := b.relro
		if g.section != "" {
			into = b.section(g.section, elf.SHT_PROGBITS, elf.SHF_ALLOC|elf.SHF_WRITE, structAlign)
		}
		data, off := into.reserve(int(g.byteSize()), structAlign)
		t = target{into, off}
		for i, elem := range g.elems {
			base := i * g.st.size
			for j, f := range elem {
				at := base + g.st.offsets[j]
				switch f.kind {
				case fInt:
					putInt(data[at:], g.st.fields[j], f.v)
				case fBegin, fEnd:
					p, ok := b.at[f.g]
					if !ok {
						return fmt.Errorf("internal error: %s refers to %s, not placed yet", g.fullName(), f.g.fullName())
					}
					if f.kind == fEnd {
						p.off += f.g.byteSize()
					}
					b.pointer(into, off+uint64(at), p)
				}
			}
		}
	case gInfo:
		if b.tgtimg == nil {
			return fmt.Errorf("internal error: %s without registration functions", g.fullName())
		}
		rec, off := b.tgtimg.reserve(tgtimgRecSize, tgtimgRecAlign)
		le.PutUint64(rec[8:], g.size)
		b.pointer(b.tgtimg, off, b.at[g.image])
		t = target{b.tgtimg, off}
	}
	b.at[g] = t
	if g.symbol {
		if g.external || g.weak {
			sym := b.o.addGlobal(g.fullName(), elf.STT_OBJECT, t.sect, t.off, g.byteSize())
			if g.weak {
				sym.bind = elf.STB_WEAK
			}
		} else {
			b.o.addLocal(g.fullName(), elf.STT_OBJECT, t.sect, t.off, g.byteSize())
		}
	}
	return nil
}

// section returns the section called name, added on first use.
func (b *builder) section(name string, typ elf.SectionType, flags elf.SectionFlag, align uint64) *section {
	s := b.named[name]
	if s == nil {
		s = b.o.addSection(name, typ, flags, align)
		if b.named == nil {
			b.named = map[string]*section{}
		}
		b.named[name] = s
	}
	return s
}

// putInt stores v as a field of type s.
func putInt(b []byte, s scalar, v uint64) {
	switch s {
	case i8:
		b[0] = byte(v)
	case i16:
		le.PutUint16(b, uint16(v))
	case i32:
		le.PutUint32(b, uint32(v))
	default:
		le.PutUint64(b, v)
	}
}

// pointer makes the 8 bytes at off in s hold the address of t.
func (b *builder) pointer(s *section, off uint64, t target) {
	b.o.addReloc(s, off, b.a.abs64, t)
}

func (o *object) addReloc(s *section, off uint64, typ uint32, t target) {
	s.addReloc(off, typ, o.sectionSymbol(t.sect), int64(t.off))
}
