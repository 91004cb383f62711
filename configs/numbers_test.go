package configs

import (
	"strings"
	"testing"
)

// TestSizesTakeBareNumbers: memory and cache_max_size take a bare number
// of bytes as the docs say ("memory: 0" is no budget), not only a string.
func TestSizesTakeBareNumbers(t *testing.T) {
	c, err := Parse("targets.yaml", []byte("inputs: [a.ll]\nmemory: 0\ncache_max_size: 100\ntargets: [{kind: llvm_ir}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Memory != "0" || c.CacheMaxSize != "100" {
		t.Errorf("memory %q, cache_max_size %q", c.Memory, c.CacheMaxSize)
	}
	_, err = Parse("targets.yaml", []byte("inputs: [a.ll]\nmemory: [1]\ntargets: [{kind: llvm_ir}]\n"))
	if err == nil || !strings.Contains(err.Error(), "memory: expected a string, got a list") {
		t.Errorf("memory: [1]: %v", err)
	}
}

// TestIntegerTooLarge: an integer too large for its field says so, not
// that it is a string.
func TestIntegerTooLarge(t *testing.T) {
	_, err := Parse("targets.yaml", []byte("inputs: [a.ll]\njobs: 99999999999999999999999\ntargets: [{kind: llvm_ir}]\n"))
	if err == nil || err.Error() != "targets.yaml:2:7: jobs: 99999999999999999999999 is too large" {
		t.Errorf("got %v", err)
	}
	_, err = Parse("targets.yaml", []byte("inputs: [a.ll]\njobs: \"12\"\ntargets: [{kind: llvm_ir}]\n"))
	if err == nil || !strings.Contains(err.Error(), "jobs: expected an integer, got a string") {
		t.Errorf("a quoted number: %v", err)
	}
}

// TestTargetNamedLikeTheLinkedModule: a target's work directory may not be
// the file the build links its inputs into (linked.ll, or linked.N.ll for
// each input with its module id).
func TestTargetNamedLikeTheLinkedModule(t *testing.T) {
	for _, name := range []string{"linked.ll", "linked.0.ll", "linked.12.ll"} {
		_, err := Parse("targets.yaml", []byte("inputs: [a.ll]\ntargets: [{kind: llvm_ir, name: "+name+"}]\n"))
		if err == nil || !strings.Contains(err.Error(), "targets[0].name: \""+name+"\" is not a valid target name") {
			t.Errorf("name %s: %v", name, err)
		}
	}
	if _, err := Parse("targets.yaml", []byte("inputs: [a.ll]\ntargets: [{kind: llvm_ir, name: linked.x.ll}]\n")); err != nil {
		t.Errorf("linked.x.ll: %v", err)
	}
}
