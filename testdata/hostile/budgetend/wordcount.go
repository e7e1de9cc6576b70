// Package wordcount counts the words, numbers and punctuation of a text.
package wordcount

// Stats are the counts of a text.
type Stats struct {
	Words, Numbers, Punct int
}

// Of counts the words (runs of letters), numbers (runs of digits) and
// punctuation marks of s.
func Of(s string) Stats {
	var st Stats
	prev := byte(' ')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isLetter(c):
			if !isLetter(prev) {
				st.Words++
			}
		case '0' <= c && c <= '9':
			if prev < '0' || prev > '9' {
				st.Numbers++
			}
		case c == '.' || c == ',' || c == '!' || c == '?':
			st.Punct++
		}
		prev = c
	}
	return st
}

// Longest is the length of the longest word of s.
func Longest(s string) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
