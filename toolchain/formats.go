package toolchain

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/configs"
)

// The cheap format checks of what the external tools write. A tool that
// exits 0 may still have written something unusable (a compiler that ran
// out of disk space, a wrapper script that swallowed an error); sycbuild
// checks the first bytes of each output against its kind and fails the
// command instead of caching the file.

// A Check says why a file a tool wrote cannot be what the tool writes, or
// returns nil. head is the file's first bytes (all of them, or at least
// HeadBytes), size its size, and r reads the whole file: the builder
// opens each output once, to check it and hash it.
type Check = func(head []byte, size int64, r io.ReaderAt) error

// HeadBytes is how many first bytes a Check needs at most in head.
const HeadBytes = 4096

// OutputCheck returns the check of the files the tool role writes, or nil
// for a role that writes nothing or nothing with a known signature.
func OutputCheck(role configs.Tool) Check {
	switch role {
	case configs.ToolLLVMLink:
		return checkPrefix("LLVM IR text", []byte("; ModuleID = "))
	case configs.ToolLLVMAs:
		return checkBitcode
	case configs.ToolLLVMSPIRV:
		return checkSPIRV
	case configs.ToolOcloc:
		// One device: an ELF (zebin) object; several: ocloc's fat binary,
		// an ar archive of them.
		return checkOcloc
	case configs.ToolLLC:
		return checkPTX
	case configs.ToolPtxas:
		return checkELF
	case configs.ToolFatbinary:
		return checkFatbin
	case configs.ToolLLD:
		return checkELF
	case configs.ToolBundler:
		return checkPrefix("a clang-offload-bundler bundle", []byte(bundleMagic))
	}
	return nil
}

// CheckFile runs check on the file at path.
func CheckFile(check Check, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	head := make([]byte, min(fi.Size(), HeadBytes))
	if _, err := io.ReadFull(f, head); err != nil {
		return &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return check(head, fi.Size(), f)
}

// describe shows a file's first bytes in a message.
func describe(b []byte) string {
	if len(b) > 8 {
		b = b[:8]
	}
	return fmt.Sprintf("it starts with % x", b)
}

func checkPrefix(what string, magics ...[]byte) Check {
	return func(b []byte, _ int64, _ io.ReaderAt) error {
		for _, m := range magics {
			if bytes.HasPrefix(b, m) {
				return nil
			}
		}
		return fmt.Errorf("not %s (%s)", what, describe(b))
	}
}

// checkBitcode accepts LLVM bitcode and its wrapper header.
func checkBitcode(b []byte, _ int64, _ io.ReaderAt) error {
	if bytes.HasPrefix(b, []byte("BC\xc0\xde")) || bytes.HasPrefix(b, []byte{0xde, 0xc0, 0x17, 0x0b}) {
		return nil
	}
	return fmt.Errorf("not LLVM bitcode (%s)", describe(b))
}

// checkSPIRV accepts a SPIR-V module in either byte order with a whole
// header (five words).
func checkSPIRV(b []byte, _ int64, _ io.ReaderAt) error {
	if len(b) >= 20 {
		if m := binary.LittleEndian.Uint32(b); m == 0x07230203 || m == 0x03022307 {
			return nil
		}
	}
	return fmt.Errorf("not a SPIR-V module (%s)", describe(b))
}

// checkPTX accepts text holding a PTX .version directive near its start.
func checkPTX(b []byte, _ int64, _ io.ReaderAt) error {
	b = b[:min(len(b), HeadBytes)]
	if bytes.Contains(b, []byte(".version ")) && bytes.IndexByte(b, 0) < 0 {
		return nil
	}
	return fmt.Errorf("not PTX (no .version directive in its first %d bytes)", len(b))
}

// ResponseFiles reports whether the tool role reads arguments from
// "@file" (LLVM's tools do, through their command-line library).
func ResponseFiles(role configs.Tool) bool {
	switch role {
	case configs.ToolLLVMLink, configs.ToolLLVMAs, configs.ToolLLVMSPIRV, configs.ToolLLC:
		return true
	}
	return false
}

// checkELF accepts a 64-bit little-endian ELF file long enough to hold the
// section header table its header places (last, as linkers and compilers
// write it): a file cut short by a full disk fails.
func checkELF(b []byte, size int64, _ io.ReaderAt) error {
	if !bytes.HasPrefix(b, []byte("\x7fELF")) {
		return fmt.Errorf("not an ELF object (%s)", describe(b))
	}
	if len(b) < 64 || b[4] != 2 || b[5] != 1 {
		return fmt.Errorf("not a 64-bit little-endian ELF object")
	}
	return checkSize(size, binary.LittleEndian.Uint64(b[0x28:])+uint64(binary.LittleEndian.Uint16(b[0x3c:]))*uint64(binary.LittleEndian.Uint16(b[0x3a:])))
}

// checkSize fails when size is less than want bytes.
func checkSize(size int64, want uint64) error {
	if uint64(size) < want {
		return fmt.Errorf("truncated: %d bytes, its header describes %d", size, want)
	}
	return nil
}

// checkOcloc accepts an ELF object, or an ar archive whose members are
// all there.
func checkOcloc(b []byte, size int64, r io.ReaderAt) error {
	if !bytes.HasPrefix(b, []byte("!<arch>\n")) {
		if bytes.HasPrefix(b, []byte("\x7fELF")) {
			return checkELF(b, size, r)
		}
		return fmt.Errorf("not an ELF object or an ocloc fat binary (%s)", describe(b))
	}
	// Members: a 60-byte header whose bytes 48..58 are the size in
	// decimal, then the data, padded to an even offset.
	var hdr [60]byte
	for off := int64(8); off < size; {
		if _, err := r.ReadAt(hdr[:], off); err != nil {
			return fmt.Errorf("truncated archive member header at byte %d", off)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(hdr[48:58])), 10, 64)
		if err != nil || n < 0 || string(hdr[58:60]) != "`\n" {
			return fmt.Errorf("bad archive member header at byte %d", off)
		}
		off += 60 + n + n%2
		if off > size+1 {
			return fmt.Errorf("truncated: an archive member runs past the end (%d bytes)", size)
		}
	}
	return nil
}

// checkFatbin accepts a CUDA fat binary as long as its header says:
// magic 0xBA55ED50, version (2 bytes), header size (2), then the size of
// what follows the header (8).
func checkFatbin(b []byte, size int64, _ io.ReaderAt) error {
	if len(b) < 16 || binary.LittleEndian.Uint32(b) != 0xba55ed50 {
		return fmt.Errorf("not a CUDA fat binary (%s)", describe(b))
	}
	return checkSize(size, uint64(binary.LittleEndian.Uint16(b[6:]))+binary.LittleEndian.Uint64(b[8:]))
}
