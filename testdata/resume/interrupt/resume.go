// Package resume has a function whose behaviour is all found in moments,
// and one whose paths never run out: a run stopped while it explores the
// second has finished the first.
package resume

import "fmt"

// Label names n: long when its decimal form is.
func Label(n int) string {
	s := fmt.Sprint(n)
	if len(s) > 3 {
		return "long"
	}
	return s
}

// Count counts the letters a and b of s: every string of another
// sequence of them takes another path.
func Count(s string) (a, b int) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 'a':
			a++
		case 'b':
			b++
		}
	}
	return a, b
}
