package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/clopt"
)

// A rejected command line exits 2 with its reason printed once, followed
// by the usage when the flag package printed it; -help exits 0.
func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		want  string // printed exactly once
		usage bool
		code  int
	}{
		{[]string{"-j", "x"}, `invalid value "x" for flag -j: parse error`, true, 2},
		{[]string{"-zz"}, "flag provided but not defined: -zz", true, 2},
		{[]string{"-j"}, "flag needs an argument: -j", true, 2},
		{[]string{"-j", "-1"}, "sycbuild: -j must be at least 1", false, 2},
		{[]string{"-executor", "slurn"}, `sycbuild: -executor: unknown executor "slurn" (want local or slurm); did you mean "slurm"?`, false, 2},
		{[]string{"graph", "extra"}, `sycbuild graph: unexpected argument "extra"`, true, 2},
		{[]string{"-n", "-h"}, "", true, 0},
	} {
		var out, errs bytes.Buffer
		code := run(append([]string{"sycbuild"}, tc.args...), clopt.Stdio{In: strings.NewReader(""), Out: &out, Err: &errs})
		stderr := errs.String()
		if code != tc.code {
			t.Errorf("%q: exit %d, want %d\n%s", tc.args, code, tc.code, stderr)
		}
		if tc.want != "" && strings.Count(stderr, tc.want+"\n") != 1 {
			t.Errorf("%q: want %q once in stderr:\n%s", tc.args, tc.want, stderr)
		}
		if got := strings.Contains(stderr, "Usage: sycbuild"); got != tc.usage {
			t.Errorf("%q: usage printed: %v, want %v\n%s", tc.args, got, tc.usage, stderr)
		}
	}
}
