package main

import (
	"fmt"

	"github.com/sycbuild/sycbuild/tools/clopt"
)

// build runs the build mode (sycbuild -config targets.yaml).
func build(args []string, stdio clopt.Stdio) int {
	fmt.Fprintln(stdio.Err, "sycbuild: build mode is not yet available in this build; see 'sycbuild help'")
	return 2
}
