package configs

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLimits(t *testing.T) {
	const tail = "targets: [{kind: llvm_ir}]\n"
	deep := MaxDepth + 1
	tests := []struct {
		name, src, want string
	}{
		{"flow", "inputs: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n" + tail,
			fmt.Sprintf("t.yaml:1:%d: the config is nested deeper than %d levels", 9+MaxDepth-1, MaxDepth)},
		{"compact sequences", "inputs:\n" + strings.Repeat("- ", 100000) + "a.ll\n" + tail,
			fmt.Sprintf("t.yaml:2:%d: the config is nested deeper than %d levels", 2*MaxDepth-1, MaxDepth)},
		{"flow over lines", "inputs: [\n" + strings.Repeat("{a: [\n", deep) + tail,
			fmt.Sprintf("t.yaml:%d:5: the config is nested deeper than %d levels", 1+MaxDepth/2, MaxDepth)},
		{"block mapping keys", "inputs: [a.ll]\n" + tail + "tools:\n" + keys("  k%d: x\n", 500000),
			fmt.Sprintf("t.yaml:%d:3: a mapping of the config holds more than %d keys", 3+MaxKeys+1, MaxKeys)},
		{"flow mapping keys", "inputs: [a.ll]\n" + tail + "tools: {" + keys("k%d: x, ", 500000) + "}\n",
			fmt.Sprintf("t.yaml:3:%d: a mapping of the config holds more than %d keys", 8+len(keys("k%d: x, ", MaxKeys))-1, MaxKeys)},
		{"size", "inputs: [a.ll]\n" + tail + "#" + strings.Repeat("x", MaxSize) + "\n",
			fmt.Sprintf("t.yaml:1:1: the config is %d bytes; the limit is %d", len("inputs: [a.ll]\n"+tail)+MaxSize+2, MaxSize)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tc.src))
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v\nwant %s", err, tc.want)
			}
		})
	}
}

// keys repeats format, given the repetition's index, n times.
func keys(format string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// FuzzLimits: whatever a config repeats (a fragment, up to about 256 KiB of
// it),
// parsing it allocates memory linear in its size and takes well under 5 s
// (a linear parse of 256 KiB takes a tenth of that on a loaded machine):
// no shape makes the parser quadratic before a limit stops it (a mapping
// of 37,000 keys took 17 s).
func FuzzLimits(f *testing.F) {
	f.Add([]byte("  k@: x\n"), uint16(30000))
	f.Add([]byte("k@: x, "), uint16(30000))
	f.Add([]byte("  - a@.ll\n"), uint16(30000))
	f.Add([]byte("  - {kind: llvm_ir, name: x}\n"), uint16(2000))
	f.Add([]byte("["), uint16(100))
	f.Fuzz(func(t *testing.T, frag []byte, n uint16) {
		if len(frag) == 0 {
			return
		}
		reps := min(int(n), (256<<10)/len(frag))
		// Each repetition has its "@" replaced by its index: keys differ.
		var b strings.Builder
		b.WriteString("inputs: [a.ll]\ntargets: [{kind: llvm_ir}]\ntools:\n")
		for i := range reps {
			b.WriteString(strings.ReplaceAll(string(frag), "@", strconv.Itoa(i)))
		}
		src := b.String()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		Parse("t.yaml", []byte(src))
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		if took > 5*time.Second {
			t.Errorf("parsing %d bytes (%d × %q) took %v", len(src), reps, frag, took)
		}
		// goccy/go-yaml allocates a few hundred bytes per byte of a
		// config; 1,000 keys in one mapping about 850.
		if alloc, bound := after.TotalAlloc-before.TotalAlloc, uint64(2048*len(src)+32<<20); alloc > bound {
			t.Errorf("parsing %d bytes (%d × %q) allocated %d bytes, over %d", len(src), reps, frag, alloc, bound)
		}
	})
}

func TestLimitsAllow(t *testing.T) {
	// Brackets in strings, comments and block scalars are not nesting, and
	// a config as deep as the schema is far from the limit.
	src := `# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
inputs: ["` + strings.Repeat("[", 50) + `.ll", '` + strings.Repeat("{", 50) + `.ll']
targets:
  - kind: spir64
    options:
      llvm-spirv: |
        ` + strings.Repeat("[", 50) + `
      llvm-as: [-a, "{", '[']
`
	if err := checkLimits("t.yaml", []byte(src)); err != nil {
		t.Fatal(err)
	}
}
