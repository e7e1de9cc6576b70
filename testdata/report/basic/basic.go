// Package basic reads a tiny header: a report fixture with a finding, an
// outcome no input takes and a branch only long inputs reach.
package basic

// Kind names the kind of a header by its first byte.
func Kind(b []byte) string {
	if len(b) == 0 {
		return "empty"
	}
	switch b[0] {
	case 'A':
		return "a"
	case 'B':
		if len(b) > 20 && b[20] == 'z' {
			return "long"
		}
		return "b"
	}
	return "other"
}

// Scale divides a by b; it panics when b is 0.
func Scale(a, b int) int {
	if a > 10 && a < 5 {
		return -1
	}
	return a / b
}
