// Package kinds is a fixture of the survey: one function per kind of
// finding, and one whose assertion is not on a parameter.
package kinds

import (
	"errors"
	"io"
	"os"
	"reflect"
)

// Open finds a *os.PathError in err.
func Open(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Path
	}
	return ""
}

// Fields counts the fields of a struct type.
func Fields(t reflect.Type) int {
	if t.Kind() != reflect.Struct {
		return 0
	}
	return t.NumField()
}

// Kind switches on the dynamic type of r.
func Kind(r io.Reader) string {
	switch r.(type) {
	case io.WriterTo:
		return "writer-to"
	case nil:
		return "nil"
	}
	return "reader"
}

// Local asserts a local variable, not a parameter: not counted.
func Local() bool {
	var v any = 1
	_, ok := v.(int)
	return ok
}
