// Package stack is a bounded stack of ints, with no tests: dowse explores
// its exported functions and methods directly.
package stack

import "errors"

// ErrEmpty is returned by Pop on an empty stack.
var ErrEmpty = errors.New("stack: empty")

// Stack is a stack of at most max ints.
type Stack struct {
	items []int
	max   int
}

// New returns an empty stack that holds at most max items.
func New(max int) (*Stack, error) {
	if max <= 0 {
		return nil, errors.New("stack: max must be positive")
	}
	return &Stack{max: max}, nil
}

// Push adds x on top of the stack.
func (s *Stack) Push(x int) error {
	if len(s.items) >= s.max {
		return errors.New("stack: full")
	}
	s.items = append(s.items, x)
	return nil
}

// Pop removes the top of the stack and returns it.
func (s *Stack) Pop() (int, error) {
	if len(s.items) == 0 {
		return 0, ErrEmpty
	}
	x := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return x, nil
}

// Len is the number of items on the stack.
func (s Stack) Len() int { return len(s.items) }

// Clamp limits x to [lo, hi].
func Clamp(x, lo, hi int) int {
	if hi < lo {
		panic("stack: empty range")
	}
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// MustNew is New for a max known to be valid; it panics otherwise.
func MustNew(max int) *Stack {
	s, err := New(max)
	if err != nil {
		panic(err)
	}
	return s
}

// Top returns the top item of the stack, or 0 if it is empty.
func (s *Stack) Top() int {
	return s.items[len(s.items)-1] // the empty case is forgotten
}
