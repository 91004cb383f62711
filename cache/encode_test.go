package cache

import (
	"strings"
	"testing"
)

// FuzzEncode keys actions of arbitrary paths and arguments: Encode never
// panics, fails only with an error of its own, and gives one key for one
// action.
func FuzzEncode(f *testing.F) {
	f.Add("in/a.bc", "out/a.o", "llc", "-o", "in/b/c.bc", int64(3))
	f.Add("../src/a", "out/x", "", "&&", "in/a", int64(0))
	f.Add("/abs", "../up", "t", "x", "a/./b", int64(-1))
	f.Fuzz(func(t *testing.T, in1, out, tool, arg, in2 string, size int64) {
		a := &Action{
			Tools:   []string{tool},
			Argvs:   [][]string{{tool, arg}, {arg}},
			Inputs:  []Input{{Path: in1, Hash: "ab", Size: size}, {Path: in2, Hash: "cd", Size: 1}},
			Outputs: []string{out, out},
		}
		enc, err := Encode(a)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "cache: ") {
				t.Fatalf("error %q", err)
			}
			return
		}
		again, err := Encode(a)
		if err != nil || again.Key != enc.Key || len(enc.Outputs) != 1 {
			t.Fatalf("second encoding: %v, %v; outputs %q", again, err, enc.Outputs)
		}
	})
}
