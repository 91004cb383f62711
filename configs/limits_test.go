package configs

import (
	"fmt"
	"strings"
	"testing"
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
