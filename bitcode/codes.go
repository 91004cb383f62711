package bitcode

// Block ids and record codes of LLVM bitcode, named after the enums of
// LLVM's LLVMBitCodes.h and BitCodeEnums.h. The values are fixed by the
// format: LLVM only appends.

// Bitstream block ids.
const (
	BlockInfoBlockID          = 0
	ModuleBlockID             = 8
	ParamAttrBlockID          = 9
	ParamAttrGroupBlockID     = 10
	ConstantsBlockID          = 11
	FunctionBlockID           = 12
	IdentificationBlockID     = 13
	ValueSymtabBlockID        = 14
	MetadataBlockID           = 15
	MetadataAttachmentID      = 16
	TypeBlockIDNew            = 17
	UselistBlockID            = 18
	ModuleStrtabBlockID       = 19
	GlobalValSummaryBlockID   = 20
	OperandBundleTagsBlockID  = 21
	MetadataKindBlockID       = 22
	StrtabBlockID             = 23
	FullLTOGlobalValSummaryID = 24
	SymtabBlockID             = 25
	SyncScopeNamesBlockID     = 26
)

// Abbreviation ids and encodings of the bitstream container.
const (
	EndBlock       = 0
	EnterSubblock  = 1
	DefineAbbrev   = 2
	UnabbrevRecord = 3

	BlockInfoCodeSetBID        = 1
	BlockInfoCodeBlockName     = 2
	BlockInfoCodeSetRecordName = 3
)

// IDENTIFICATION block.
const (
	IdentificationCodeString = 1
	IdentificationCodeEpoch  = 2
)

// MODULE block.
const (
	ModuleCodeVersion        = 1
	ModuleCodeTriple         = 2
	ModuleCodeDatalayout     = 3
	ModuleCodeAsm            = 4
	ModuleCodeSectionName    = 5
	ModuleCodeDeplib         = 6
	ModuleCodeGlobalVar      = 7
	ModuleCodeFunction       = 8
	ModuleCodeAliasOld       = 9
	ModuleCodeGCName         = 11
	ModuleCodeComdat         = 12
	ModuleCodeVSTOffset      = 13
	ModuleCodeAlias          = 14
	ModuleCodeMetadataValues = 15
	ModuleCodeSourceFilename = 16
	ModuleCodeHash           = 17
	ModuleCodeIFunc          = 18
)

// PARAMATTR and PARAMATTR_GROUP blocks.
const (
	ParamAttrCodeEntryOld = 1
	ParamAttrCodeEntry    = 2
	ParamAttrGrpCodeEntry = 3
)

// TYPE block.
const (
	TypeCodeNumEntry      = 1
	TypeCodeVoid          = 2
	TypeCodeFloat         = 3
	TypeCodeDouble        = 4
	TypeCodeLabel         = 5
	TypeCodeOpaque        = 6
	TypeCodeInteger       = 7
	TypeCodePointer       = 8
	TypeCodeFunctionOld   = 9
	TypeCodeHalf          = 10
	TypeCodeArray         = 11
	TypeCodeVector        = 12
	TypeCodeX86FP80       = 13
	TypeCodeFP128         = 14
	TypeCodePPCFP128      = 15
	TypeCodeMetadata      = 16
	TypeCodeX86MMX        = 17
	TypeCodeStructAnon    = 18
	TypeCodeStructName    = 19
	TypeCodeStructNamed   = 20
	TypeCodeFunction      = 21
	TypeCodeToken         = 22
	TypeCodeBFloat        = 23
	TypeCodeX86AMX        = 24
	TypeCodeOpaquePointer = 25
	TypeCodeTargetType    = 26
)

// OPERAND_BUNDLE_TAGS and SYNC_SCOPE_NAMES blocks.
const (
	OperandBundleTag = 1
	SyncScopeName    = 1
)

// VALUE_SYMTAB block.
const (
	VSTCodeEntry   = 1
	VSTCodeBBEntry = 2
	VSTCodeFnEntry = 3
)

// METADATA, METADATA_KIND and METADATA_ATTACHMENT blocks.
const (
	MetadataStringOld            = 1
	MetadataValue                = 2
	MetadataNode                 = 3
	MetadataName                 = 4
	MetadataDistinctNode         = 5
	MetadataKind                 = 6
	MetadataLocation             = 7
	MetadataOldNode              = 8
	MetadataOldFnNode            = 9
	MetadataNamedNode            = 10
	MetadataAttachment           = 11
	MetadataGenericDebug         = 12
	MetadataSubrange             = 13
	MetadataEnumerator           = 14
	MetadataBasicType            = 15
	MetadataFile                 = 16
	MetadataDerivedType          = 17
	MetadataCompositeType        = 18
	MetadataSubroutineType       = 19
	MetadataCompileUnit          = 20
	MetadataSubprogram           = 21
	MetadataLexicalBlock         = 22
	MetadataLexicalBlockFile     = 23
	MetadataNamespace            = 24
	MetadataTemplateType         = 25
	MetadataTemplateValue        = 26
	MetadataGlobalVar            = 27
	MetadataLocalVar             = 28
	MetadataExpression           = 29
	MetadataObjCProperty         = 30
	MetadataImportedEntity       = 31
	MetadataModule               = 32
	MetadataMacro                = 33
	MetadataMacroFile            = 34
	MetadataStrings              = 35
	MetadataGlobalDeclAttachment = 36
	MetadataGlobalVarExpr        = 37
	MetadataIndexOffset          = 38
	MetadataIndex                = 39
	MetadataLabel                = 40
	MetadataStringType           = 41
	MetadataCommonBlock          = 44
	MetadataGenericSubrange      = 45
	MetadataArgList              = 46
	MetadataAssignID             = 47
	MetadataSubrangeType         = 48
	MetadataFixedPointType       = 49
)

// CONSTANTS block.
const (
	CstCodeSetType                  = 1
	CstCodeNull                     = 2
	CstCodeUndef                    = 3
	CstCodeInteger                  = 4
	CstCodeWideInteger              = 5
	CstCodeFloat                    = 6
	CstCodeAggregate                = 7
	CstCodeString                   = 8
	CstCodeCString                  = 9
	CstCodeCEBinop                  = 10
	CstCodeCECast                   = 11
	CstCodeCEGEPOld                 = 12
	CstCodeCESelect                 = 13
	CstCodeCEExtractElt             = 14
	CstCodeCEInsertElt              = 15
	CstCodeCEShuffleVec             = 16
	CstCodeCECmp                    = 17
	CstCodeInlineAsmOld             = 18
	CstCodeCEShufVecEx              = 19
	CstCodeCEInboundsGEP            = 20
	CstCodeBlockAddress             = 21
	CstCodeData                     = 22
	CstCodeInlineAsmOld2            = 23
	CstCodeCEGEPWithInRangeIndexOld = 24
	CstCodeCEUnop                   = 25
	CstCodePoison                   = 26
	CstCodeDSOLocalEquivalent       = 27
	CstCodeInlineAsmOld3            = 28
	CstCodeNoCFIValue               = 29
	CstCodeInlineAsm                = 30
	CstCodeCEGEPWithInRange         = 31
	CstCodeCEGEP                    = 32
	CstCodePtrAuth                  = 33
	CstCodePtrAuth2                 = 34
)

// FUNCTION block.
const (
	FuncCodeDeclareBlocks           = 1
	FuncCodeInstBinop               = 2
	FuncCodeInstCast                = 3
	FuncCodeInstGEPOld              = 4
	FuncCodeInstSelect              = 5
	FuncCodeInstExtractElt          = 6
	FuncCodeInstInsertElt           = 7
	FuncCodeInstShuffleVec          = 8
	FuncCodeInstCmp                 = 9
	FuncCodeInstRet                 = 10
	FuncCodeInstBr                  = 11
	FuncCodeInstSwitch              = 12
	FuncCodeInstInvoke              = 13
	FuncCodeInstUnreachable         = 15
	FuncCodeInstPhi                 = 16
	FuncCodeInstAlloca              = 19
	FuncCodeInstLoad                = 20
	FuncCodeInstVAArg               = 23
	FuncCodeInstStoreOld            = 24
	FuncCodeInstExtractVal          = 26
	FuncCodeInstInsertVal           = 27
	FuncCodeInstCmp2                = 28
	FuncCodeInstVSelect             = 29
	FuncCodeInstInboundsGEPOld      = 30
	FuncCodeInstIndirectBr          = 31
	FuncCodeDebugLocAgain           = 33
	FuncCodeInstCall                = 34
	FuncCodeDebugLoc                = 35
	FuncCodeInstFence               = 36
	FuncCodeInstCmpXchgOld          = 37
	FuncCodeInstAtomicRMWOld        = 38
	FuncCodeInstResume              = 39
	FuncCodeInstLandingPadOld       = 40
	FuncCodeInstLoadAtomic          = 41
	FuncCodeInstStoreAtomicOld      = 42
	FuncCodeInstGEP                 = 43
	FuncCodeInstStore               = 44
	FuncCodeInstStoreAtomic         = 45
	FuncCodeInstCmpXchg             = 46
	FuncCodeInstLandingPad          = 47
	FuncCodeInstCleanupRet          = 48
	FuncCodeInstCatchRet            = 49
	FuncCodeInstCatchPad            = 50
	FuncCodeInstCleanupPad          = 51
	FuncCodeInstCatchSwitch         = 52
	FuncCodeOperandBundle           = 55
	FuncCodeInstUnop                = 56
	FuncCodeInstCallBr              = 57
	FuncCodeInstFreeze              = 58
	FuncCodeInstAtomicRMW           = 59
	FuncCodeBlockAddrUsers          = 60
	FuncCodeDebugRecordValue        = 61
	FuncCodeDebugRecordDeclare      = 62
	FuncCodeDebugRecordAssign       = 63
	FuncCodeDebugRecordValueSimple  = 64
	FuncCodeDebugRecordLabel        = 65
	FuncCodeDebugRecordDeclareValue = 66
)

// STRTAB and SYMTAB blocks.
const (
	StrtabBlob = 1
	SymtabBlob = 1
)

// Values inside records that the writer uses (LLVMBitCodes.h): a cast
// opcode (CastOpcodes), the explicit-type bit of a call's flags
// (CallMarkersFlags), the bitcode epoch.
const (
	CastPtrToInt        = 9
	CallExplicitType    = 15
	BitcodeCurrentEpoch = 0
)
