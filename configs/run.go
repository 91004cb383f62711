package configs

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The values of aot_fallback: spirv falls back per kernel where it can,
// and fails the build when every module of the target falls back (nothing
// would be compiled ahead of time); spirv-all accepts that too.
const (
	FallbackSPIRV    = "spirv"
	FallbackSPIRVAll = "spirv-all"
)

// ParseSize reads a size in bytes as a number with an optional unit: K, M,
// G or T (powers of 1024, with or without a trailing "B" or "iB"), as in
// "500M" or "20GiB".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRight(t, "KMGTkmgtiIbB")
	unit := strings.ToUpper(strings.TrimSpace(t[len(num):]))
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I")
	shift := 0
	switch unit {
	case "":
	case "K":
		shift = 10
	case "M":
		shift = 20
	case "G":
		shift = 30
	case "T":
		shift = 40
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q (K, M, G or T)", s, t[len(num):])
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || !(n >= 0) {
		return 0, fmt.Errorf("size %q: not a size (a number with K, M, G or T)", s)
	}
	v := n * float64(int64(1)<<shift)
	if v >= 1<<63 {
		return 0, fmt.Errorf("size %q: too large", s)
	}
	return int64(v), nil
}

// ParseTimeout reads a positive duration ("90s", "10m").
func ParseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a duration (want e.g. 90s or 10m)", s)
	}
	return d, nil
}

// Timeout is how long a command of tool role may run in target t (0: no
// limit): the shorter of the tool's timeouts: entry and the target's
// timeout:. The values were checked when the config was loaded.
func (c *Config) Timeout(t *Target, role Tool) time.Duration {
	var d time.Duration
	if s, ok := c.Timeouts[role]; ok {
		d, _ = ParseTimeout(s)
	}
	if t != nil && t.Timeout != "" {
		if td, _ := ParseTimeout(t.Timeout); d == 0 || td < d {
			d = td
		}
	}
	return d
}

// validateRun checks the keys that say how the build runs.
func (v *validator) validateRun() {
	c := v.c
	for role, s := range c.Timeouts {
		path := "timeouts." + string(role)
		if _, ok := ParseTool(string(role)); !ok {
			v.errorf(path, "timeouts: unknown tool %q", role)
		} else if _, err := ParseTimeout(s); err != nil {
			v.errorf(path, "%s: %v", path, err)
		}
	}
	for _, f := range []struct{ path, value string }{{"memory", c.Memory}, {"cache_max_size", c.CacheMaxSize}} {
		if f.value != "" {
			if _, err := ParseSize(f.value); err != nil {
				v.errorf(f.path, "%s: %v", f.path, err)
			}
		}
	}
	if c.RemoteTimeout != "" {
		if _, err := ParseTimeout(c.RemoteTimeout); err != nil {
			v.errorf("remote_timeout", "remote_timeout: %v", err)
		}
	}
	if c.RemoteCache != "" && !strings.HasPrefix(c.RemoteCache, "grpc://") && !strings.HasPrefix(c.RemoteCache, "grpcs://") {
		v.errorf("remote_cache", "remote_cache: %q is not a grpc:// or grpcs:// address", c.RemoteCache)
	}
	for i, t := range c.Targets {
		path := fmt.Sprintf("targets[%d]", i)
		if t.Timeout != "" {
			if _, err := ParseTimeout(t.Timeout); err != nil {
				v.errorf(path+".timeout", "%s.timeout: %v", path, err)
			}
		}
		switch {
		case t.AOTFallback == "":
		case t.AOTFallback != FallbackSPIRV && t.AOTFallback != FallbackSPIRVAll:
			v.errorf(path+".aot_fallback", "%s.aot_fallback: unknown fallback %q (want %s or %s)", path, t.AOTFallback, FallbackSPIRV, FallbackSPIRVAll)
		case t.Kind != SPIR64Gen:
			v.errorf(path+".aot_fallback", "%s.aot_fallback: only a spir64_gen target can fall back to SPIR-V", path)
		}
	}
}
