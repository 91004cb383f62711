package offloadbin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func sample() []*Image {
	return []*Image{
		{ImageKind: ImageObject, OffloadKind: OffloadSYCL, Strings: []String{
			{"triple", "spirv64"}, {"arch", "pvc"}, {"symbols", "_ZTS1A\n_ZTS1B"},
		}, Data: []byte("twelve bytes")},
		{ImageKind: ImageBitcode, OffloadKind: OffloadOpenMP, Flags: 1, Strings: []String{
			{"triple", "nvptx64"}, {"arch", ""}, {"foo", "bar"},
		}, Data: []byte{1, 2, 3}},
		{OffloadKind: OffloadCUDA},
	}
}

func TestRoundTrip(t *testing.T) {
	in := sample()
	b, err := Marshal(in...)
	if err != nil {
		t.Fatal(err)
	}
	if len(b)%Alignment != 0 {
		t.Errorf("size %d is not a multiple of %d", len(b), Alignment)
	}
	out, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range in {
		if im.Data == nil {
			im.Data = []byte{}
		}
		if im.Strings == nil {
			im.Strings = []String{}
		}
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("read back\n%+v\nwant\n%+v", out, in)
	}
	again, err := Marshal(out...)
	if err != nil || !bytes.Equal(again, b) {
		t.Errorf("writing what was read changes the bytes (err %v)", err)
	}
}

// TestLayout checks the layout of a binary field by field, against the
// one llvm-offload-binary-22 writes for the same image (see the oracle
// test for the byte comparison with the tool itself).
func TestLayout(t *testing.T) {
	im := &Image{OffloadKind: OffloadSYCL, Strings: []String{{"triple", "spirv64"}, {"arch", "pvc"}}, Data: []byte("hello world!")}
	b, err := Marshal(im)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	for _, c := range []struct {
		what     string
		off      int
		got, exp uint64
	}{
		{"version", 4, uint64(le.Uint32(b[4:])), 1},
		{"size", 8, le.Uint64(b[8:]), 0x98},
		{"entry offset", 16, le.Uint64(b[16:]), 32},
		{"entry size", 24, le.Uint64(b[24:]), 40},
		{"offload kind", 34, uint64(le.Uint16(b[34:])), 8},
		{"string offset", 40, le.Uint64(b[40:]), 72},
		{"strings", 48, le.Uint64(b[48:]), 2},
		{"image offset", 56, le.Uint64(b[56:]), 0x88},
		{"image size", 64, le.Uint64(b[64:]), 12},
		{"key triple", 72, le.Uint64(b[72:]), 0x6e},
		{"value spirv64", 80, le.Uint64(b[80:]), 0x79},
		{"key arch", 88, le.Uint64(b[88:]), 0x69},
		{"value pvc", 96, le.Uint64(b[96:]), 0x75},
	} {
		if c.got != c.exp {
			t.Errorf("%s (offset %d) = %#x, want %#x", c.what, c.off, c.got, c.exp)
		}
	}
	if tab := string(b[0x68:0x81]); tab != "\x00arch\x00triple\x00pvc\x00spirv64\x00" {
		t.Errorf("string table %q", tab)
	}
}

// TestStringTable checks the tail sharing and order of LLVM's
// StringTableBuilder.
func TestStringTable(t *testing.T) {
	im := &Image{Strings: []String{{"arch", "search"}, {"ch", ""}, {"zz", "arch"}}}
	offs, tab := im.strtab()
	// Reversed, descending: "zz", "hcraes", "hcra", "hc", then "".
	if want := "\x00zz\x00search\x00"; string(tab) != want {
		t.Fatalf("table %q, want %q", tab, want)
	}
	for s, want := range map[string]uint64{"zz": 1, "search": 4, "arch": 6, "ch": 8, "": 0} {
		if offs[s] != want {
			t.Errorf("offset of %q = %d, want %d", s, offs[s], want)
		}
	}
}

func TestMarshalErrors(t *testing.T) {
	for _, c := range []struct {
		im   Image
		want string
	}{
		{Image{Strings: []String{{"a", "1"}, {"a", "2"}}}, `duplicate key "a"`},
		{Image{Strings: []String{{"a\x00b", "1"}}}, "holds a NUL"},
		{Image{Strings: []String{{"a", "x\x00"}}}, `value of "a" holds a NUL`},
	} {
		if _, err := Marshal(&c.im); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.im, err, c.want)
		}
	}
}

func TestReadErrors(t *testing.T) {
	good, err := Marshal(sample()[0])
	if err != nil {
		t.Fatal(err)
	}
	two, _ := Marshal(sample()[:2]...)
	put64 := func(at int, v uint64) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint64(b[at:], v)
		return b
	}
	// A binary that ends with its image, "twelve bytes", with no padding
	// after it, and whose first value is that image.
	imgOff := binary.LittleEndian.Uint64(good[56:])
	unterminated := put64(8, imgOff+12)[:imgOff+12]
	binary.LittleEndian.PutUint64(unterminated[80:], imgOff)
	for _, c := range []struct {
		name string
		b    []byte
		off  uint64
		msg  string
	}{
		{"short", good[:20], 0, "too few for an OffloadBinary header"},
		{"magic", append([]byte("\x7fELF"), good[4:]...), 0, "no OffloadBinary magic"},
		{"version", append(append([]byte(Magic), 2, 0, 0, 0), good[8:]...), 4, "unsupported OffloadBinary version 2"},
		{"size too big", put64(8, uint64(len(good))+8), 8, "binary size"},
		{"size too small", put64(8, 16), 8, "binary size"},
		{"entry offset", put64(16, uint64(len(good))), 16, "entry offset"},
		{"entry size", put64(24, 48), 24, "entry size 48"},
		{"strings", put64(48, 1<<62), 40, "string entries"},
		{"image", put64(64, 1<<63), 56, "image of"},
		{"key offset", put64(72, uint64(len(good))), 72, "key offset"},
		{"value unterminated", unterminated, imgOff, "value is not NUL-terminated"},
		{"duplicate", put64(88, binary.LittleEndian.Uint64(good[72:])), 88, `duplicate key "triple"`},
		{"second binary", append(bytes.Clone(two), 1, 2, 3), uint64(len(two)), "too few"},
		{"trailing zeros", append(bytes.Clone(good), make([]byte, 40)...), uint64(len(good)), "no OffloadBinary magic"},
	} {
		_, err := Read(c.b)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: error %v, want an *Error", c.name, err)
			continue
		}
		if e.Offset != c.off || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: %v, want offset %d and %q", c.name, err, c.off, c.msg)
		}
	}
}

func TestSYCLImage(t *testing.T) {
	im, err := SYCLImage(ImageNone, "spirv64", "", []string{"_ZTS1A", "_ZTS1B"}, "", []byte{3, 2, 0x23, 7})
	if err != nil {
		t.Fatal(err)
	}
	want := []String{{"triple", "spirv64"}, {"arch", ""}, {"symbols", "_ZTS1A\n_ZTS1B"}}
	if !reflect.DeepEqual(im.Strings, want) || im.OffloadKind != OffloadSYCL {
		t.Errorf("got %+v", im)
	}
	if got := im.Symbols(); !reflect.DeepEqual(got, []string{"_ZTS1A", "_ZTS1B"}) {
		t.Errorf("Symbols() = %q", got)
	}
	if _, err := SYCLImage(ImageNone, "spirv64", "", []string{"a\nb"}, "", nil); err == nil {
		t.Error("a symbol with a newline was accepted")
	}
	im, _ = SYCLImage(ImageNone, "spirv64", "pvc", nil, "[SYCL/kernel param opt]\n", nil)
	if v, _ := im.Get(KeyProperties); v != "[SYCL/kernel param opt]\n" {
		t.Errorf("properties = %q", v)
	}
}

func FuzzRead(f *testing.F) {
	b, _ := Marshal(sample()...)
	f.Add(b)
	f.Add(b[:HeaderSize+EntrySize])
	f.Add([]byte(Magic + "\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		images, err := Read(b)
		if err != nil {
			return
		}
		// What was read can be written, and reads back the same.
		out, err := Marshal(images...)
		if err != nil {
			t.Fatalf("Marshal of what Read returned: %v", err)
		}
		again, err := Read(out)
		if err != nil {
			t.Fatalf("Read of Marshal's output: %v", err)
		}
		if len(again) != len(images) {
			t.Fatalf("%d images, then %d", len(images), len(again))
		}
		for i := range images {
			if !reflect.DeepEqual(images[i].Strings, again[i].Strings) || !bytes.Equal(images[i].Data, again[i].Data) {
				t.Fatalf("image %d changed", i)
			}
		}
	})
}

// TestHeader checks that Header's bytes, the image and the padding make
// exactly what Marshal writes.
func TestHeader(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 13, 4096} {
		data := bytes.Repeat([]byte{0xa5}, n)
		im, err := SYCLImage(ImageNone, "spirv64-unknown-unknown", "", []string{"k1", "k2"}, "[SYCL/misc properties]\n", data)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Marshal(im)
		if err != nil {
			t.Fatal(err)
		}
		h, size, err := im.Header(uint64(n))
		if err != nil {
			t.Fatal(err)
		}
		got := append(append(h, data...), make([]byte, int(size)-len(h)-n)...)
		if !bytes.Equal(got, want) {
			t.Errorf("%d-byte image: Header+image+padding differs from Marshal", n)
		}
	}
}
