// Package bitstream reads and writes the LLVM bitstream container
// (llvm/docs/BitCodeFormat.rst): a stream of 32-bit little-endian words
// filled from their least significant bit, holding nested blocks of
// records, with abbreviations (some shared through BLOCKINFO) and blobs.
// It knows blocks and records, not what LLVM IR puts in them: that is the
// bitcode package's.
package bitstream
