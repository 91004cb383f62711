package configs

import "testing"

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"0": 0, "1234": 1234, "10K": 10 << 10, "500M": 500 << 20, "20GiB": 20 << 30, "1.5G": 3 << 29,
		"2t": 2 << 40, "64 MB": 64 << 20, "100B": 100,
	} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "G", "ten", "-1G", "5X", "NaN", "1e30T", "5 GG"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		}
	}
}
