// Package inner is compiled with the semantics of Go 1.21 too.
package inner

// Sum adds the values that closures created in a range loop return: all
// the last element, before Go 1.22.
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
