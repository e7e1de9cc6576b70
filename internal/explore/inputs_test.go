package explore

import (
	"testing"

	"github.com/dowse-go/dowse/rt"
)

// An output's collection that is empty but not nil (its length
// rt.EmptySlice) is written as an empty literal, not as a length of -1;
// nil ones keep their lengths, and no slot beyond the length is written.
func TestInputTextEmpty(t *testing.T) {
	l := &rt.Layout{
		Params: []rt.Param{{Name: "xs", Shape: 0}, {Name: "m", Shape: 2}},
		Shapes: []rt.Shape{
			{Kind: rt.ShapeSlice, Elem: 1},
			{Kind: rt.ShapeScalar, K: rt.KInt},
			{Kind: rt.ShapeMap, Key: 1, Elem: 1},
		},
		MaxLen: 1, Depth: 1,
	}
	leaves, err := l.Leaves()
	if err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 5 {
		t.Fatalf("%d leaves, want len(xs), xs[0], len(m), a key and a value", len(leaves))
	}
	for _, tt := range []struct {
		name string
		in   []rt.Value
		want string
	}{
		{"empty", []rt.Value{{Bits: rt.EmptySlice}, {}, {Bits: rt.EmptySlice}, {}, {}}, "xs=[]{}, m=map{}"},
		{"nil", []rt.Value{{Bits: 0}, {}, {Bits: 0}, {}, {}}, "len(xs)=0, len(m)=0"},
		{"one element", []rt.Value{{Bits: 1}, {Bits: 7}, {Bits: 1}, {Bits: 2}, {Bits: 3}}, "len(xs)=1, xs[0]=7, len(m)=1, key(m, 0)=2, value(m, 0)=3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := InputText(leaves, tt.in); got != tt.want {
				t.Errorf("InputText = %s, want %s", got, tt.want)
			}
		})
	}
}
