package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/sycbuild/sycbuild/configs"

	"github.com/sycbuild/sycbuild/cache/local"
	"github.com/sycbuild/sycbuild/internal/clopt"
)

// cacheCommand runs "sycbuild cache stats|clean": what the shared local
// cache holds, or removing all of it.
func cacheCommand(args []string, stdio clopt.Stdio) int {
	fs := flag.NewFlagSet("sycbuild cache", flag.ContinueOnError)
	fs.SetOutput(stdio.Err)
	dir := fs.String("cache-dir", "", "the shared cache `directory` (default $XDG_CACHE_HOME/sycbuild, else ~/.cache/sycbuild)")
	maxSize := fs.String("cache-max-size", "", "the cache's size bound, as in 10G (default 10G), for stats")
	fs.Usage = func() {
		fmt.Fprint(stdio.Err, `Usage:
  sycbuild cache stats [-cache-dir DIR] [-cache-max-size SIZE]   what the shared cache holds
  sycbuild cache clean [-cache-dir DIR]                          remove every entry

`)
		fs.PrintDefaults()
	}
	if len(args) == 0 || args[0] != "stats" && args[0] != "clean" {
		fs.Usage()
		return exitUsage
	}
	verb := args[0]
	if err := fs.Parse(args[1:]); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stdio.Err, "sycbuild cache %s: unexpected argument %q\n", verb, fs.Arg(0))
		return exitUsage
	}
	var max int64
	if *maxSize != "" {
		var err error
		if max, err = configs.ParseSize(*maxSize); err != nil {
			fmt.Fprintf(stdio.Err, "sycbuild cache: -cache-max-size: %v\n", err)
			return exitUsage
		}
	}
	// Neither command creates anything: a directory that is not already
	// sycbuild's cache is refused, and one that does not exist holds no
	// cache.
	c, err := local.OpenExisting(local.Options{Dir: *dir, MaxSize: max, Warn: func(s string) { fmt.Fprintln(stdio.Err, "sycbuild: warning: "+s) }})
	if errors.Is(err, local.ErrNoCache) {
		fmt.Fprintf(stdio.Out, "%v: nothing to %s\n", err, map[string]string{"stats": "count", "clean": "remove"}[verb])
		return 0
	}
	if err != nil {
		fmt.Fprintf(stdio.Err, "sycbuild cache: %v\n", err)
		return exitFailed
	}
	if verb == "clean" {
		before, _ := c.Stats()
		if err := c.Clean(); err != nil {
			fmt.Fprintf(stdio.Err, "sycbuild cache clean: %v\n", err)
			return exitFailed
		}
		fmt.Fprintf(stdio.Out, "removed %d entries and %d blobs (%s) from %s\n", before.Entries, before.Blobs, humanSize(before.Bytes), c.Dir())
		return 0
	}
	s, err := c.Stats()
	if err != nil {
		fmt.Fprintf(stdio.Err, "sycbuild cache stats: %v\n", err)
		return exitFailed
	}
	writeCacheStats(stdio.Out, s)
	return 0
}

func writeCacheStats(w io.Writer, s local.Stats) {
	fmt.Fprintf(w, "directory  %s\n", s.Dir)
	fmt.Fprintf(w, "entries    %d\n", s.Entries)
	fmt.Fprintf(w, "blobs      %d\n", s.Blobs)
	fmt.Fprintf(w, "size       %s of %s (%.1f%%)\n", humanSize(s.Bytes), humanSize(s.MaxSize), 100*float64(s.Bytes)/float64(s.MaxSize))
}

// humanSize writes n bytes with a binary unit.
func humanSize(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n)/1024, 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %ciB", v, units[i])
}
