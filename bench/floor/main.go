// Command floor is the read-once-write-once floor of a module split: it
// reads its input file once and writes a given list of files with given
// sizes, their bytes taken from the input, and does nothing else. What a
// splitter costs beyond it is what splitting costs; bench/postlinkbench
// runs it on the files sycl-post-link wrote and prints the ratio.
//
//	floor -in k13000.ll -list files.txt -dir out [-j 2] [-from-start]
//
// The list has one file a line: its size in bytes, a space and its path
// relative to -dir (no spaces in paths). Files are written by -j workers
// (default: one per CPU), each with one write system call, as sycbuild
// writes its outputs, from the input's own buffer (no copy) unless the file
// is larger than the input.
//
// A split's outputs are, for the most part, pieces of its input: together
// they are many times its size (each module repeats the helpers it
// reaches), and their bytes are read from all over an input too large for
// the processor's caches. The floor reads as much: the files take their
// bytes from the input one after another, the next file starting where the
// last one ended and going round to the start again. With -from-start every
// file is the start of the input instead, bytes that stay in the caches
// (the floor of the benchmarks before; it reads less than any split can).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

func main() {
	in := flag.String("in", "", "input file, read once")
	list := flag.String("list", "", "the files to write: \"size path\" per line")
	dir := flag.String("dir", ".", "directory the paths are relative to")
	jobs := flag.Int("j", runtime.GOMAXPROCS(0), "files written at once")
	fromStart := flag.Bool("from-start", false, "every file is the start of the input (bytes that stay in the caches)")
	flag.Parse()
	if *in == "" || *list == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: floor -in FILE -list FILE [-dir DIR] [-j N] [-from-start]")
		os.Exit(2)
	}
	if err := run(*in, *list, *dir, max(1, *jobs), *fromStart); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

// file is one file to write.
type file struct {
	path string
	size int
	from int // where in the input its bytes begin
}

func run(in, list, dir string, jobs int, fromStart bool) error {
	files, err := readList(list)
	if err != nil {
		return err
	}
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	if len(src) == 0 {
		return fmt.Errorf("%s: empty input", in)
	}
	if !fromStart {
		at := 0
		for i := range files {
			if at+files[i].size > len(src) {
				at = 0
			}
			files[i].from = at
			at += files[i].size
		}
	}
	work := make(chan file)
	errs := make(chan error, jobs)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			var first error
			for f := range work {
				if first != nil {
					continue
				}
				data := src[f.from:][:min(f.size, len(src))]
				if f.size > len(src) {
					buf = fill(buf[:0], src, f.size)
					data = buf
				}
				first = os.WriteFile(filepath.Join(dir, f.path), data, 0o644)
			}
			errs <- first
		}()
	}
	for _, f := range files {
		work <- f
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// fill appends size bytes of src to buf, from the start of src, again and
// again if src is shorter: an output's bytes come from the input.
func fill(buf, src []byte, size int) []byte {
	for len(buf) < size {
		buf = append(buf, src[:min(len(src), size-len(buf))]...)
	}
	return buf
}

// readList reads the list of files to write.
func readList(path string) ([]file, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var files []file
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		size, name, ok := strings.Cut(sc.Text(), " ")
		n, err := strconv.Atoi(size)
		if !ok || err != nil || n < 0 || name == "" {
			return nil, fmt.Errorf("%s:%d: want \"size path\", got %q", path, line, sc.Text())
		}
		files = append(files, file{path: name, size: n})
	}
	return files, sc.Err()
}
