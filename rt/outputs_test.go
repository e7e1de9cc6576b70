package rt

import (
	"errors"
	"reflect"
	"testing"
)

// A reported value whose unexported field holds an error (a lexer's err)
// is read through the field's address, as reflect.DeepEqual reads it:
// reporting it must not panic in reflect.Value.Interface.
func TestOutputsUnexportedErrorField(t *testing.T) {
	type lexer struct {
		pos int
		err error
	}
	l := &Layout{
		MaxLen: 4,
		Depth:  2,
		Shapes: []Shape{
			{Kind: ShapePointer, Elem: 1},
			{Kind: ShapeStruct, Fields: []Field{{Name: "pos", Index: 0, Shape: 2}, {Name: "err", Index: 1, Shape: 3}}},
			{Kind: ShapeScalar, K: KInt},
			{Kind: ShapeError},
		},
		Results: []Param{{Shape: 0}},
	}
	got := outputs(l, []reflect.Value{reflect.ValueOf(&lexer{pos: 3, err: errors.New("bad [")})}, nil)
	want := []Value{{Bits: 1}, {Bits: 3}, {Bits: 1}, {Str: "bad ["}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("outputs = %+v, want %+v", got, want)
	}
}
