package golden

// Greeting tests a string's length, a byte of it and compares it whole.
func Greeting(s string) bool {
	if len(s) > 2 && s[0] == 'h' {
		return true
	}
	return s == "yo"
}
