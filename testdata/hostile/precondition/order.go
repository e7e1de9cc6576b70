// Package order compares values held in interfaces, for containers
// that store any.
package order

import "strings"

// Comparator orders a and b: negative if a < b, zero if equal,
// positive if a > b.
type Comparator func(a, b any) int

// Ints compares two ints.
func Ints(a, b any) int {
	x := a.(int)
	y := b.(int)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// Strings compares two strings.
func Strings(a, b any) int {
	return strings.Compare(a.(string), b.(string))
}

// Key is the sort key of v: the length of a string, an int itself.
func Key(v any) int {
	if s, ok := v.(string); ok {
		return len(s)
	}
	return v.(int)
}
