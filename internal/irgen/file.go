package irgen

import (
	"bufio"
	"os"
)

// Scaled is the benchmark module (Big) scaled to n kernels, with helpers
// and source files in the same proportion.
func Scaled(n int) Config {
	c := Big()
	if n != c.Kernels {
		c.Helpers = c.Helpers * n / c.Kernels
		c.Sources = max(1, c.Sources*n/c.Kernels)
		c.Kernels = n
	}
	return c
}

// WriteFile writes the module of c to the file path.
func WriteFile(path string, c Config) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := Write(w, c); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Quadratic is a module of n kernels shaped so that each kernel's module
// is looked at whole: every kernel reaches a few helpers and comes from a
// source of its own, so the module has one attribute group and one
// !srcloc node per kernel. Work per output module that grows with the
// input shows on it as time per kernel growing with n.
func Quadratic(n int) Config {
	c := Big()
	c.Kernels, c.Helpers, c.Sources, c.Body = n, max(1, c.Helpers*n/c.Kernels), n, 50
	return c
}
