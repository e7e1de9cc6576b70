// Package loop is compiled with the semantics of Go 1.21 (its go.mod):
// the variables of a loop are shared by all its iterations.
package loop

import "example.com/loopvar121/inner"

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

// Runes returns the rune that the pointers taken in a range loop over s
// point to: the last rune, before Go 1.22.
func Runes(s string) []rune {
	var ps []*rune
	for _, r := range s {
		ps = append(ps, &r)
	}
	out := make([]rune, len(ps))
	for i, p := range ps {
		out[i] = *p
	}
	return out
}

// Keys returns what closures created in a range loop over m see of the
// key: the same key for all, before Go 1.22.
func Keys(m map[string]int) []string {
	var fs []func() string
	for k := range m {
		fs = append(fs, func() string { return k })
	}
	var out []string
	for _, f := range fs {
		out = append(out, f())
	}
	return out
}

// Received returns what closures created in a range loop over c see of
// the element received: the last one, before Go 1.22.
func Received(c chan int) []int {
	var fs []func() int
	for v := range c {
		fs = append(fs, func() int { return v })
	}
	var out []int
	for _, f := range fs {
		out = append(out, f())
	}
	return out
}

// Counted returns what closures created in a three-clause loop see of the
// counter: its final value, before Go 1.22.
func Counted(n int) []int {
	var fs []func() int
	for i := 0; i < n; i++ {
		fs = append(fs, func() int { return i })
	}
	var out []int
	for _, f := range fs {
		out = append(out, f())
	}
	return out
}

// Total is Sum computed by a package of the module that dowse does not
// instrument by default.
func Total(xs []int) int { return inner.Sum(xs) }
