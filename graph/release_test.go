package graph

import (
	"os"
	"path/filepath"
	"runtime/metrics"
	"testing"
)

// TestReleaseAfterInProcessTool: the memory an in-process tool held goes
// back to the system when it returns, not at the collector's next cycle,
// which a build that then only runs commands may not reach for minutes.
func TestReleaseAfterInProcessTool(t *testing.T) {
	const held = 128 << 20
	tb := newTestBuild(t)
	tb.g.Add(&Action{Desc: "big", Tool: &Tool{Name: "big", Path: "sycbuild", Version: "1"},
		Argv: []string{"sycbuild", "big"}, Out: []*Node{tb.g.File("big.txt", Plain)},
		Main: func(Env, []string, Stdio) int {
			b := make([]byte, held)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1 // resident
			}
			if os.WriteFile(filepath.Join(tb.dir, "big.txt"), b[:1], 0o644) != nil {
				return 1
			}
			return 0
		}})
	tb.build(tb.opts())
	// Memory the heap holds for objects, live or dead, and free memory it
	// has not given back.
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	if kept := s[0].Value.Uint64() + s[1].Value.Uint64(); kept >= held/2 {
		t.Errorf("after the build the heap keeps %d MiB (objects %d, free %d) of the %d MiB the tool let go",
			kept>>20, s[0].Value.Uint64()>>20, s[1].Value.Uint64()>>20, held>>20)
	}
}
