package tools

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// The cheap format checks of what the external tools write. A tool that
// exits 0 may still have written something unusable (a compiler that ran
// out of disk space, a wrapper script that swallowed an error); sycbuild
// checks the first bytes of each output against its kind and fails the
// command instead of caching the file.

// OutputCheck returns the check of the files the tool role writes, or nil
// for a role that writes nothing or nothing with a known signature.
func OutputCheck(role string) func(path string) error {
	switch role {
	case "llvm-link", "llvm-dis":
		return checkPrefix("LLVM IR text", []byte("; ModuleID = "))
	case "llvm-as":
		return checkBitcode
	case "llvm-spirv":
		return checkSPIRV
	case "ocloc":
		// One device: an ELF (zebin) object; several: ocloc's fat binary,
		// an ar archive.
		return checkPrefix("an ELF object or an ocloc fat binary", []byte("\x7fELF"), []byte("!<arch>\n"))
	case "llc":
		return checkPTX
	case "ptxas":
		return checkPrefix("an ELF object (cubin)", []byte("\x7fELF"))
	case "fatbinary":
		return checkPrefix("a CUDA fat binary", []byte{0x50, 0xed, 0x55, 0xba}) // 0xBA55ED50, little-endian
	}
	return nil
}

// head returns up to n first bytes of the file at path.
func head(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	m, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:m], nil
}

// describe shows a file's first bytes in a message.
func describe(b []byte) string {
	if len(b) > 8 {
		b = b[:8]
	}
	return fmt.Sprintf("it starts with % x", b)
}

func checkPrefix(what string, magics ...[]byte) func(string) error {
	return func(path string) error {
		b, err := head(path, 16)
		if err != nil {
			return err
		}
		for _, m := range magics {
			if bytes.HasPrefix(b, m) {
				return nil
			}
		}
		return fmt.Errorf("not %s (%s)", what, describe(b))
	}
}

// checkBitcode accepts LLVM bitcode and its wrapper header.
func checkBitcode(path string) error {
	b, err := head(path, 4)
	if err != nil {
		return err
	}
	if bytes.Equal(b, []byte("BC\xc0\xde")) || bytes.Equal(b, []byte{0xde, 0xc0, 0x17, 0x0b}) {
		return nil
	}
	return fmt.Errorf("not LLVM bitcode (%s)", describe(b))
}

// checkSPIRV accepts a SPIR-V module in either byte order with a whole
// header (five words).
func checkSPIRV(path string) error {
	b, err := head(path, 20)
	if err != nil {
		return err
	}
	if len(b) == 20 {
		if m := binary.LittleEndian.Uint32(b); m == 0x07230203 || m == 0x03022307 {
			return nil
		}
	}
	return fmt.Errorf("not a SPIR-V module (%s)", describe(b))
}

// checkPTX accepts text holding a PTX .version directive near its start.
func checkPTX(path string) error {
	b, err := head(path, 4096)
	if err != nil {
		return err
	}
	if bytes.Contains(b, []byte(".version ")) && bytes.IndexByte(b, 0) < 0 {
		return nil
	}
	return fmt.Errorf("not PTX (no .version directive in its first %d bytes)", len(b))
}

// ResponseFiles reports whether the tool role reads arguments from
// "@file" (LLVM's tools do, through their command-line library).
func ResponseFiles(role string) bool {
	switch role {
	case "llvm-link", "llvm-dis", "llvm-as", "llvm-spirv", "llc":
		return true
	}
	return false
}
