package wrapper

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
	"runtime"
	"strings"

	"github.com/sycbuild/sycbuild/internal/triple"
)

// arch is what the object depends on in the host architecture: the ELF
// machine, the relocation that stores a 64-bit address, and the code of a
// registration function.
type arch struct {
	name    string
	machine elf.Machine
	abs64   uint32 // relocation type: S + A into 8 bytes
	// tailCall appends to text a function that puts the address arg+argOff
	// in the first argument register and jumps to callee (a tail call, so
	// the callee returns straight to the function's caller), and returns its
	// offset and size.
	tailCall func(o *object, text *section, arg *section, argOff uint64, callee *symbol) (off, size uint64)
}

// funcAlign is the alignment of each registration function.
const funcAlign = 16

var x86_64 = &arch{
	name:    "x86_64",
	machine: elf.EM_X86_64,
	abs64:   uint32(elf.R_X86_64_64),
	tailCall: func(o *object, text *section, arg *section, argOff uint64, callee *symbol) (uint64, uint64) {
		code := []byte{
			0x48, 0x8d, 0x3d, 0, 0, 0, 0, // lea arg(%rip), %rdi
			0xe9, 0, 0, 0, 0, // jmp callee
		}
		off := text.appendBytes(code, funcAlign)
		// The displacements are relative to the end of their instruction,
		// 4 bytes past the field: hence the -4 addends.
		text.addReloc(off+3, uint32(elf.R_X86_64_PC32), o.sectionSymbol(arg), int64(argOff)-4)
		text.addReloc(off+8, uint32(elf.R_X86_64_PLT32), callee, -4)
		return off, uint64(len(code))
	},
}

var aarch64 = &arch{
	name:    "aarch64",
	machine: elf.EM_AARCH64,
	abs64:   uint32(elf.R_AARCH64_ABS64),
	tailCall: func(o *object, text *section, arg *section, argOff uint64, callee *symbol) (uint64, uint64) {
		var code []byte
		for _, insn := range []uint32{
			0x90000000, // adrp x0, arg
			0x91000000, // add  x0, x0, :lo12:arg
			0x14000000, // b    callee
		} {
			code = binary.LittleEndian.AppendUint32(code, insn)
		}
		off := text.appendBytes(code, funcAlign)
		argSym := o.sectionSymbol(arg)
		text.addReloc(off, uint32(elf.R_AARCH64_ADR_PREL_PG_HI21), argSym, int64(argOff))
		text.addReloc(off+4, uint32(elf.R_AARCH64_ADD_ABS_LO12_NC), argSym, int64(argOff))
		text.addReloc(off+8, uint32(elf.R_AARCH64_JUMP26), callee, 0)
		return off, uint64(len(code))
	},
}

// archForTriple returns the architecture of an ELF host triple such as
// x86_64-unknown-linux-gnu or aarch64-linux-gnu. Other architectures are
// "unsupported target triple", as in clang-offload-wrapper; hosts whose
// objects are not ELF (Windows, Apple) are refused as such.
func archForTriple(host string) (*arch, error) {
	parts := strings.Split(host, "-")
	var a *arch
	switch parts[0] {
	case "x86_64", "amd64", "x86_64h":
		a = x86_64
	case "aarch64", "arm64":
		a = aarch64
	default:
		return nil, fmt.Errorf("'%s': unsupported target triple", host)
	}
	if p := triple.NonELF(host); p != "" {
		return nil, fmt.Errorf("'%s': unsupported target triple: only ELF hosts are supported (the object file format of %q is not ELF)", host, p)
	}
	return a, nil
}

// DefaultHost is the triple used when none is given: the architecture this
// program runs on, on Linux (refused later if it is not one of the two).
func DefaultHost() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x86_64-unknown-linux-gnu"
	case "arm64":
		return "aarch64-unknown-linux-gnu"
	}
	return runtime.GOARCH + "-unknown-linux-gnu"
}
