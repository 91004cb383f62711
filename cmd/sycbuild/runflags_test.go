package main

import "testing"

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "512": 512, "900M": 900 << 20, "16G": 16 << 30, "1.5g": 3 << 29, "2GiB": 2 << 30, "64k": 64 << 10, "1T": 1 << 40} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "G", "-1G", "12Q", "1e30"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q) succeeded", bad)
		}
	}
	if availableMemory() <= 0 {
		t.Error("no MemAvailable read from /proc/meminfo")
	}
}
