package cache

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a size in bytes as a number with an optional unit: K, M,
// G or T (powers of 1024, with or without a trailing "B" or "iB"), as in
// "500M" or "20GiB".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRight(t, "KMGTkmgtiIbB")
	unit := strings.ToUpper(strings.TrimSpace(t[len(num):]))
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I")
	shift := 0
	switch unit {
	case "":
	case "K":
		shift = 10
	case "M":
		shift = 20
	case "G":
		shift = 30
	case "T":
		shift = 40
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q (K, M, G or T)", s, t[len(num):])
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || !(n >= 0) {
		return 0, fmt.Errorf("size %q: not a size (a number with K, M, G or T)", s)
	}
	v := n * float64(int64(1)<<shift)
	if v >= 1<<63 {
		return 0, fmt.Errorf("size %q: too large", s)
	}
	return int64(v), nil
}
