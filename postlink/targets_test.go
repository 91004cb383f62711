package postlink

import "testing"

func TestTargetAccepts(t *testing.T) {
	fp64 := Requirements{Aspects: []string{"fp64"}}
	sg := func(n int) Requirements { return Requirements{SubGroupSize: n, HasSGSize: true} }
	cases := []struct {
		target string
		req    Requirements
		esimd  bool
		want   bool
	}{
		{"", fp64, false, true},
		{"unrecognized_target", fp64, false, true},
		{"intel_gpu_pvc", fp64, false, true},
		{"intel_gpu_tgllp", fp64, false, false},
		{"intel_gpu_cfl", fp64, false, true},
		{"intel_gpu_pvc", sg(8), false, false},
		{"intel_gpu_pvc", sg(16), false, true},
		{"intel_gpu_pvc", sg(64), false, false},
		{"intel_gpu_tgllp", sg(8), false, true},
		{"intel_gpu_cfl", sg(64), false, false},
		// ESIMD modules require sub-group size 1, which no target lists.
		{"intel_gpu_pvc", sg(1), true, true},
		{"intel_gpu_pvc", sg(1), false, false},
		// An aspect without a name (plain integer, not in !sycl_aspects) is unknown to every target.
		{"intel_gpu_pvc", Requirements{Aspects: []string{""}}, false, false},
		{"intel_gpu_pvc", Requirements{Aspects: []string{"ext_intel_esimd", "fp16", "atomic64"}}, false, true},
	}
	for _, c := range cases {
		if got := TargetAccepts(c.target, c.req, c.esimd); got != c.want {
			t.Errorf("TargetAccepts(%q, %+v, esimd=%v) = %v, want %v", c.target, c.req, c.esimd, got, c.want)
		}
	}
}
