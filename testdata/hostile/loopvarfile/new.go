package loopvarfile

// SumNew is Sum in a file of the module's own version: each closure sees
// its own element.
func SumNew(xs []int) int {
	var fs []func() int
	for _, v := range xs {
		fs = append(fs, func() int { return v })
	}
	s := 0
	for _, f := range fs {
		s += f()
	}
	return s
}
