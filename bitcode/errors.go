package bitcode

import "github.com/sycbuild/sycbuild/bitcode/bitstream"

// Error is a malformed or unsupported bitcode input (bitstream.Error). Its
// message names the file, the byte offset of the record (or block) at
// fault, the enclosing block and, for records, the record code:
//
//	k.bc: byte 1234: in FUNCTION_BLOCK: unknown record code 77
type Error = bitstream.Error

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

// failf stops decoding with an error at the current record.
func (d *decoder) failf(format string, args ...any) { d.Fail(format, args...) }
