// Package mocks is a fixture of dowse's generated mock types: its
// functions branch on the dynamic type of interface values (a type
// switch, comma-ok assertions to optional interfaces, a struct tag read
// by reflection), which only values of types nobody wrote reach.
package mocks

import (
	"io"
	"reflect"
)

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

// Mem is the package's own store.
type Mem struct{ n int }

// Put counts the values put.
func (m *Mem) Put(string, int) error {
	m.n++
	return nil
}

// Save puts v under key and flushes the stores that can be flushed. It
// says what kind of store it wrote to.
func Save(s Store, key string, v int) (string, error) {
	if err := s.Put(key, v); err != nil {
		return "", err
	}
	switch st := s.(type) {
	case *Mem:
		return "mem", nil
	case Flusher:
		if err := st.Flush(); err != nil {
			return "unflushed", err
		}
		if sz, ok := s.(Sizer); ok && sz.Size() > 100 {
			return "big", nil
		}
		return "flushed", nil
	}
	return "plain", nil
}

// Level reads the level of a store's type from the tag of its first
// field: `level:"high"` is 2, any other struct 1, other types 0.
func Level(s Store) int {
	t := reflect.TypeOf(s)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t.NumField() == 0 {
		return 0
	}
	if t.Field(0).Tag.Get("level") == "high" {
		return 2
	}
	return 1
}

// Kinder is a value that knows its kind.
type Kinder interface {
	Kind() string
}

// Header reads two bytes from r and says whether r is a Kinder whose
// stream starts with "GO".
func Header(r io.Reader) string {
	var b [2]byte
	if n, _ := r.Read(b[:]); n < 2 {
		return "short"
	}
	if _, ok := r.(Kinder); ok && b[0] == 'G' && b[1] == 'O' {
		return "kinder go"
	}
	return "other"
}
