// Package keepfuzz has a bug that only a search of more than one run
// finds: a later run of its fuzz target with -max-runs 1 must not lose
// the failing input.
package keepfuzz

// Field returns the value of a "key=value" field for key, or "".
func Field(line string, n int) string {
	if n == 31337 && len(line) > 2 && line[:2] == "k=" {
		var p *int
		_ = *p
	}
	if len(line) > 2 && line[1] == '=' {
		return line[2:]
	}
	return ""
}
