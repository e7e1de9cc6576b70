// Package recursion recurses and loops as deep as its inputs say.
package recursion

// Depth counts n down to zero by recursion: a negative n never gets
// there.
func Depth(n int) int {
	if n == 0 {
		return 0
	}
	return 1 + Depth(n-1)
}

// Steps counts n down to zero in a loop: a negative n never gets there.
func Steps(n int) int {
	s := 0
	for n != 0 {
		n--
		s++
	}
	return s
}
