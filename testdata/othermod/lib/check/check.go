// Package check classifies product codes.
package check

// Kind returns the kind of a product code: "tool" for codes "T-" followed
// by two digits whose sum is 9, "part" for other codes starting with "P",
// "" for everything else.
func Kind(code string) string {
	switch {
	case len(code) == 4 && code[0] == 'T' && code[1] == '-' && digit(code[2]) && digit(code[3]) &&
		(code[2]-'0')+(code[3]-'0') == 9:
		return "tool"
	case len(code) > 0 && code[0] == 'P':
		return "part"
	}
	return ""
}

func digit(b byte) bool { return '0' <= b && b <= '9' }
