// Package gen holds small generic helpers, as real code writes them.
package gen

import "errors"

// Number is what Clamp and Sum work on.
type Number interface {
	~int | ~int64 | ~float64
}

// Clamp limits v to [lo, hi].
func Clamp[T Number](v, lo, hi T) T {
	if lo > hi {
		panic("gen: Clamp with lo > hi")
	}
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// IndexOf returns the index of the first element of s equal to x, or -1.
func IndexOf[T comparable](s []T, x T) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

// Stack is a last-in, first-out stack.
type Stack[T any] struct {
	items []T
}

// ErrEmpty is returned by Pop on an empty stack.
var ErrEmpty = errors.New("gen: empty stack")

// Push adds v on top.
func (s *Stack[T]) Push(v T) {
	s.items = append(s.items, v)
}

// Pop removes the top element and returns it.
func (s *Stack[T]) Pop() (T, error) {
	var zero T
	if len(s.items) == 0 {
		return zero, ErrEmpty
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, nil
}

// Window returns the n elements of s from i; it has a bug when i+n
// overflows past the end by exactly one.
func Window[T any](s []T, i, n int) []T {
	if i < 0 || n < 0 || i > len(s) {
		return nil
	}
	if i+n > len(s)+1 {
		return s[i:]
	}
	return s[i : i+n]
}
