package p

import . "strings"

// HasAB reports whether s holds "ab": strings.Contains has a model.
func HasAB(s string) bool {
	return Contains(s, "ab")
}
