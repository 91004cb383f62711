package postlink

import (
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/split"
)

// maxNamed is how many functions an error names before it counts the rest.
const maxNamed = 10

// checkLowerESIMD is -lower-esimd. The reference lowers the ESIMD modules
// it writes through the vc-intrinsics pipeline, which sycbuild does not
// implement; SYCL modules pass through it unchanged. So a module without
// ESIMD code is processed as without the option, and one with ESIMD code
// is refused with the names of its ESIMD kernels (or, when it has none,
// of its other ESIMD functions).
func checkLowerESIMD(sp *split.Splitter) error {
	kernels, others := sp.ESIMDCode()
	what, list := "kernel", kernels
	if len(kernels) == 0 {
		what, list = "function", others
	}
	if len(list) == 0 {
		return nil
	}
	if len(list) > 1 {
		what += "s"
	}
	names := make([]string, 0, min(len(list), maxNamed))
	for _, e := range list[:min(len(list), maxNamed)] {
		names = append(names, e.Name)
	}
	s := strings.Join(names, ", ")
	if n := len(list) - len(names); n > 0 {
		s += " and " + strconv.Itoa(n) + " more"
	}
	return errorf("-lower-esimd: %s has ESIMD %s %s; lowering ESIMD code needs the vc-intrinsics pipeline, which sycbuild does not implement (build ESIMD code with the DPC++ sycl-post-link)", sp.M.File, what, s)
}
