package bitcode

import (
	"github.com/sycbuild/sycbuild/bitcode/bitstream"
	"github.com/sycbuild/sycbuild/internal/filecopy"
)

// The bitstream writer under the names the bitcode writers (this
// package's module writer, llvmir's) have called it by: bitstream.Writer
// and its abbreviation operands.
type (
	StreamWriter = bitstream.Writer
	BlobFile     = bitstream.BlobFile
	AbbrevOp     = bitstream.AbbrevOp
)

// NewStreamWriter returns a bitstream writer (bitstream.NewWriter) that
// copies file blobs with internal/filecopy.
func NewStreamWriter() *StreamWriter {
	w := bitstream.NewWriter()
	w.CopyFile = filecopy.CopyN
	return w
}

// Literal, Fixed, Array and Blob make abbreviation operands (bitstream's).
func Literal(v uint64) AbbrevOp   { return bitstream.Literal(v) }
func Fixed(width uint64) AbbrevOp { return bitstream.Fixed(width) }
func Array() AbbrevOp             { return bitstream.Array() }
func Blob() AbbrevOp              { return bitstream.Blob() }
