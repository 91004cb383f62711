package props

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// emitProgramMetadata is the .prop file of sycl-post-link's
// emit_program_metadata.ll test (version A).
const emitProgramMetadata = `[SYCL/devicelib req mask]
DeviceLibReqMask=1|0
[SYCL/device requirements]
aspects=2|AAAAAAAAAAA
[SYCL/program metadata]
SpirKernel1@reqd_work_group_size=2|gBAAAAAAAAQAAAAACAAAAQAAAAA
SpirKernel2@reqd_work_group_size=2|ABAAAAAAAAgAAAAAEAAAAA
SpirKernel3@reqd_work_group_size=2|gAAAAAAAAAABAAAA
`

func TestReadWriteRoundTrip(t *testing.T) {
	reg, err := Read("x.prop", strings.NewReader(emitProgramMetadata))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range reg.Sets() {
		names = append(names, s.Name)
	}
	if want := []string{"SYCL/devicelib req mask", "SYCL/device requirements", "SYCL/program metadata"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("sets %q, want %q", names, want)
	}
	p, ok := reg.Lookup("SYCL/program metadata").Get("SpirKernel1@reqd_work_group_size")
	if !ok || p.Type != TypeByteArray || p.BitCount() != 96 || !bytes.Equal(p.Data(), u32s(1, 2, 4)) {
		t.Errorf("SpirKernel1: %+v", p)
	}
	if p, _ := reg.Lookup("SYCL/devicelib req mask").Get("DeviceLibReqMask"); p.Type != TypeUint32 || p.Uint32 != 0 {
		t.Errorf("DeviceLibReqMask: %+v", p)
	}
	var out bytes.Buffer
	if err := reg.Write(&out); err != nil {
		t.Fatal(err)
	}
	if out.String() != emitProgramMetadata {
		t.Errorf("written:\n%s\nwant:\n%s", out.String(), emitProgramMetadata)
	}
}

func TestBuildAndWrite(t *testing.T) {
	var reg Registry
	reg.Add("SYCL/devicelib req mask", NewUint32("DeviceLibReqMask", 0x22))
	reg.Add("SYCL/device requirements", NewUint32Array("aspects", []uint32{1, 6, 9, 12}))
	reg.Add("SYCL/misc properties", NewString("sanUsed", "asan"))
	reg.Add("SYCL/kernel param opt", NewBitArray("k", 2, []byte{1}))
	reg.Add("SYCL/device requirements", NewUint64Array("reqd_work_group_size_uint64_t", []uint64{4}))
	reg.Add("SYCL/implicit local arg", NewUint32("k", 4294967295))
	// Re-adding keeps the first place and takes the new value.
	reg.Add("SYCL/devicelib req mask", NewUint32("DeviceLibReqMask", 1))
	var out bytes.Buffer
	if err := reg.Write(&out); err != nil {
		t.Fatal(err)
	}
	want := `[SYCL/devicelib req mask]
DeviceLibReqMask=1|1
[SYCL/device requirements]
aspects=2|ACAAAAAAAAQAAAAAGAAAAkAAAAADAAAA
reqd_work_group_size_uint64_t=2|ABAAAAAAAAABAAAAAAAAAA
[SYCL/misc properties]
sanUsed=2|gAAAAAAAAAQYzFmb
[SYCL/kernel param opt]
k=2|CAAAAAAAAAQA
[SYCL/implicit local arg]
k=1|4294967295
`
	// aspects and k are literals of sycl-post-link's tests; the u64 array and
	// the string were encoded by a separate implementation of LLVM's Base64.
	if out.String() != want {
		t.Errorf("written:\n%s\nwant:\n%s", out.String(), want)
	}
	back, err := Read("b.prop", &out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(dump(back), dump(&reg)) {
		t.Errorf("read back %v, want %v", dump(back), dump(&reg))
	}
}

// dump flattens a registry for comparison.
func dump(r *Registry) []string {
	var out []string
	for _, s := range r.Sets() {
		out = append(out, "["+s.Name+"]")
		for _, p := range s.Properties() {
			out = append(out, fmt.Sprintf("%s=%d|%d|%x", p.Name, p.Type, p.Uint32, p.Bytes))
		}
	}
	return out
}

func TestReadQuirks(t *testing.T) {
	in := "\n[A]\r\nx=1|7\n\n[B] trailing]ignored\ny=2|AAAAAAAAAAA\n[A]\nx=1|8\nz=1|009\n"
	reg, err := Read("q.prop", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	got := dump(reg)
	want := []string{
		"[A]", "x=1|8|", "z=1|9|",
		"[B] trailing]", "y=2|0|0000000000000000",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// Data past the announced bit count is dropped (LLVM copies only
	// 8+⌈bits/8⌉ bytes).
	long := Base64Encode(append(EncodeByteArray([]byte{5}), 9, 9))
	reg, err = Read("l.prop", strings.NewReader("[S]\nv=2|"+long+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := reg.Lookup("S").Get("v"); !bytes.Equal(p.Bytes, EncodeByteArray([]byte{5})) {
		t.Errorf("long value kept as %x", p.Bytes)
	}
}

func TestReadErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "e.prop: invalid property set registry"},
		{"\n\n", "e.prop: invalid property set registry"},
		{"x=1|2\n", "e.prop:1:1: property category missing"},
		{"[A\n", "e.prop:1:1: invalid line: [A"},
		{"[A]\nnovalue\n", "e.prop:2:1: invalid property line: novalue"},
		{"[A]\n=1|2\n", "e.prop:2:1: invalid property line: =1|2"},
		{"[A]\nx=\n", "e.prop:2:1: invalid property line: x="},
		{"[A]\nx=12\n", "e.prop:2:3: invalid property value: 12"},
		{"[A]\nx=|5\n", "e.prop:2:3: invalid property value: |5"},
		{"[A]\nx=1|\n", "e.prop:2:3: invalid property value: 1|"},
		{"[A]\nx=u|5\n", "e.prop:2:3: invalid property type: u"},
		{"[A]\nx=-1|5\n", "e.prop:2:3: invalid property type: -1"},
		{"[A]\nx=0|5\n", "e.prop:2:3: bad property type 0"},
		{"[A]\nx=3|abc\n", "e.prop:2:3: bad property type 3"},
		{"[A]\nxy=1|true\n", "e.prop:2:6: invalid property value: true"},
		{"[A]\nxy=1|-1\n", "e.prop:2:6: invalid property value: -1"},
		{"[A]\nxy=1|4294967296\n", "e.prop:2:6: invalid property value: 4294967296"},
		{"[A]\n\nx=2|AAAAA\n", "e.prop:3:5: invalid encoded sequence length"},
		{"[A]\nx=2|AA=A\n", "e.prop:2:5: invalid char in Base64Impl encoding: 0x3D"},
		{"[A]\nx=2|AAAA\n", "e.prop:2:5: invalid property value: AAAA: byte array shorter than its 8-byte size prefix"},
		{"[A]\nx=2|gAAAAAAAAAA\n", "e.prop:2:5: invalid property value: gAAAAAAAAAA: 32 bits announced, 0 data bytes present"},
	}
	for _, c := range cases {
		_, err := Read("e.prop", strings.NewReader(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("Read(%q) error = %v\nwant %q", c.in, err, c.want)
		}
	}
}

func TestWriteRefusesUnreadable(t *testing.T) {
	cases := []struct {
		set  string
		p    Property
		want string
	}{
		{"S", NewUint32("", 1), "property with an empty name"},
		{"S", NewUint32("a=b", 1), `property name "a=b" cannot be written in a .prop file`},
		{"S", NewUint32("[a", 1), `property name "[a" cannot be written in a .prop file`},
		{"S", NewUint32("a\x00b", 1), `property name "a\x00b" cannot be written in a .prop file`},
		{"S", NewUint32("a\rb", 1), `property name "a\rb" cannot be written in a .prop file`},
		{"S\nT", NewUint32("a", 1), `property set name "S\nT" cannot be written in a .prop file`},
		{"S", Property{Name: "a", Type: TypeByteArray, Bytes: []byte{1}}, "property a: byte array of 1 bytes has no 8-byte size prefix"},
		{"S", Property{Name: "a", Type: TypeByteArray, Bytes: EncodeByteArray([]byte{1})[:8]}, "property a: byte array holds 0 data bytes, its size prefix says 8 bits"},
		{"S", Property{Name: "a", Type: 3}, "property a: unsupported property type: 3"},
	}
	for _, c := range cases {
		var reg Registry
		reg.Add("ok", NewUint32("fine", 1))
		reg.Add(c.set, c.p)
		var out bytes.Buffer
		err := reg.Write(&out)
		if err == nil || err.Error() != c.want {
			t.Errorf("Write(%q, %+v) error = %v, want %q", c.set, c.p, err, c.want)
		}
		if out.Len() != 0 {
			t.Errorf("Write(%q, %+v) wrote %q before failing", c.set, c.p, out.String())
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(emitProgramMetadata))
	f.Add([]byte("[A]\r\nx=1|7\n[B]]\ny=2|CAAAAAAAAAQA\n"))
	f.Add([]byte("[A]\nx=2|AAAAA\n"))
	f.Add([]byte("[A]\nx=2|" + Base64Encode([]byte{255, 255, 255, 255, 255, 255, 255, 255}) + "\n")) // 2^64-1 bits
	f.Fuzz(func(t *testing.T, in []byte) {
		reg, err := Read("f.prop", bytes.NewReader(in))
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		var out bytes.Buffer
		if err := reg.Write(&out); err != nil {
			t.Fatalf("a registry read from %q cannot be written: %v", in, err)
		}
		back, err := Read("g.prop", bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("written form %q does not read back: %v", out.Bytes(), err)
		}
		if !reflect.DeepEqual(dump(back), dump(reg)) {
			t.Fatalf("round trip changed %q into %q", dump(reg), dump(back))
		}
	})
}

func TestReadBitCountOverflow(t *testing.T) {
	// 2^64-1 bits: (bits+7)/8 wraps to 0, which no data bytes satisfy.
	for _, bits := range []uint64{1<<64 - 1, 1<<64 - 8, 1 << 63} {
		raw := binary.LittleEndian.AppendUint64(nil, bits)
		in := "[S]\na=2|" + Base64Encode(raw) + "\n"
		_, err := Read("f.prop", strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), "bits announced") {
			t.Errorf("Read(%d bits, no data) = %v, want an error", bits, err)
		}
	}
	if got := bytesFor(1<<64 - 1); got != 1<<61 {
		t.Errorf("bytesFor(2^64-1) = %d", got)
	}
}

// TestManyNames adds more sets and properties than are looked up by going
// through the list: names are found, re-adding one keeps its place, and
// order is insertion order, on both sides of the switch to the index.
func TestManyNames(t *testing.T) {
	var reg Registry
	const n = 3 * indexFrom
	for i := 0; i < n; i++ {
		set := fmt.Sprintf("set%d", i)
		for j := 0; j < n; j++ {
			reg.Add(set, NewUint32(fmt.Sprintf("p%d", j), uint32(j)))
		}
	}
	for i := 0; i < n; i += 5 {
		for j := 0; j < n; j += 3 {
			reg.Add(fmt.Sprintf("set%d", i), NewUint32(fmt.Sprintf("p%d", j), uint32(1000+j)))
		}
	}
	if got := len(reg.Sets()); got != n {
		t.Fatalf("%d sets, want %d", got, n)
	}
	for i, s := range reg.Sets() {
		if want := fmt.Sprintf("set%d", i); s.Name != want || reg.Lookup(want) != s {
			t.Fatalf("set %d is %q (lookup %p, want %p)", i, s.Name, reg.Lookup(want), s)
		}
		if s.Len() != n {
			t.Fatalf("%s: %d properties, want %d", s.Name, s.Len(), n)
		}
		for j, p := range s.Properties() {
			want := uint32(j)
			if i%5 == 0 && j%3 == 0 {
				want += 1000
			}
			q, ok := s.Get(fmt.Sprintf("p%d", j))
			if p.Name != fmt.Sprintf("p%d", j) || p.Uint32 != want || !ok || q.Name != p.Name || q.Uint32 != p.Uint32 {
				t.Fatalf("%s: property %d is %s=%d (get %v %v), want p%d=%d", s.Name, j, p.Name, p.Uint32, q, ok, j, want)
			}
		}
		if _, ok := s.Get("none"); ok {
			t.Fatalf("%s: Get found a property never added", s.Name)
		}
	}
	if reg.Lookup("none") != nil {
		t.Fatal("Lookup found a set never added")
	}
}
