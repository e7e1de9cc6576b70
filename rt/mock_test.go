package rt

import (
	"reflect"
	"testing"
)

// deferMock is a mock type as the harness declares it: a script of
// errors for its method Next, and call counters.
type deferMock struct {
	next  []error
	calls [1]int
}

// TestMockChoicesWhenReturned checks that the choices made building a
// mock's script elements (here, whether each error is nil) become
// branches of the run when a call returns the element, once, and never
// for an element no call returns.
func TestMockChoicesWhenReturned(t *testing.T) {
	l := &Layout{
		Params: []Param{{Name: "m", Shape: 0}},
		Shapes: []Shape{
			{Kind: ShapeMock, Type: "*deferMock", Mock: &Mock{Ptr: true, Scripts: true, NumMethods: 1, Calls: 3,
				Methods: []MockMethod{{Name: "Next", Field: "next", Outs: []int{1}}}}},
			{Kind: ShapeError, Type: "error"},
		},
		MaxLen: 3,
		Depth:  3,
	}
	leaves, err := l.Leaves()
	if err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 6 {
		t.Fatalf("%d leaves, want 6 (a choice and a message per scripted call)", len(leaves))
	}
	vals := make([]Value, len(leaves))
	for i, lf := range leaves {
		if lf.Choice {
			vals[i].Bits = 1 // every error non-nil
		}
	}
	resetRun(0)
	for i, lf := range leaves {
		cur.inputs = append(cur.inputs, mk(Node{Op: OpInput, K: lf.K, Val: uint64(i)}))
	}
	on.Store(true)
	defer on.Store(false)
	b := newBuilder(l, l.Choices(), nil, vals)
	v, _ := b.arg(0, reflect.TypeOf(&deferMock{}))
	m := v.Interface().(*deferMock)
	if n := len(cur.events); n != 0 {
		t.Fatalf("building the mock recorded %d branches, want 0", n)
	}
	choices := func() int {
		n := 0
		for _, e := range cur.events {
			if e.Site == InputSite {
				n++
			}
		}
		return n
	}
	// Each error is one choice branch (non-nil), recorded when the
	// call that returns it is made.
	for call := 1; call <= 3; call++ {
		if err := MockResult(m.next, &m.calls[0], false); err == nil {
			t.Fatalf("call %d: nil error, want the scripted one", call)
		}
		if got := choices(); got != call {
			t.Fatalf("after call %d: %d branches, want %d (one per element returned)", call, got, call)
		}
	}
	MockResult(m.next, &m.calls[0], false) // the last element again
	if got := choices(); got != 3 {
		t.Errorf("a fourth call recorded the last element's choice again: %d branches, want 3", got)
	}
}
