// Package describe says what a value is, for a log line.
package describe

import (
	"fmt"
	"reflect"
)

// Point is a position on a grid, encoded with its codec tags.
type Point struct {
	X    int `codec:"x"`
	Y    int `codec:"y,omitempty"`
	seen bool
}

// Describe says what v is: its error or its name if it has one, its
// length if it has one, else how many of its fields a codec encodes.
func Describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case error:
		return "error " + x.Error()
	case fmt.Stringer:
		return "stringer " + x.String()
	case interface{ Len() int }:
		if x.Len() > 3 {
			return "long"
		}
		return "short"
	}
	t := reflect.TypeOf(v)
	if t.Kind() != reflect.Struct {
		return "scalar"
	}
	n := 0
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if _, ok := f.Tag.Lookup("codec"); ok {
			n++
		}
	}
	if n == 2 {
		return "two encoded fields"
	}
	return "struct"
}
