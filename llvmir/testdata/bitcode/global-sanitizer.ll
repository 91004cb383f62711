; Global variable sanitizer properties (LLVM 15 and newer): what the bitcode
; writer writes, checked by TestBitcodeWriterOracle.
@a = global i32 0, no_sanitize_address
@b = global i32 0, no_sanitize_hwaddress, sanitize_address_dyninit
@c = global i32 0, sanitize_memtag
