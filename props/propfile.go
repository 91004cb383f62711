// Package props holds SYCL property sets: named groups of named values that
// sycl-post-link computes for each device image and the offload wrapper hands
// to the SYCL runtime.
//
// This file is the model and its text form, the .prop file of LLVM's
// PropertySetIO (the form with the 8-byte bit-count prefix in byte arrays):
//
//	[<set name>]
//	<name>=<type>|<value>
//
// Sets, and properties within a set, keep their insertion order. Type 1 is a
// uint32 written in decimal; type 2 is a byte array written in LLVM's Base64
// (see base64.go) of its raw bytes: an 8-byte little-endian count of bits,
// then ⌈bits/8⌉ data bytes. Strings are byte arrays without a NUL.
package props

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/diag"
)

// Type is the type tag of a property value (PropertyValue::Type); its number
// is written in .prop files and handed to the runtime.
type Type uint32

const (
	TypeUint32    Type = 1
	TypeByteArray Type = 2
)

func (t Type) String() string {
	switch t {
	case TypeUint32:
		return "uint32"
	case TypeByteArray:
		return "byte array"
	}
	return "type " + strconv.FormatUint(uint64(t), 10)
}

// sizePrefix is the length of a byte array's bit-count prefix.
const sizePrefix = 8

// Property is one named value of a property set.
type Property struct {
	Name string
	Type Type
	// Uint32 is the value of a TypeUint32 property.
	Uint32 uint32
	// Bytes is the raw value of a TypeByteArray property, exactly what the
	// runtime receives: the 8-byte little-endian bit count followed by
	// ⌈bits/8⌉ data bytes.
	Bytes []byte
}

// NewUint32 returns a uint32 property.
func NewUint32(name string, v uint32) Property {
	return Property{Name: name, Type: TypeUint32, Uint32: v}
}

// NewByteArray returns a byte-array property holding data (bit count
// 8·len(data)).
func NewByteArray(name string, data []byte) Property {
	return Property{Name: name, Type: TypeByteArray, Bytes: EncodeByteArray(data)}
}

// NewString returns a string property: a byte array of s without a NUL.
func NewString(name, s string) Property {
	return NewByteArray(name, []byte(s))
}

// NewBitArray returns a byte-array property holding nbits bits packed
// LSB-first into packed, which must hold ⌈nbits/8⌉ bytes.
func NewBitArray(name string, nbits uint64, packed []byte) Property {
	if uint64(len(packed)) != bytesFor(nbits) {
		panic(fmt.Sprintf("props: %d bits need %d bytes, got %d", nbits, bytesFor(nbits), len(packed)))
	}
	raw := make([]byte, sizePrefix+len(packed))
	binary.LittleEndian.PutUint64(raw, nbits)
	copy(raw[sizePrefix:], packed)
	return Property{Name: name, Type: TypeByteArray, Bytes: raw}
}

// NewUint32Array returns a byte-array property holding vs as little-endian
// 32-bit words.
func NewUint32Array(name string, vs []uint32) Property {
	data := make([]byte, 0, 4*len(vs))
	for _, v := range vs {
		data = binary.LittleEndian.AppendUint32(data, v)
	}
	return NewByteArray(name, data)
}

// NewUint64Array returns a byte-array property holding vs as little-endian
// 64-bit words.
func NewUint64Array(name string, vs []uint64) Property {
	data := make([]byte, 0, 8*len(vs))
	for _, v := range vs {
		data = binary.LittleEndian.AppendUint64(data, v)
	}
	return NewByteArray(name, data)
}

// EncodeByteArray returns the raw form of a byte-array value holding data:
// the bit count 8·len(data) as 8 little-endian bytes, then data.
func EncodeByteArray(data []byte) []byte {
	raw := make([]byte, sizePrefix+len(data))
	binary.LittleEndian.PutUint64(raw, uint64(len(data))*8)
	copy(raw[sizePrefix:], data)
	return raw
}

// bytesFor is ⌈bits/8⌉, the data bytes a byte array of bits bits holds,
// without the overflow of (bits+7)/8 near 2^64.
func bytesFor(bits uint64) uint64 {
	n := bits / 8
	if bits%8 != 0 {
		n++
	}
	return n
}

// BitCount returns the bit count of a byte-array property (its prefix).
func (p Property) BitCount() uint64 {
	if len(p.Bytes) < sizePrefix {
		return 0
	}
	return binary.LittleEndian.Uint64(p.Bytes)
}

// Data returns the data bytes of a byte-array property (after the prefix).
func (p Property) Data() []byte {
	if len(p.Bytes) < sizePrefix {
		return nil
	}
	return p.Bytes[sizePrefix:]
}

// check reports what makes p unwritable, or nil.
func (p Property) check() error {
	switch {
	case p.Name == "":
		return fmt.Errorf("property with an empty name")
	case strings.ContainsAny(p.Name, "=\n\r\x00"), strings.HasPrefix(p.Name, "["):
		return fmt.Errorf("property name %q cannot be written in a .prop file", p.Name)
	}
	switch p.Type {
	case TypeUint32:
	case TypeByteArray:
		if len(p.Bytes) < sizePrefix {
			return fmt.Errorf("property %s: byte array of %d bytes has no 8-byte size prefix", p.Name, len(p.Bytes))
		}
		bits := p.BitCount()
		if want := bytesFor(bits); uint64(len(p.Bytes)-sizePrefix) != want {
			return fmt.Errorf("property %s: byte array holds %d data bytes, its size prefix says %d bits", p.Name, len(p.Bytes)-sizePrefix, bits)
		}
	default:
		return fmt.Errorf("property %s: unsupported property type: %d", p.Name, p.Type)
	}
	return nil
}

// PropertySet is a named set of properties in insertion order.
type PropertySet struct {
	Name  string
	props []Property
	index map[string]int // by name, once the set holds more than indexFrom
}

// indexFrom is the size from which a set or registry looks names up in a
// map rather than going through its list: most hold a few, and a module's
// .prop file is made thousands of times in a split.
const indexFrom = 8

// Add adds p to the set. A property of the same name already there is
// replaced in its place (the order of first insertion is kept), as LLVM's
// MapVector does.
func (s *PropertySet) Add(p Property) {
	if i := s.find(p.Name); i >= 0 {
		s.props[i] = p
		return
	}
	s.props = append(s.props, p)
	if s.index != nil {
		s.index[p.Name] = len(s.props) - 1
	} else if len(s.props) > indexFrom {
		s.index = make(map[string]int, 2*len(s.props))
		for i, q := range s.props {
			s.index[q.Name] = i
		}
	}
}

// find returns the index of the property called name, or -1.
func (s *PropertySet) find(name string) int {
	if s.index != nil {
		if i, ok := s.index[name]; ok {
			return i
		}
		return -1
	}
	for i := range s.props {
		if s.props[i].Name == name {
			return i
		}
	}
	return -1
}

// Get returns the property called name.
func (s *PropertySet) Get(name string) (Property, bool) {
	i := s.find(name)
	if i < 0 {
		return Property{}, false
	}
	return s.props[i], true
}

// Properties returns the properties in order. The slice belongs to the set.
func (s *PropertySet) Properties() []Property { return s.props }

// Len returns the number of properties.
func (s *PropertySet) Len() int { return len(s.props) }

// Registry is an ordered collection of property sets: the contents of one
// .prop file.
type Registry struct {
	sets  []*PropertySet
	index map[string]int // by name, once the registry holds more than indexFrom
}

// Set returns the set called name, adding an empty one at the end when there
// is none.
func (r *Registry) Set(name string) *PropertySet {
	if s := r.Lookup(name); s != nil {
		return s
	}
	s := &PropertySet{Name: name}
	r.sets = append(r.sets, s)
	if r.index != nil {
		r.index[name] = len(r.sets) - 1
	} else if len(r.sets) > indexFrom {
		r.index = make(map[string]int, 2*len(r.sets))
		for i, t := range r.sets {
			r.index[t.Name] = i
		}
	}
	return s
}

// Add adds p to the set called set (see Set and PropertySet.Add).
func (r *Registry) Add(set string, p Property) { r.Set(set).Add(p) }

// Lookup returns the set called name, or nil.
func (r *Registry) Lookup(name string) *PropertySet {
	if r.index != nil {
		if i, ok := r.index[name]; ok {
			return r.sets[i]
		}
		return nil
	}
	for _, s := range r.sets {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Sets returns the sets in order. The slice belongs to the registry.
func (r *Registry) Sets() []*PropertySet { return r.sets }

// Write writes r in the .prop format. It fails, writing nothing, when a name
// or value cannot be written so that Read gives it back.
func (r *Registry) Write(w io.Writer) error {
	for _, s := range r.sets {
		if strings.ContainsAny(s.Name, "\n\r\x00") {
			return fmt.Errorf("property set name %q cannot be written in a .prop file", s.Name)
		}
		for _, p := range s.props {
			if err := p.check(); err != nil {
				return err
			}
		}
	}
	size := 0
	for _, s := range r.sets {
		size += len(s.Name) + 3
		for _, p := range s.props {
			size += len(p.Name) + 14 + (len(p.Bytes)+2)/3*4
		}
	}
	b := make([]byte, 0, size)
	for _, s := range r.sets {
		b = append(b, '[')
		b = append(b, s.Name...)
		b = append(b, "]\n"...)
		for _, p := range s.props {
			b = append(b, p.Name...)
			b = append(b, '=')
			b = strconv.AppendUint(b, uint64(p.Type), 10)
			b = append(b, '|')
			if p.Type == TypeUint32 {
				b = strconv.AppendUint(b, uint64(p.Uint32), 10)
			} else {
				b = AppendBase64(b, p.Bytes)
			}
			b = append(b, '\n')
		}
	}
	_, err := w.Write(b)
	return err
}

// Error is an error in a .prop file, at a 1-based line and column (Line 0
// when it concerns the whole file).
type Error = diag.Error

// ReadFile reads the .prop file at path.
func ReadFile(path string) (*Registry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(path, f)
}

// Read parses a .prop file; file names it in errors. It accepts what LLVM's
// PropertySetRegistry::read accepts, with its messages: blank lines are
// skipped (a "\r\n" line end is accepted); "[name]" starts a set (the name
// runs to the last ']'; a set named twice continues the first); every other
// line is "name=type|value", split at the first '=' and the first '|'; a
// property named twice in a set keeps its first place and its last value. A
// file without any set is an error. Beyond LLVM, a uint32 value that does not
// fit in 32 bits and a byte array shorter than its bit count are errors
// rather than silently truncated or read out of bounds; data past the bit
// count is dropped, as LLVM does.
func Read(file string, r io.Reader) (*Registry, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), math.MaxInt32)
	reg := &Registry{}
	var cur *PropertySet
	line := 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if len(text) == 0 {
			continue
		}
		errAt := func(col int, format string, args ...any) error {
			return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
		}
		if text[0] == '[' {
			end := bytes.LastIndexByte(text, ']')
			if end < 0 {
				return nil, errAt(1, "invalid line: %s", text)
			}
			cur = reg.Set(string(text[1:end]))
			continue
		}
		if cur == nil {
			return nil, errAt(1, "property category missing")
		}
		name, typeVal, ok := bytes.Cut(text, []byte{'='})
		if !ok || len(name) == 0 || len(typeVal) == 0 {
			return nil, errAt(1, "invalid property line: %s", text)
		}
		typeCol := len(name) + 2
		typ, val, ok := bytes.Cut(typeVal, []byte{'|'})
		if !ok || len(typ) == 0 || len(val) == 0 {
			return nil, errAt(typeCol, "invalid property value: %s", typeVal)
		}
		valCol := typeCol + len(typ) + 1
		t, err := strconv.ParseUint(string(typ), 10, 32)
		if err != nil {
			return nil, errAt(typeCol, "invalid property type: %s", typ)
		}
		p := Property{Name: string(name), Type: Type(t)}
		switch p.Type {
		case TypeUint32:
			v, err := strconv.ParseUint(string(val), 10, 32)
			if err != nil {
				return nil, errAt(valCol, "invalid property value: %s", val)
			}
			p.Uint32 = uint32(v)
		case TypeByteArray:
			raw, err := Base64Decode(string(val))
			if err != nil {
				return nil, errAt(valCol, "%v", err)
			}
			if len(raw) < sizePrefix {
				return nil, errAt(valCol, "invalid property value: %s: byte array shorter than its 8-byte size prefix", val)
			}
			bits := binary.LittleEndian.Uint64(raw)
			need := bytesFor(bits)
			if uint64(len(raw)-sizePrefix) < need {
				return nil, errAt(valCol, "invalid property value: %s: %d bits announced, %d data bytes present", val, bits, len(raw)-sizePrefix)
			}
			p.Bytes = raw[:sizePrefix+need]
		default:
			return nil, errAt(typeCol, "bad property type %d", t)
		}
		cur.Add(p)
	}
	if err := sc.Err(); err != nil {
		return nil, &Error{File: file, Line: line + 1, Col: 1, Msg: err.Error()}
	}
	if cur == nil {
		return nil, &Error{File: file, Msg: "invalid property set registry"}
	}
	return reg, nil
}
