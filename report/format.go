package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// formatDuration writes d with three significant digits or so: "850 µs",
// "42.1 ms", "3.25 s", "2 min 05 s".
func formatDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0 s"
	case d < time.Millisecond:
		return strconv.FormatInt(d.Microseconds(), 10) + " µs"
	case d < 100*time.Millisecond:
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + " s"
	}
	s := int64(d.Round(time.Second) / time.Second)
	sec := strconv.FormatInt(s%60, 10)
	if len(sec) < 2 {
		sec = "0" + sec
	}
	return strconv.FormatInt(s/60, 10) + " min " + sec + " s"
}

// formatBytes writes n in the largest binary unit that keeps it at least 1:
// "512 B", "4.0 KiB", "121.2 MiB".
func formatBytes(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, u := float64(n)/1024, 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[u:u+1] + "iB"
}

// naturalCompare orders strings with their runs of digits compared as
// numbers ("module_2" before "module_10"), and otherwise byte by byte;
// strings equal that way ("m01", "m1") are ordered byte by byte.
func naturalCompare(a, b string) int {
	if c := naturalOrder(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func naturalOrder(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := trimZeros(a[:da]), trimZeros(b[:db])
			if len(na) != len(nb) {
				if len(na) < len(nb) {
					return -1
				}
				return 1
			}
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			if a[0] < b[0] {
				return -1
			}
			return 1
		}
		a, b = a[1:], b[1:]
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	}
	return 1
}

// digits is the length of s's leading run of ASCII digits.
func digits(s string) int {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
