package toolchain

import "github.com/sycbuild/sycbuild/bitcode"

// bitcodeInfo returns the producer string of a bitcode file's
// IDENTIFICATION block ("LLVM15.0.6": which LLVM wrote it decides which
// llvm-link may read it, and for which LLVM sycl-post-link writes its
// modules' bitcode, since an older LLVM cannot read a
// newer LLVM's bitcode) and the module's target triple ("" for what it
// does not hold).
func bitcodeInfo(data []byte) (producer, triple string, err error) {
	return bitcode.Info(data)
}
