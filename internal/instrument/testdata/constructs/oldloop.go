//go:build go1.21

package constructs

// This file is compiled with Go 1.21 semantics: the variables of a range
// loop are shared by all iterations.

// SharedCaptures returns the values the closures created in a range loop
// see after it: all the last element, before Go 1.22.
func SharedCaptures(xs []int) []int {
	var fs []func() int
	for _, x := range xs {
		fs = append(fs, func() int { return x })
	}
	out := make([]int, 0, len(fs))
	for _, f := range fs {
		out = append(out, f())
	}
	return out
}

// SharedAddresses reports whether the addresses taken of the iteration
// variable in every iteration are the same.
func SharedAddresses(s string) bool {
	var first *rune
	same := true
	for _, r := range s {
		p := &r
		if first == nil {
			first = p
		}
		same = same && p == first
	}
	return same
}

// Tally has a pointer method.
type Tally struct{ n int }

// Inc increments the counter.
func (c *Tally) Inc() *Tally { c.n++; return c }

// SharedReceivers calls a pointer method on the iteration variable and
// reports whether every call saw the same variable.
func SharedReceivers(cs []Tally) bool {
	var first *Tally
	same := true
	for _, c := range cs {
		p := c.Inc()
		if first == nil {
			first = p
		}
		same = same && p == first
	}
	return same
}
