package moduleid

import (
	"io"
	"strings"
	"testing"
)

// TestArgsRoundTrip: Parse reads back what Args renders, and the line the
// build prints renders back byte for byte.
func TestArgsRoundTrip(t *testing.T) {
	o := Options{Input: "tu/vector_ops.ll", Output: "out/linked.0.ll"}
	got, err := Parse("sycl-module-id", Args(o), io.Discard)
	if err != nil || got != o {
		t.Errorf("Parse(Args(%+v)) = %+v, %v", o, got, err)
	}
	const line = "-o out/per_source/linked.0.ll tu/vector_ops.ll"
	if o, err := Parse("sycl-module-id", strings.Fields(line), io.Discard); err != nil || strings.Join(Args(o), " ") != line {
		t.Errorf("Args(Parse(%q)) = %q, %v", line, Args(o), err)
	}
	if _, err := Parse("sycl-module-id", []string{"in.ll"}, io.Discard); err == nil || err.Error() != "sycl-module-id: need -o and exactly one input" {
		t.Errorf("without -o: %v", err)
	}
}
