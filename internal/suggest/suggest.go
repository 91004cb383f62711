// Package suggest finds the "did you mean" candidate for a mistyped name.
package suggest

// Closest returns the candidate closest to s by edit distance when it is a
// plausible typo of s (at most two edits, or a third of s's length), else "".
// Ties go to the candidate listed first.
func Closest(s string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		if d := Distance(s, c); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 || (bestD > 2 && bestD*3 > len(s)) {
		return ""
	}
	return best
}

// Distance is the Levenshtein distance between a and b, in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
