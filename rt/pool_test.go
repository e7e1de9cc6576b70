package rt

import (
	"reflect"
	"testing"
	"unsafe"
)

// poolShape is an interface whose dynamic types have different leaves.
type poolShape interface{ area() int }

type poolCircle struct{ R uint8 }

func (c *poolCircle) area() int { return 3 * int(c.R) * int(c.R) }

type poolRect struct {
	W, H uint16
	Name string
}

func (r *poolRect) area() int { return int(r.W) * int(r.H) }

// poolLayout is the layout of one poolShape parameter, pooled or not.
func poolLayout(pooled bool) *Layout {
	return &Layout{
		Params: []Param{{Name: "s", Shape: 0}},
		Shapes: []Shape{
			{Kind: ShapeIface, Type: "poolShape", Outs: []int{1, 4}, Pool: pooled},
			{Kind: ShapePointer, Type: "*poolCircle", Elem: 2},
			{Kind: ShapeStruct, Type: "poolCircle", Fields: []Field{{Name: "R", Index: 0, Shape: 3}}},
			{Kind: ShapeScalar, Type: "uint8", K: KUint8},
			{Kind: ShapePointer, Type: "*poolRect", Elem: 5},
			{Kind: ShapeStruct, Type: "poolRect", Fields: []Field{{Name: "W", Index: 0, Shape: 6}, {Name: "H", Index: 1, Shape: 6}, {Name: "Name", Index: 2, Shape: 7}}},
			{Kind: ShapeScalar, Type: "uint16", K: KUint16},
			{Kind: ShapeScalar, Type: "string", K: KString},
		},
		MaxLen: 3,
		Depth:  1,
	}
}

// The alternatives of a pooled interface share its pool: each class of
// leaf (a pointer's choice, a uint8, a uint16, a string) has as many
// leaves as the alternative that uses it most, and the chosen
// alternative's value is built from its leaves in the pool, with their
// shadows.
func TestPooledInterface(t *testing.T) {
	_, side := leafPaths(t, poolLayout(false))
	if len(side) != 7 {
		t.Fatalf("side by side: leaves %q, want 7", side)
	}
	l := poolLayout(true)
	funcs := map[string]reflect.Value{
		"#*poolCircle": reflect.ValueOf((**poolCircle)(nil)),
		"#*poolRect":   reflect.ValueOf((**poolRect)(nil)),
	}
	params := []reflect.Type{reflect.TypeFor[poolShape]()}
	if err := checkLayout(l, params, funcs); err != nil {
		t.Fatal(err)
	}
	leaves, paths := leafPaths(t, l)
	want := []string{"s.(type)", "s.pool[0] != nil", "s.pool[1]", "s.pool[2]", "s.pool[3]", "s.pool[4]"}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("leaves = %q, want %q", paths, want)
	}
	kinds := []Kind{KInt, KBool, KUint8, KUint16, KUint16, KString}
	for i, lf := range leaves {
		if lf.K != kinds[i] {
			t.Errorf("leaf %s has kind %v, want %v", lf.Path, lf.K, kinds[i])
		}
	}
	if !leaves[1].Choice || leaves[5].Max != 3 {
		t.Errorf("pool leaves %+v, %+v: want a choice and a string of at most 3 bytes", leaves[1], leaves[5])
	}
	if n := l.CountLeaves(100); n != len(want) {
		t.Fatalf("CountLeaves = %d, want %d", n, len(want))
	}
	u := Unfolding{}
	u.Enter(l, 0)
	if p := l.PoolOf(0, u, nil); p.Size != 5 || !reflect.DeepEqual(p.Alts, [][]int{{0, 1}, {0, 2, 3, 4}}) {
		t.Fatalf("pool %+v, want 5 leaves, the circle's at 0 and 1, the rectangle's at 0, 2, 3 and 4", p)
	}
	for _, tc := range []struct {
		vals []Value
		want poolShape
	}{
		{[]Value{{Bits: 2}, {Bits: 1}, {Bits: 99}, {Bits: 3}, {Bits: 4}, {Str: "sq"}}, &poolRect{W: 3, H: 4, Name: "sq"}},
		{[]Value{{Bits: 1}, {Bits: 1}, {Bits: 99}, {Bits: 3}, {Bits: 4}, {Str: "sq"}}, &poolCircle{R: 99}},
		{[]Value{{Bits: 1}, {Bits: 0}, {Bits: 99}, {Bits: 3}, {Bits: 4}, {Str: "sq"}}, (*poolCircle)(nil)},
		{[]Value{{Bits: 0}, {Bits: 1}, {Bits: 99}, {Bits: 3}, {Bits: 4}, {Str: "sq"}}, nil},
	} {
		begin(t)
		for i, lf := range leaves {
			cur.inputs = append(cur.inputs, mk(Node{Op: OpInput, K: lf.K, Val: uint64(i)}))
		}
		b := newBuilder(l, l.Choices(), funcs, tc.vals)
		v, _ := b.arg(0, params[0])
		if b.next != len(leaves) {
			t.Fatalf("built from %d of %d leaves", b.next, len(leaves))
		}
		got, _ := v.Interface().(poolShape)
		if !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("built %#v from %v, want %#v", got, tc.vals, tc.want)
		}
		if r, ok := got.(*poolRect); ok && Ld(uintptr(unsafe.Pointer(&r.H)), 4) != cur.inputs[4] {
			t.Fatal("the rectangle's H does not carry the shadow of its pool leaf")
		}
	}
}

// The pools of one walk flatten at most MaxPoolWork leaves: past it, a
// pool is too large for any layout, without being laid out.
func TestPoolWorkBound(t *testing.T) {
	outs := make([]int, 200)
	for k := range outs {
		outs[k] = 1
	}
	l := &Layout{
		Params: []Param{{Name: "v", Shape: 0}, {Name: "w", Shape: 3}},
		Shapes: []Shape{
			{Kind: ShapeIface, Type: "Big", Outs: outs, Pool: true},
			{Kind: ShapeArray, Type: "[3000]byte", Len: 3000, Elem: 2},
			{Kind: ShapeScalar, Type: "byte", K: KUint8},
			{Kind: ShapeIface, Type: "Small", Outs: []int{2}, Pool: true},
		},
		MaxLen: 3,
		Depth:  1,
	}
	memo := Pools{}
	if p := l.PoolOf(0, Unfolding{}, memo); p.Size != 3000 {
		t.Fatalf("the first pool has %d leaves, want 3000", p.Size)
	}
	if p := l.PoolOf(3, Unfolding{}, memo); p.Size <= MaxLeaves || p.Alts != nil {
		t.Fatalf("past the work bound, a pool of %d leaves laid out: want one larger than MaxLeaves, not laid out", p.Size)
	}
	if p := l.PoolOf(3, Unfolding{}, nil); p.Size != 1 {
		t.Fatalf("without a memo, the small pool has %d leaves, want 1", p.Size)
	}
}
