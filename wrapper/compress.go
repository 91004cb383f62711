package wrapper

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"
)

// Compressed images (--offload-compress) are one zstd frame that records the
// uncompressed size in its header: the runtime sizes its buffer with
// ZSTD_getFrameContentSize before it decompresses, and refuses a frame
// without the size. Their format is SYCL_DEVICE_BINARY_TYPE_COMPRESSED_NONE
// (4), the one compressed value of the runtime's enum, whatever the format
// of the image inside: the runtime learns that from the decompressed bytes.
// The level is a zstd level (negative: fastest, up to 22: best), mapped to
// the nearest of the encoder's four speeds, so that different levels may
// give the same bytes. The encoder runs without concurrent blocks, so its
// output depends only on the input and the level.

// compressFile compresses the size bytes of the file called name into a new
// temporary file and returns its name (set whenever a file was made, so that
// the caller can remove it) and size.
func compressFile(name string, size uint64, level int) (tmp string, csize uint64, err error) {
	in, err := os.Open(name)
	if err != nil {
		return "", 0, err
	}
	defer in.Close()
	out, err := os.CreateTemp("", "sycbuild-zstd-*")
	if err != nil {
		return "", 0, err
	}
	tmp = out.Name()
	defer func() {
		if cerr := out.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	if level == 0 {
		level = 3 // zstd's level 0 means its default level, 3
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)))
	if err != nil {
		return tmp, 0, err
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	enc.ResetContentSize(bw, int64(size))
	n, err := io.Copy(enc, in)
	if err != nil {
		enc.Close()
		return tmp, 0, fmt.Errorf("compressing %s: %w", name, err)
	}
	if uint64(n) != size {
		enc.Close()
		return tmp, 0, fmt.Errorf("compressing %s: file changed size while being read (%d bytes, expected %d)", name, n, size)
	}
	if err := enc.Close(); err != nil {
		return tmp, 0, fmt.Errorf("compressing %s: %w", name, err)
	}
	if err := bw.Flush(); err != nil {
		return tmp, 0, err
	}
	fi, err := out.Stat()
	if err != nil {
		return tmp, 0, err
	}
	return tmp, uint64(fi.Size()), nil
}
