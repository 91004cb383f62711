// Command genll writes a synthetic SYCL-shaped LLVM IR module (see package
// internal/irgen). Without flags it writes the 5000-kernel benchmark module
// (about 65 MB); -small writes the test-sized one.
//
//	go run ./bench/cmd/genll -o big.ll
//	go run ./bench/cmd/genll -typed -kernels 200 -helpers 80 -o m15.ll
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sycbuild/sycbuild/internal/irgen"
)

func main() {
	c := irgen.Big()
	small := flag.Bool("small", false, "start from the small test configuration instead of the benchmark one")
	out := flag.String("o", "-", "output file (- for stdout)")
	kernels := flag.Int("kernels", -1, "number of spir_kernel functions")
	helpers := flag.Int("helpers", -1, "number of spir_func helpers")
	body := flag.Int("body", -1, "arithmetic instructions per function")
	calls := flag.Int("calls", -1, "helper calls per kernel")
	sources := flag.Int("sources", -1, "number of source files (sycl-module-id values)")
	spec := flag.Int("specconsts", -1, "kernels that read a specialization constant")
	unnamed := flag.Int("unnamed", -1, "unnamed string globals")
	typed := flag.Bool("typed", false, "typed pointers (LLVM 15) instead of opaque pointers")
	seed := flag.Int64("seed", 0, "random seed (0 keeps the configuration's)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "genll: unexpected arguments:", flag.Args())
		os.Exit(2)
	}
	if *small {
		c = irgen.Small()
	}
	set := func(dst *int, v int) {
		if v >= 0 {
			*dst = v
		}
	}
	set(&c.Kernels, *kernels)
	set(&c.Helpers, *helpers)
	set(&c.Body, *body)
	set(&c.CallsPerKernel, *calls)
	set(&c.Sources, *sources)
	set(&c.SpecConsts, *spec)
	set(&c.Unnamed, *unnamed)
	c.Typed = *typed
	if *seed != 0 {
		c.Seed = *seed
	}
	if err := write(*out, c); err != nil {
		fmt.Fprintln(os.Stderr, "genll:", err)
		os.Exit(1)
	}
}

// write writes the module to path through a temporary file renamed into
// place, so that a failure leaves no partial output.
func write(path string, c irgen.Config) error {
	if path == "-" {
		w := bufio.NewWriter(os.Stdout)
		if err := irgen.Write(w, c); err != nil {
			return err
		}
		return w.Flush()
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	if err := irgen.Write(f, c); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
