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

func TestOclocBatchLine(t *testing.T) {
	abs := func(p string) string { return "/b/" + p }
	argv := func(extra ...string) []string {
		return append([]string{"ocloc"}, OclocArgs("out/m_0.spv", "out/m_0.bin", []string{"pvc", "acm-g10"}, extra)...)
	}
	for _, c := range []struct {
		argv []string
		want string // "" when it cannot run in a batch
	}{
		{argv(), "-file /b/out/m_0.spv -spirv_input -device pvc,acm-g10 -output 7 -output_no_suffix"},
		{argv("-options", "-cl-fast-relaxed-math", "-q"), "-file /b/out/m_0.spv -spirv_input -device pvc,acm-g10 -output 7 -output_no_suffix -options -cl-fast-relaxed-math -q"},
		{argv("-options", "-g -O0"), ""},   // a blank in a word
		{argv("-out_dir", "x"), ""},        // an option it does not know
		{argv("-output", "other.bin"), ""}, // a second -output
		{argv("-options"), ""},             // an option without its value
		{[]string{"ocloc", "link", "-file", "a"}, ""},
		{[]string{"ocloc", "compile", "-file", "out/m_0.spv", "-device", "pvc", "-output", "out/m_0.bin"}, ""}, // no -output_no_suffix
	} {
		got, ok := OclocBatchLine(c.argv, "out/m_0.bin", "7", abs)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("OclocBatchLine(%q) = %q, %v; want %q", c.argv, got, ok, c.want)
		}
	}
	if got := OclocMultiOutputs("batch.txt"); got != "batch" {
		t.Errorf("OclocMultiOutputs = %q", got)
	}
	out := "Command number 1: \nCompilation from IR - skipping loading of FCL\nBuild succeeded.\nCommand number 2: \nwarning: x\n" +
		"Build command 0: successful\nBuild command 1: successful\n"
	parts := OclocMultiSplit([]byte(out), 2)
	if len(parts) != 2 || string(parts[0]) != "Compilation from IR - skipping loading of FCL\nBuild succeeded.\n" || string(parts[1]) != "warning: x\n" {
		t.Errorf("OclocMultiSplit: %q", parts)
	}
	if OclocMultiSplit([]byte(out), 3) != nil || OclocMultiSplit([]byte("text\n"+out), 2) != nil {
		t.Errorf("OclocMultiSplit cut an output that is not its lines' parts")
	}
}
