package golden

// Count counts the bytes of s equal to c.
func Count(s string, c byte) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
		}
	}
	return n
}

// Checks makes a closure per element of xs, each capturing its own x.
func Checks(xs []int) []func() bool {
	var fs []func() bool
	for _, x := range xs {
		fs = append(fs, func() bool { return x > 10 })
	}
	return fs
}
