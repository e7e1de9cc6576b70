// Package automocks is a fixture of generated mock types for automatic
// targets (no PUT): its exported functions branch on the dynamic type of
// interface parameters (comma-ok assertions to optional interfaces),
// which only values of types nobody wrote reach. Two files use the same
// interfaces, so their generated test files share mock types.
package automocks

import "errors"

// Store is where Save writes.
type Store interface {
	Put(key string, v int) error
}

// Flusher is an optional extension of a Store.
type Flusher interface {
	Flush() error
}

// Sizer is a store that knows how much it holds.
type Sizer interface {
	Size() int
}

// Save puts v under key, flushes the stores that can be flushed and says
// what kind of store it wrote to.
func Save(s Store, key string, v int) (string, error) {
	if s == nil {
		return "", errors.New("no store")
	}
	if err := s.Put(key, v); err != nil {
		return "", err
	}
	if f, ok := s.(Flusher); ok {
		if err := f.Flush(); err != nil {
			return "unflushed", err
		}
		if sz, ok := s.(Sizer); ok && sz.Size() > 100 {
			return "big", nil
		}
		return "flushed", nil
	}
	return "plain", nil
}
