package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// Mistakes found before anything runs: the message once, exit 2, and no
// build directory made.
func TestChecksBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	ll, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "examples", "quickstart", "device.ll"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "device.ll"), ll, 0o644)
	config := filepath.Join(dir, "targets.yaml")
	for _, tc := range []struct {
		name   string
		config string
		args   []string
		want   string
	}{
		{"mistyped tool", "", []string{"sycl-postlink", "-split=kernel"},
			`sycbuild: unknown command "sycl-postlink"; did you mean "sycl-post-link"? ('sycbuild help' lists the commands; device inputs end in .ll or .bc)`},
		{"mistyped command", "", []string{"grpah"},
			`sycbuild: unknown command "grpah"; did you mean "graph"? ('sycbuild help' lists the commands; device inputs end in .ll or .bc)`},
		{"remote cache flag", "inputs: [device.ll]\ntargets: [{kind: llvm_ir}]\n", []string{"-config", config, "-remote-cache", "http://cache.example:8080"},
			`sycbuild: -remote-cache: remote cache URL "http://cache.example:8080": want grpc://HOST:PORT or grpcs://HOST:PORT (sycbuild speaks the Remote Execution API over gRPC: bazel-remote serves it on its --grpc_port, 9092 by default)`},
		{"remote cache key", "inputs: [device.ll]\nremote_cache: grpc://cache.example\ntargets: [{kind: llvm_ir}]\n", []string{"-config", config},
			`sycbuild: ` + config + `:2:15: remote_cache: remote cache URL "grpc://cache.example": want grpc://HOST:PORT or grpcs://HOST:PORT (sycbuild speaks the Remote Execution API over gRPC: bazel-remote serves it on its --grpc_port, 9092 by default)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.config != "" {
				os.WriteFile(config, []byte(tc.config), 0o644)
			}
			var out, errs bytes.Buffer
			code := run(append([]string{"sycbuild"}, tc.args...), clopt.Stdio{In: strings.NewReader(""), Out: &out, Err: &errs})
			if code != exitUsage || errs.String() != tc.want+"\n" {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d, stderr:\n%s", code, errs.String(), exitUsage, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
				t.Errorf("a refused build made its build directory")
			}
		})
	}
}
