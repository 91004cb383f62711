; Global variable properties: sanitizer bits and code models (LLVM 18 and
; newer): what the bitcode writer writes, checked by TestBitcodeWriterOracle.
@a = global i32 0, no_sanitize_address
@b = global i32 0, no_sanitize_hwaddress, sanitize_address_dyninit
@c = global i32 0, sanitize_memtag
@d = global i32 0, code_model "large"
@e = global i32 0, code_model "small", align 4
@f = global i32 0, code_model "tiny"
@g = global i32 0, code_model "kernel"
@h = global i32 0, code_model "medium", no_sanitize_address
