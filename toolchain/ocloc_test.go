package toolchain

import (
	"slices"
	"testing"
)

func TestOclocDevices(t *testing.T) {
	help := "  -device <device_type>         Target device.\n" +
		"                                <device_type> can be: bdw, skl, acm-g10, pvc, xe-hpg, xe-hpc, version  or hexadecimal value with 0x prefix\n" +
		"                                - can be single or multiple target devices.\n"
	known := parseOclocDevices(help)
	if want := []string{"bdw", "skl", "acm-g10", "pvc", "xe-hpg", "xe-hpc"}; !slices.Equal(known, want) {
		t.Fatalf("parsed %q, want %q", known, want)
	}
	if got := parseOclocDevices("Usage: ocloc compile …\n"); got != nil {
		t.Errorf("a help without a device list gave %q", got)
	}
	for d, want := range map[string]bool{
		"pvc": true, "acm-g10": true, "12.60.7": true, "0x0bd5": true, "xe-hpg:xe-hpc": true, ":pvc": true, "skl:": true,
		"nosuchgpu": false, "PVC": false, "12.60": false, "0xZZ": false, "pvc:nosuch": false, ":": false, "version": false,
	} {
		if got := OclocDevice(d, known); got != want {
			t.Errorf("OclocDevice(%q) = %v, want %v", d, got, want)
		}
	}
}
