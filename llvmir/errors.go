package llvmir

import "github.com/sycbuild/sycbuild/diag"

// Error is one problem found in the input, located by line and column
// (both 1-based; the column counts bytes).
type Error = diag.Error

// ErrorList is the errors of one parse, sorted by position.
type ErrorList = diag.List
