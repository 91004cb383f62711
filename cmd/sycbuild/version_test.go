package main

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersion: the version line says which sycbuild this is from what the
// build recorded: the version set at link time or the module's, the
// commit, its time, a modified tree, the Go release.
func TestVersion(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "1b996de837a5685a4b0d4facb9a977703e5bd607"},
		{Key: "vcs.time", Value: "2026-11-28T12:19:55Z"}, {Key: "vcs.modified", Value: "true"}}
	for _, tc := range []struct {
		linked string
		bi     *debug.BuildInfo
		want   string
	}{
		{"", nil, "sycbuild devel"},
		{"", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}}, "sycbuild devel (go1.26.0)"},
		{"", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.4.0"}}, "sycbuild v1.4.0 (go1.26.0)"},
		{"", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			"sycbuild devel (commit 1b996de837a5, 2026-11-28T12:19:55Z, modified, go1.26.0)"},
		{"v1.4.0-3-g1b996de", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}}, "sycbuild v1.4.0-3-g1b996de (go1.26.0)"},
	} {
		if got := versionOf(tc.linked, tc.bi); got != tc.want {
			t.Errorf("versionOf(%q, %+v) = %q, want %q", tc.linked, tc.bi, got, tc.want)
		}
	}
	// This test binary's own build information names its Go release.
	if got := versionString(); !strings.Contains(got, runtime.Version()+")") {
		t.Errorf("versionString() = %q, want the Go release %s", got, runtime.Version())
	}
}
