package wrapper

import (
	"bufio"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io"
	"sort"

	"github.com/sycbuild/sycbuild/internal/filecopy"
)

// An ELF64 little-endian relocatable object (ET_REL) being assembled, and
// its writer. Sections hold their contents as chunks: small byte slices built
// in memory, or ranges of input files (device images, manifests) that are
// copied into the output only while it is written, so that no image is ever
// held in memory. The layout (every offset and size) is known before the
// first byte is written, so the output is written front to back in one pass
// and may be a pipe.

// object is the object being assembled.
type object struct {
	machine  elf.Machine
	sections []*section // in section-header order, not counting the null section
	locals   []*symbol  // named local symbols, in order of addition
	globals  []*symbol  // global symbols (defined or undefined), in order of addition
	names    map[string]int
}

// section is one section and, when it has relocations, its .rela section.
type section struct {
	name    string
	typ     elf.SectionType
	flags   elf.SectionFlag
	align   uint64
	entsize uint64
	size    uint64
	chunks  []chunk
	relocs  []reloc
	sym     *symbol // its STT_SECTION symbol, made on first use

	index  int    // section-header index, set by layout
	offset uint64 // file offset, set by layout
}

// chunk is part of a section's contents at off: data, or the first n bytes
// of the file called file.
type chunk struct {
	off  uint64
	data []byte
	file string
	n    uint64
}

// symbol is a symbol-table entry. A nil sect with bind STB_GLOBAL is an
// undefined symbol.
type symbol struct {
	name  string
	bind  elf.SymBind
	typ   elf.SymType
	sect  *section
	value uint64
	size  uint64
	index int // symbol-table index, set by layout
}

// reloc is one RELA relocation at off in its section.
type reloc struct {
	off    uint64
	typ    uint32
	sym    *symbol
	addend int64
}

func newObject(machine elf.Machine) *object {
	return &object{machine: machine, names: map[string]int{}}
}

// addSection appends a section to the section-header order.
func (o *object) addSection(name string, typ elf.SectionType, flags elf.SectionFlag, align uint64) *section {
	s := &section{name: name, typ: typ, flags: flags, align: align}
	o.sections = append(o.sections, s)
	return s
}

// reserve appends n zero bytes aligned to align and returns their offset;
// the caller fills them with put (contents that relocations complete stay
// zero: with RELA the addend is in the relocation).
func (s *section) reserve(n int, align uint64) ([]byte, uint64) {
	b := make([]byte, n)
	return b, s.appendBytes(b, align)
}

// appendBytes appends b (not copied) aligned to align and returns its offset.
func (s *section) appendBytes(b []byte, align uint64) uint64 {
	off := s.alignTo(align)
	s.chunks = append(s.chunks, chunk{off: off, data: b})
	s.size = off + uint64(len(b))
	return off
}

// appendString appends str and a NUL and returns the offset.
func (s *section) appendString(str string) uint64 {
	b := make([]byte, len(str)+1)
	copy(b, str)
	return s.appendBytes(b, 1)
}

// appendFile appends the first n bytes of the file called name, aligned to
// align, and returns their offset. The file is read only by write.
func (s *section) appendFile(name string, n uint64, align uint64) uint64 {
	off := s.alignTo(align)
	if n > 0 {
		s.chunks = append(s.chunks, chunk{off: off, file: name, n: n})
	}
	s.size = off + n
	return off
}

func (s *section) alignTo(align uint64) uint64 {
	if align > s.align {
		s.align = align
	}
	return alignUp(s.size, align)
}

func alignUp(v, align uint64) uint64 {
	if align <= 1 {
		return v
	}
	return (v + align - 1) &^ (align - 1)
}

// addReloc records a relocation of type typ at off against sym + addend.
func (s *section) addReloc(off uint64, typ uint32, sym *symbol, addend int64) {
	s.relocs = append(s.relocs, reloc{off: off, typ: typ, sym: sym, addend: addend})
}

// sectionSymbol returns the STT_SECTION symbol of s; relocations against
// local data use it with the data's offset as addend, as assemblers do.
func (o *object) sectionSymbol(s *section) *symbol {
	if s.sym == nil {
		s.sym = &symbol{bind: elf.STB_LOCAL, typ: elf.STT_SECTION, sect: s}
	}
	return s.sym
}

// addLocal adds a named local symbol for size bytes at off in s. A name
// already used gets a ".N" suffix, as LLVM names its globals.
func (o *object) addLocal(name string, typ elf.SymType, s *section, off, size uint64) *symbol {
	if n := o.names[name]; n > 0 {
		o.names[name] = n + 1
		name = fmt.Sprintf("%s.%d", name, n)
	} else {
		o.names[name] = 1
	}
	sym := &symbol{name: name, bind: elf.STB_LOCAL, typ: typ, sect: s, value: off, size: size}
	o.locals = append(o.locals, sym)
	return sym
}

// addGlobal adds a global symbol; a nil s makes it undefined.
func (o *object) addGlobal(name string, typ elf.SymType, s *section, off, size uint64) *symbol {
	sym := &symbol{name: name, bind: elf.STB_GLOBAL, typ: typ, sect: s, value: off, size: size}
	o.globals = append(o.globals, sym)
	return sym
}

// strtab builds a string table: a leading NUL, then each added string once.
type strtab struct {
	b   []byte
	off map[string]uint32
}

func newStrtab() *strtab { return &strtab{b: []byte{0}, off: map[string]uint32{"": 0}} }

func (t *strtab) add(s string) uint32 {
	if off, ok := t.off[s]; ok {
		return off
	}
	off := uint32(len(t.b))
	t.b = append(t.b, s...)
	t.b = append(t.b, 0)
	t.off[s] = off
	return off
}

// layout is the object's final form: every section (the null section
// first, then contents, .rela, .symtab, .strtab, .shstrtab) with its offset,
// and the section-header table's offset.
type layout struct {
	sections []*section
	nameOff  []uint32
	links    []uint32 // sh_link by section index
	infos    []uint32 // sh_info by section index
	shoff    uint64
	size     uint64
}

// layout numbers the sections and symbols, builds the relocation, symbol
// and string tables, and assigns file offsets.
func (o *object) layout() (*layout, error) {
	l := &layout{}
	null := &section{}
	l.sections = append(l.sections, null)
	relaOf := map[*section]*section{}
	for _, s := range o.sections {
		s.index = len(l.sections)
		l.sections = append(l.sections, s)
		if len(s.relocs) > 0 {
			r := &section{name: ".rela" + s.name, typ: elf.SHT_RELA, flags: elf.SHF_INFO_LINK, align: 8, entsize: relaSize}
			r.index = len(l.sections)
			l.sections = append(l.sections, r)
			relaOf[s] = r
		}
	}
	symtab := &section{name: ".symtab", typ: elf.SHT_SYMTAB, align: 8, entsize: elf.Sym64Size}
	strs := &section{name: ".strtab", typ: elf.SHT_STRTAB, align: 1}
	shstrs := &section{name: ".shstrtab", typ: elf.SHT_STRTAB, align: 1}
	for _, s := range []*section{symtab, strs, shstrs} {
		s.index = len(l.sections)
		l.sections = append(l.sections, s)
	}
	if len(l.sections) >= int(elf.SHN_LORESERVE) {
		return nil, fmt.Errorf("too many sections for an object file (%d)", len(l.sections))
	}

	firstGlobal := o.symbolTable(symtab, strs)
	writeRelocations(relaOf)

	shnames := newStrtab()
	l.nameOff = make([]uint32, len(l.sections))
	for i, s := range l.sections {
		if i > 0 {
			l.nameOff[i] = shnames.add(s.name)
		}
	}
	shstrs.appendBytes(shnames.b, 1)

	l.links = make([]uint32, len(l.sections))
	l.infos = make([]uint32, len(l.sections))
	l.links[symtab.index] = uint32(strs.index)
	l.infos[symtab.index] = uint32(firstGlobal)
	for s, r := range relaOf {
		l.links[r.index] = uint32(symtab.index)
		l.infos[r.index] = uint32(s.index)
	}

	off := uint64(elfHeaderSize)
	for _, s := range l.sections[1:] {
		off = alignUp(off, s.align)
		s.offset = off
		off += s.size
	}
	l.shoff = alignUp(off, 8)
	l.size = l.shoff + uint64(len(l.sections))*sectionHeaderSize
	return l, nil
}

// symbolTable numbers the symbols and writes them into symtab, their
// names into strs: the null symbol, section symbols, named locals, then
// globals. It returns the index of the first global.
func (o *object) symbolTable(symtab, strs *section) (firstGlobal int) {
	syms := []*symbol{{}}
	for _, s := range o.sections {
		if s.sym != nil {
			syms = append(syms, s.sym)
		}
	}
	syms = append(syms, o.locals...)
	firstGlobal = len(syms)
	syms = append(syms, o.globals...)
	names := newStrtab()
	symData := make([]byte, 0, len(syms)*elf.Sym64Size)
	for i, sym := range syms {
		sym.index = i
		if i == 0 {
			symData = append(symData, make([]byte, elf.Sym64Size)...)
			continue
		}
		var nameOff uint32
		if sym.name != "" {
			nameOff = names.add(sym.name)
		}
		shndx := uint16(elf.SHN_UNDEF)
		if sym.sect != nil {
			shndx = uint16(sym.sect.index)
		}
		symData = binary.LittleEndian.AppendUint32(symData, nameOff)
		symData = append(symData, elf.ST_INFO(sym.bind, sym.typ), byte(elf.STV_DEFAULT))
		symData = binary.LittleEndian.AppendUint16(symData, shndx)
		symData = binary.LittleEndian.AppendUint64(symData, sym.value)
		symData = binary.LittleEndian.AppendUint64(symData, sym.size)
	}
	symtab.appendBytes(symData, 8)
	strs.appendBytes(names.b, 1)
	return firstGlobal
}

// writeRelocations fills each .rela section with its section's
// relocations, in offset order; the symbols must be numbered.
func writeRelocations(relaOf map[*section]*section) {
	for s, r := range relaOf { // each .rela depends on its own section only
		sort.SliceStable(s.relocs, func(i, j int) bool { return s.relocs[i].off < s.relocs[j].off })
		data := make([]byte, 0, len(s.relocs)*relaSize)
		for _, rel := range s.relocs {
			data = binary.LittleEndian.AppendUint64(data, rel.off)
			data = binary.LittleEndian.AppendUint64(data, elf.R_INFO(uint32(rel.sym.index), rel.typ))
			data = binary.LittleEndian.AppendUint64(data, uint64(rel.addend))
		}
		r.appendBytes(data, 8)
	}
}

const (
	elfHeaderSize     = 64 // sizeof(Elf64_Ehdr)
	sectionHeaderSize = 64 // sizeof(Elf64_Shdr)
	relaSize          = 24 // sizeof(Elf64_Rela)
)

// writeTo lays the object out and writes it to w front to back. File chunks
// are copied with io.Copy (in-kernel where w is a file); a file that is
// shorter or longer than when it was sized is an error.
func (o *object) writeTo(w io.Writer) error {
	l, err := o.layout()
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var pos uint64
	put := func(b []byte) error {
		_, err := bw.Write(b)
		pos += uint64(len(b))
		return err
	}
	zeros := make([]byte, 4096)
	padTo := func(target uint64) error {
		for pos < target {
			n := min(target-pos, uint64(len(zeros)))
			if err := put(zeros[:n]); err != nil {
				return err
			}
		}
		return nil
	}

	if err := put(o.header(l)); err != nil {
		return err
	}
	for _, s := range l.sections[1:] {
		for _, c := range s.chunks {
			if err := padTo(s.offset + c.off); err != nil {
				return err
			}
			if c.file == "" {
				if err := put(c.data); err != nil {
					return err
				}
				continue
			}
			if err := bw.Flush(); err != nil { // lets io.Copy hand the copy to w
				return err
			}
			if err := filecopy.CopyN(bw, c.file, c.n); err != nil {
				return err
			}
			pos += c.n
		}
		if err := padTo(s.offset + s.size); err != nil {
			return err
		}
	}
	if err := padTo(l.shoff); err != nil {
		return err
	}
	for i, s := range l.sections {
		if err := put(sectionHeader(s, l, i)); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// header returns the ELF header (Elf64_Ehdr, in file order).
func (o *object) header(l *layout) []byte {
	h := make([]byte, 0, elfHeaderSize)
	h = append(h, elf.ELFMAG...)
	h = append(h, byte(elf.ELFCLASS64), byte(elf.ELFDATA2LSB), byte(elf.EV_CURRENT), byte(elf.ELFOSABI_NONE), 0)
	h = append(h, make([]byte, elf.EI_NIDENT-len(h))...)
	le := binary.LittleEndian
	h = le.AppendUint16(h, uint16(elf.ET_REL))        // e_type
	h = le.AppendUint16(h, uint16(o.machine))         // e_machine
	h = le.AppendUint32(h, uint32(elf.EV_CURRENT))    // e_version
	h = le.AppendUint64(h, 0)                         // e_entry
	h = le.AppendUint64(h, 0)                         // e_phoff
	h = le.AppendUint64(h, l.shoff)                   // e_shoff
	h = le.AppendUint32(h, 0)                         // e_flags
	h = le.AppendUint16(h, elfHeaderSize)             // e_ehsize
	h = le.AppendUint16(h, 0)                         // e_phentsize
	h = le.AppendUint16(h, 0)                         // e_phnum
	h = le.AppendUint16(h, sectionHeaderSize)         // e_shentsize
	h = le.AppendUint16(h, uint16(len(l.sections)))   // e_shnum
	h = le.AppendUint16(h, uint16(len(l.sections)-1)) // e_shstrndx: .shstrtab is last
	return h
}

// sectionHeader returns section i's header (Elf64_Shdr, in file order).
func sectionHeader(s *section, l *layout, i int) []byte {
	h := make([]byte, 0, sectionHeaderSize)
	if i == 0 {
		return append(h, make([]byte, sectionHeaderSize)...)
	}
	le := binary.LittleEndian
	h = le.AppendUint32(h, l.nameOff[i])    // sh_name
	h = le.AppendUint32(h, uint32(s.typ))   // sh_type
	h = le.AppendUint64(h, uint64(s.flags)) // sh_flags
	h = le.AppendUint64(h, 0)               // sh_addr
	h = le.AppendUint64(h, s.offset)        // sh_offset
	h = le.AppendUint64(h, s.size)          // sh_size
	h = le.AppendUint32(h, l.links[i])      // sh_link
	h = le.AppendUint32(h, l.infos[i])      // sh_info
	h = le.AppendUint64(h, max(s.align, 1)) // sh_addralign
	h = le.AppendUint64(h, s.entsize)       // sh_entsize
	return h
}
