package bitcode

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestIs(t *testing.T) {
	for _, c := range []struct {
		data string
		want bool
	}{
		{"BC\xc0\xde\x35\x14", true},
		{"\xde\xc0\x17\x0b\x00\x00\x00\x00", true},
		{"; ModuleID", false},
		{"BC", false},
		{"", false},
	} {
		if got := Is([]byte(c.data)); got != c.want {
			t.Errorf("Is(%q) = %v, want %v", c.data, got, c.want)
		}
	}
}

func TestInfo(t *testing.T) {
	for _, c := range []struct{ file, producer string }{
		{"small_14.bc", "LLVM14"},
		{"small_15.bc", "LLVM15"},
		{"small_19.bc", "LLVM19"},
		{"small_22.bc", "LLVM22"},
	} {
		data, err := os.ReadFile("testdata/seed/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		p, triple, err := Info(data)
		if err != nil || !strings.HasPrefix(p, c.producer) || triple != "x86_64-pc-linux-gnu" {
			t.Errorf("Info(%s) = %q, %q, %v", c.file, p, triple, err)
		}
	}
}

// Damaged inputs fail with a positioned *Error, never a panic.
func TestErrors(t *testing.T) {
	good, err := os.ReadFile("testdata/seed/small_19.bc")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "k.bc: byte 0: not LLVM bitcode"},
		{"zeros", make([]byte, 32), "k.bc: byte 0: not LLVM bitcode"},
		{"magic only", []byte("BC\xc0\xde"), "no module"},
		{"truncated", good[:len(good)/2], "k.bc: byte "},
		{"wrapper past the end", []byte("\xde\xc0\x17\x0b\x00\x00\x00\x00\x14\x00\x00\x00\xff\xff\x00\x00\x00\x00\x00\x00"), "wrapper offset"},
	}
	for _, c := range cases {
		_, err := Disassemble("k.bc", c.data)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an *Error containing %q", c.name, err, c.want)
		}
	}
	// Flip each byte of a real module in turn: every outcome is either
	// text or an *Error.
	for i := 0; i < len(good); i += 7 {
		b := append([]byte(nil), good...)
		b[i] ^= 0x5a
		if _, err := Disassemble("k.bc", b); err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("byte %d flipped: %T %v", i, err, err)
			}
		}
	}
}

// An unknown record code names the block and the code.
func TestUnknownRecord(t *testing.T) {
	e := &Error{File: "k.bc", Offset: 1234, Block: "FUNCTION_BLOCK", Code: 77, Msg: "unknown record code 77"}
	if got, want := e.Error(), "k.bc: byte 1234: in FUNCTION_BLOCK: unknown record code 77"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
