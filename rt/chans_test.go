package rt

import (
	"reflect"
	"testing"
)

// chanInputs builds the inputs of func(in <-chan int, out chan<- int) with
// length bound 3 from the elements of in.
func chanInputs(t *testing.T, elems ...int) (<-chan int, chan<- int) {
	t.Helper()
	l := &Layout{
		Params: []Param{{Name: "in", Shape: 0}, {Name: "out", Shape: 2}},
		Shapes: []Shape{
			{Kind: ShapeChan, Type: "<-chan int", Elem: 1},
			{Kind: ShapeScalar, Type: "int", K: KInt},
			{Kind: ShapeChan, Type: "chan<- int", Elem: 1, Send: true},
		},
		MaxLen: 3,
	}
	types := []reflect.Type{reflect.TypeFor[<-chan int](), reflect.TypeFor[chan<- int]()}
	if err := checkLayout(l, types, nil); err != nil {
		t.Fatal(err)
	}
	leaves, err := l.Leaves()
	if err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 4 || leaves[0].Path != "len(in)" || leaves[3].Path != "in[2]" {
		t.Fatalf("leaves %+v, want len(in) and 3 elements (out has none)", leaves)
	}
	vals := make([]Value, len(leaves))
	vals[0].Bits = uint64(len(elems))
	for i, e := range elems {
		vals[1+i].Bits = uint64(e)
	}
	for i, lf := range leaves {
		cur.inputs = append(cur.inputs, mk(Node{Op: OpInput, K: lf.K, Val: uint64(i)}))
	}
	b := newBuilder(l, l.Choices(), nil, vals)
	in, _ := b.arg(0, types[0])
	out, _ := b.arg(1, types[1])
	return in.Interface().(<-chan int), out.Interface().(chan<- int)
}

// TestChanReceives: followed receives get the elements' shadows and
// record whether they got one; len and cap have shadows; the end of the
// run records whether elements were left.
func TestChanReceives(t *testing.T) {
	begin(t)
	in, out := chanInputs(t, 5, 7)
	if cap(out) != 3 || len(out) != 0 {
		t.Fatalf("out has len %d, cap %d; want an empty channel with room for 3", len(out), cap(out))
	}
	if s := ChanCap(in); s == 0 || cur.nodes[s].Op != OpInput || cur.nodes[s].Val != 0 {
		t.Errorf("cap(in) has shadow %v, want the length leaf", s)
	}
	v, ok := <-in
	if c := Recv(9, in, ok); c == 0 || !ok || v != 5 {
		t.Fatalf("first receive %d, %v with shadow %v", v, ok, c)
	}
	if s := RecvSh(uint64(v)); s == 0 || cur.nodes[s].Val != 1 {
		t.Errorf("the element has shadow %v, want leaf in[0]", s)
	}
	if s := ChanLen(in); s == 0 || cur.nodes[s].Op != OpSub {
		t.Errorf("len(in) has shadow %v, want len - 1", s)
	}
	v, ok = <-in
	if c := RecvOk(in, ok); c == 0 || v != 7 || RecvSh(7) == 0 {
		t.Fatalf("second receive %d, %v", v, ok)
	}
	endChans()
	// The implicit branch of the first receive, then the end: no element
	// left (2 < len is false).
	if n := len(cur.events); n != 2 || !cur.events[0].Taken || cur.events[1].Taken || !cur.events[1].Implicit {
		t.Errorf("events %+v", cur.events)
	}
	if len(cur.conc) != 0 {
		t.Errorf("concretizations %v", cur.conc)
	}
}

// TestChanUnfollowed: a receive that was not reported (a select case,
// uninstrumented code) is found by the next reported one, or at the end of
// the run, and records a concretization; so does a channel passed to code
// dowse does not follow.
func TestChanUnfollowed(t *testing.T) {
	t.Run("next receive", func(t *testing.T) {
		begin(t)
		in, _ := chanInputs(t, 1, 2, 3)
		select {
		case <-in:
		default:
			t.Fatal("the input channel is empty")
		}
		v, ok := <-in
		Recv(9, in, ok)
		if RecvSh(uint64(v)) != 0 || len(cur.conc) == 0 {
			t.Errorf("a receive after an unreported one: shadow %v, concretizations %v", RecvSh(uint64(v)), cur.conc)
		}
	})
	t.Run("end of run", func(t *testing.T) {
		begin(t)
		in, _ := chanInputs(t, 1)
		for range in {
		}
		endChans()
		if len(cur.conc) == 0 {
			t.Error("a channel drained by unreported receives recorded no concretization")
		}
	})
	t.Run("lost", func(t *testing.T) {
		begin(t)
		in, _ := chanInputs(t, 1)
		ChanLost(4, in, "passed to f")
		if len(cur.conc) != 1 || cur.conc[0].Site != 4 {
			t.Errorf("concretizations %v", cur.conc)
		}
	})
}
