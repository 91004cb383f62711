// Package offloadwrapper is the command line of sycbuild's in-process offloadwrapper tool.
package offloadwrapper

import (
	"fmt"

	"github.com/sycbuild/sycbuild/tools/clopt"
)

// Main runs the tool.
func Main(argv0 string, args []string, stdio clopt.Stdio) int {
	fmt.Fprintf(stdio.Err, "%s: not yet available in this build\n", argv0)
	return 1
}
