package bitcode

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a malformed or unsupported bitcode input. Its message names the
// file, the byte offset of the record (or block) at fault, the enclosing
// block and, for records, the record code:
//
//	k.bc: byte 1234: in FUNCTION_BLOCK: unknown record code 77
type Error struct {
	File   string // the file name given to Disassemble
	Offset int64  // byte offset in the file; -1 when not known
	Block  string // enclosing block ("FUNCTION_BLOCK"); "" at top level
	Code   int64  // record code; -1 when the error is not about a record
	Msg    string
}

func (e *Error) Error() string {
	var parts []string
	if e.File != "" {
		parts = append(parts, e.File)
	}
	if e.Offset >= 0 {
		parts = append(parts, "byte "+strconv.FormatInt(e.Offset, 10))
	}
	if e.Block != "" {
		parts = append(parts, "in "+e.Block)
	}
	msg := e.Msg
	if e.Code >= 0 && !strings.Contains(msg, "record code") {
		msg += " (record code " + strconv.FormatInt(e.Code, 10) + ")"
	}
	return strings.Join(append(parts, msg), ": ")
}

// blockNames names the blocks in messages, as llvm-bcanalyzer does.
var blockNames = map[uint64]string{
	BlockInfoBlockID:         "BLOCKINFO_BLOCK",
	ModuleBlockID:            "MODULE_BLOCK",
	ParamAttrBlockID:         "PARAMATTR_BLOCK",
	ParamAttrGroupBlockID:    "PARAMATTR_GROUP_BLOCK",
	ConstantsBlockID:         "CONSTANTS_BLOCK",
	FunctionBlockID:          "FUNCTION_BLOCK",
	IdentificationBlockID:    "IDENTIFICATION_BLOCK",
	ValueSymtabBlockID:       "VALUE_SYMTAB",
	MetadataBlockID:          "METADATA_BLOCK",
	MetadataAttachmentID:     "METADATA_ATTACHMENT",
	TypeBlockIDNew:           "TYPE_BLOCK",
	UselistBlockID:           "USELIST_BLOCK",
	OperandBundleTagsBlockID: "OPERAND_BUNDLE_TAGS_BLOCK",
	MetadataKindBlockID:      "METADATA_KIND_BLOCK",
	StrtabBlockID:            "STRTAB_BLOCK",
	SymtabBlockID:            "SYMTAB_BLOCK",
	SyncScopeNamesBlockID:    "SYNC_SCOPE_NAMES_BLOCK",
}

func blockName(id uint64) string {
	if n, ok := blockNames[id]; ok {
		return n
	}
	return "block " + strconv.FormatUint(id, 10)
}

// failure is how the decoder unwinds: a panic carrying *Error, recovered
// at the package's entry points (and nowhere else).
type failure struct{ err *Error }

func (d *decoder) failf(format string, args ...any) {
	panic(failure{&Error{File: d.file, Offset: d.base + d.recPos, Block: d.blockName(), Code: d.recCode, Msg: fmt.Sprintf(format, args...)}})
}

func (d *decoder) blockName() string {
	if len(d.blocks) == 0 {
		return ""
	}
	return blockName(d.blocks[len(d.blocks)-1])
}

// catch turns a decoder failure into an error; other panics propagate.
func catch(err *error) {
	if r := recover(); r != nil {
		f, ok := r.(failure)
		if !ok {
			panic(r)
		}
		*err = f.err
	}
}
