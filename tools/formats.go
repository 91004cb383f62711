package tools

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/sycbuild/sycbuild/configs"
)

// The cheap format checks of what the external tools write. A tool that
// exits 0 may still have written something unusable (a compiler that ran
// out of disk space, a wrapper script that swallowed an error); sycbuild
// checks the first bytes of each output against its kind and fails the
// command instead of caching the file.

// OutputCheck returns the check of the files the tool role writes, or nil
// for a role that writes nothing or nothing with a known signature.
func OutputCheck(role configs.Tool) func(path string) error {
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
	}
	return nil
}

// head returns up to n first bytes of the file at path.
func head(path string, n int) ([]byte, error) {
	// Plain system calls: os.Open would also try (and, for a regular file,
	// fail) to register the file with the network poller, four fcntl and
	// an epoll_ctl for a check made on every output of a build.
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	b := make([]byte, n)
	m := 0
	for m < n {
		k, err := syscall.Read(fd, b[m:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if k == 0 {
			break
		}
		m += k
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
func checkELF(path string) error {
	b, err := head(path, 64)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(b, []byte("\x7fELF")) {
		return fmt.Errorf("not an ELF object (%s)", describe(b))
	}
	if len(b) < 64 || b[4] != 2 || b[5] != 1 {
		return fmt.Errorf("not a 64-bit little-endian ELF object")
	}
	return checkSize(path, binary.LittleEndian.Uint64(b[0x28:])+uint64(binary.LittleEndian.Uint16(b[0x3c:]))*uint64(binary.LittleEndian.Uint16(b[0x3a:])))
}

// checkSize fails when the file at path is shorter than want bytes.
func checkSize(path string, want uint64) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if uint64(fi.Size()) < want {
		return fmt.Errorf("truncated: %d bytes, its header describes %d", fi.Size(), want)
	}
	return nil
}

// checkOcloc accepts an ELF object, or an ar archive whose members are
// all there.
func checkOcloc(path string) error {
	b, err := head(path, 8)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(b, []byte("!<arch>\n")) {
		if bytes.HasPrefix(b, []byte("\x7fELF")) {
			return checkELF(path)
		}
		return fmt.Errorf("not an ELF object or an ocloc fat binary (%s)", describe(b))
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	// Members: a 60-byte header whose bytes 48..58 are the size in
	// decimal, then the data, padded to an even offset.
	var hdr [60]byte
	for off := int64(8); off < fi.Size(); {
		if _, err := f.ReadAt(hdr[:], off); err != nil {
			return fmt.Errorf("truncated archive member header at byte %d", off)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(hdr[48:58])), 10, 64)
		if err != nil || n < 0 || string(hdr[58:60]) != "`\n" {
			return fmt.Errorf("bad archive member header at byte %d", off)
		}
		off += 60 + n + n%2
		if off > fi.Size()+1 {
			return fmt.Errorf("truncated: an archive member runs past the end (%d bytes)", fi.Size())
		}
	}
	return nil
}

// checkFatbin accepts a CUDA fat binary as long as its header says:
// magic 0xBA55ED50, version (2 bytes), header size (2), then the size of
// what follows the header (8).
func checkFatbin(path string) error {
	b, err := head(path, 16)
	if err != nil {
		return err
	}
	if len(b) < 16 || binary.LittleEndian.Uint32(b) != 0xba55ed50 {
		return fmt.Errorf("not a CUDA fat binary (%s)", describe(b))
	}
	return checkSize(path, uint64(binary.LittleEndian.Uint16(b[6:]))+binary.LittleEndian.Uint64(b[8:]))
}
