//go:build go1.21

// This file's build line sets its language version to Go 1.21: the
// variables of its loops are shared by all iterations.
package loopvarfile

// Sum adds the values that closures created in a range loop return: all
// the last element in this file.
func Sum(xs []int) int {
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
