package syclpostlink

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/internal/basedir"
	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/toolchain"
)

// Without -S the reference writes its modules as bitcode, and the tools the
// DPC++ driver runs next need that: llvm-spirv reads nothing else. sycbuild
// writes each module's text as bitcode itself (llvmir's bitcode writer),
// for the LLVM generation that wrote the input: no process, no verifier.
// A module holding a construct the writer does not know yet goes through
// llvm-as of that generation instead, with a one-line notice (a newer
// llvm-as would write bitcode the input's own tools cannot read; an older
// one cannot read the text).

// Assembler returns the function that writes a module's text to a path as
// bitcode ("-" is standard output), as sycl-post-link without -S does
// (postlink.IO.Assemble). The input's LLVM generation is read
// from it once, when the first module is written ("-", standard input, is
// not looked at: the text decides). Relative paths, the input's and the
// modules', are relative to dir ("" is the working directory); notices go
// to stderr, naming the tool argv0.
func Assembler(argv0, dir, input string, stdout, stderr io.Writer) func(text []byte, path string) error {
	gen := sync.OnceValue(func() int {
		if input == "-" {
			return 0
		}
		info, err := toolchain.ScanIR(basedir.Resolve(dir, input))
		if err != nil {
			return 0
		}
		if info.LLVM == 0 {
			// Text every LLVM since 15 reads: LLVM 15's bitcode is read by
			// all of them too (llvm-spirv-15 among them), a newer one's is not.
			return 15
		}
		return info.LLVM
	})
	external := externalAssembler(dir, input, stdout)
	var mu sync.Mutex
	return func(text []byte, path string) error {
		// llvm-as read the text from standard input, which names the
		// module when its text has no source_filename.
		bc, err := llvmir.AssembleBitcode("<stdin>", text, llvmir.BitcodeOptions{LLVM: gen()})
		if err != nil {
			mu.Lock()
			fmt.Fprintf(stderr, "%s: note: %s: written by llvm-as: %s\n", argv0, path, firstLine(err.Error()))
			mu.Unlock()
			return external(text, path)
		}
		if path == "-" {
			_, err := stdout.Write(bc)
			return err
		}
		return atomicfile.Write(basedir.Resolve(dir, path), func(w io.Writer) error {
			_, err := w.Write(bc)
			return err
		})
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// externalAssembler returns the function that writes a module's text to a
// path as bitcode through the llvm-as that suits input, looked for when
// the first module needs it.
func externalAssembler(dir, input string, stdout io.Writer) func(text []byte, path string) error {
	find := sync.OnceValues(func() (string, error) { return findAssembler(dir, input) })
	return func(text []byte, path string) error {
		as, err := find()
		if err != nil {
			return err
		}
		run := func(w io.Writer) error {
			// The text goes in through a pipe; llvm-as runs as the build's
			// commands do (jobs: its own process group, killed with
			// sycl-post-link).
			in, feed, err := jobs.Pipe()
			if err != nil {
				return err
			}
			go func() {
				feed.Write(text)
				feed.Close()
			}()
			defer in.Close()
			var stderr bytes.Buffer
			cmd := &jobs.Command{Argv: []string{as, "-", "-o", "-"}, Stdin: in, Stdout: w, Stderr: &stderr}
			if _, err := cmd.Run(context.Background()); err != nil {
				return fmt.Errorf("%s - -o - (writing %s): %v\n%s", as, path, err, strings.TrimSpace(stderr.String()))
			}
			return nil
		}
		if path == "-" {
			return run(stdout)
		}
		return atomicfile.Write(basedir.Resolve(dir, path), run)
	}
}

// findAssembler finds llvm-as for the input's LLVM generation: the producer
// of bitcode, 15 for typed-pointer text, 19 for text only newer LLVMs
// read; for text any generation reads, the oldest installed of 15, 19, 22.
func findAssembler(dir, input string) (string, error) {
	wanted := []int{15, 19, 22}
	why := ""
	if input != "-" {
		info, err := toolchain.ScanIR(basedir.Resolve(dir, input))
		if err != nil {
			return "", err
		}
		if info.LLVM != 0 {
			wanted, why = []int{info.LLVM}, " ("+info.Why+")"
		}
	}
	f := toolchain.Finder{Versions: toolchain.LoadVersionCache("")}
	var errs []string
	for _, v := range wanted {
		t, err := f.Find("llvm-as", v)
		if err == nil {
			return t.Path, nil
		}
		errs = append(errs, err.Error())
	}
	return "", fmt.Errorf("writing the modules as bitcode (the default without -S) needs llvm-as of LLVM %s%s: %s; or pass -S to write textual IR",
		joinInts(wanted), why, strings.Join(errs, "; "))
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, " or ")
}
