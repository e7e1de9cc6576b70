// Package pair parses key=value pairs.
package pair

import "strings"

// Parse splits a key=value pair; a key "boom" writes to a nil map.
func Parse(s string) (key, value string, ok bool) {
	key, value, ok = strings.Cut(s, "=")
	if !ok {
		return "", "", false
	}
	if key == "boom" {
		var m map[string]int
		m[value]++
	}
	return key, value, true
}

// Weight sums the weights of the bytes of s: letters 1, digits 2.
func Weight(s string) int {
	w := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z':
			w++
		case '0' <= c && c <= '9':
			w += 2
		}
	}
	return w
}
