package offloadbin

import (
	"fmt"
	"strings"
)

// The string keys of a SYCL image.
const (
	KeyTriple  = "triple"
	KeyArch    = "arch"
	KeySymbols = "symbols"
	// KeyProperties holds the image's property sets as the text of a .prop
	// file. LLVM 22 has no key for them; this one is sycbuild's.
	KeyProperties = "properties"
)

// SYCLImage returns a SYCL image as clang-sycl-linker-22 writes one: offload
// kind sycl, the given image kind (clang-sycl-linker-22 gives SPIR-V
// ImageNone), and the strings "triple", "arch" (written even when empty) and
// "symbols" (the kernel names joined by "\n"), in this order, then
// "properties" when props is not empty. Names must not hold "\n" or NUL.
func SYCLImage(kind ImageKind, triple, arch string, symbols []string, props string, data []byte) (*Image, error) {
	for _, s := range symbols {
		if s == "" || strings.ContainsAny(s, "\n\x00") {
			return nil, fmt.Errorf("offloadbin: symbol %q is empty or holds a newline or NUL", s)
		}
	}
	im := &Image{
		ImageKind:   kind,
		OffloadKind: OffloadSYCL,
		Strings: []String{
			{KeyTriple, triple},
			{KeyArch, arch},
			{KeySymbols, strings.Join(symbols, "\n")},
		},
		Data: data,
	}
	if props != "" {
		im.Strings = append(im.Strings, String{KeyProperties, props})
	}
	if err := im.check(); err != nil {
		return nil, err
	}
	return im, nil
}

// Symbols returns the names in the image's "symbols" string.
func (im *Image) Symbols() []string {
	v, ok := im.Get(KeySymbols)
	if !ok || v == "" {
		return nil
	}
	return strings.Split(v, "\n")
}
