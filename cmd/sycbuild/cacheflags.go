package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sycbuild/sycbuild/cache"
	"github.com/sycbuild/sycbuild/cache/local"
	"github.com/sycbuild/sycbuild/cache/remote"
	"github.com/sycbuild/sycbuild/configs"
)

// cacheFlags are the shared caches' flags (docs/cache.md); each overrides
// the config key of the same name.
type cacheFlags struct {
	dir, maxSize          string
	remote, remoteTimeout string
	remoteCACert          string
	remoteMaxOutput       string
	remoteReadOnly        bool
	remoteHeaders         headerList
}

// headerList collects repeated -remote-header flags.
type headerList []string

func (h *headerList) String() string     { return strings.Join(*h, ", ") }
func (h *headerList) Set(v string) error { *h = append(*h, v); return nil }

func (c *cacheFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.dir, "cache-dir", "", "share the outputs of external commands with every build through the cache in `dir` (config: cache_dir; \"default\": $XDG_CACHE_HOME/sycbuild)")
	fs.StringVar(&c.maxSize, "cache-max-size", "", "bound the shared cache to `size` (e.g. 20G; default 10G), evicting the least recently used entries")
	fs.StringVar(&c.remote, "remote-cache", "", "also share them through the Remote Execution API cache at `url` (grpc://HOST:PORT or grpcs://HOST:PORT[/INSTANCE])")
	fs.BoolVar(&c.remoteReadOnly, "remote-cache-read-only", false, "only look up the remote cache, never write to it (developer machines)")
	fs.StringVar(&c.remoteTimeout, "remote-timeout", "", "give up on a remote cache call after `duration` (default 30s); the build goes on locally")
	fs.Var(&c.remoteHeaders, "remote-header", "send `Name: value` with every remote cache call (e.g. authorization: Bearer TOKEN); repeatable")
	fs.StringVar(&c.remoteMaxOutput, "remote-max-output", "", "read no output larger than `size` from the remote cache (default 4G): an entry announcing one is a miss")
	fs.StringVar(&c.remoteCACert, "remote-ca-cert", "", "check a grpcs:// server's certificate against the authorities in `file.pem` instead of the system's")
}

// open opens the caches the flags and the config ask for: the local shared
// cache, the remote one, or both (Tiered); nil when neither is asked for.
// A remote cache that cannot be reached is a warning, and the build goes
// on without it. isRemote says whether a remote cache is in use.
func (c *cacheFlags) open(cfg *configs.Config, warn func(string)) (cc cache.Cache, isRemote bool, err error) {
	dir := c.dir
	if dir == "" && cfg.CacheDir != "" {
		dir = cfg.CacheDir
		if dir != "default" && !filepath.IsAbs(dir) {
			dir = filepath.Join(cfg.Dir, dir)
		}
	}
	if dir == "default" {
		dir = "" // local.Options: the user's cache directory
	}
	sizeText := firstOf(c.maxSize, cfg.CacheMaxSize)
	var maxSize int64
	if sizeText != "" {
		if maxSize, err = configs.ParseSize(sizeText); err != nil {
			return nil, false, fmt.Errorf("-cache-max-size: %v", err)
		}
	}
	var l, r cache.Cache
	cacheWarn := func(s string) { warn("warning: " + s) }
	if c.dir != "" || cfg.CacheDir != "" {
		lc, err := local.Open(local.Options{Dir: dir, MaxSize: maxSize, Warn: cacheWarn})
		if err != nil {
			return nil, false, err
		}
		l = lc
	}
	url := firstOf(c.remote, cfg.RemoteCache)
	if url != "" {
		if err := remote.CheckURL(url); err != nil {
			where := "-remote-cache"
			if c.remote == "" {
				where = cfg.Field("remote_cache").Position() + ": remote_cache"
			}
			return nil, false, fmt.Errorf("%s: %v (sycbuild speaks the Remote Execution API over gRPC: bazel-remote serves it on its --grpc_port, 9092 by default)", where, err)
		}
		opt := remote.Options{URL: url, ReadOnly: c.remoteReadOnly || cfg.RemoteCacheReadOnly, CACert: c.remoteCACert,
			Headers: append(append([]string(nil), cfg.RemoteHeaders...), c.remoteHeaders...), Warn: cacheWarn}
		if t := firstOf(c.remoteTimeout, cfg.RemoteTimeout); t != "" {
			if opt.Timeout, err = configs.ParseTimeout(t); err != nil {
				return nil, false, fmt.Errorf("-remote-timeout: %v", err)
			}
		}
		if c.remoteMaxOutput != "" {
			if opt.MaxOutputSize, err = configs.ParseSize(c.remoteMaxOutput); err != nil || opt.MaxOutputSize <= 0 {
				return nil, false, fmt.Errorf("-remote-max-output: %v", cmp.Or(err, errors.New("must be more than 0")))
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), max(opt.Timeout, 10*time.Second))
		rc, err := remote.Open(ctx, opt)
		cancel()
		if err != nil {
			warn(fmt.Sprintf("warning: remote cache %s: %v; building without it", url, err))
		} else {
			r = rc
		}
	}
	cc = cache.Tiered(l, r)
	return cc, r != nil, nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
