package rt

import (
	"fmt"
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

// boundTree is an interface whose mocks return more of it, and
// boundTreeMock a mock type of it as the harness declares one.
type boundTree interface{ Left() boundTree }

type boundTreeMock struct {
	left  []boundTree
	calls [1]int
}

func (m *boundTreeMock) Left() boundTree { return MockResult(m.left, &m.calls[0], false) }

// TestMockNodeBound checks the node bound: with MaxLen 2 a parameter
// holds at most two mock values, the root and the first one a call
// returns; a third that a call returns is nil, its choice leaf is
// reported (Nilled) and recorded as "nil or a mock" taken, so that no
// query asks for a mock the bound would make nil; the choice of an
// element returned after the bound, though nil in the input, is recorded
// that way too.
func TestMockNodeBound(t *testing.T) {
	l := &Layout{
		Params: []Param{{Name: "t", Shape: 0}},
		Shapes: []Shape{
			{Kind: ShapeIface, Type: "boundTree", Outs: []int{1}},
			{Kind: ShapeMock, Type: "*boundTreeMock", Mock: &Mock{Ptr: true, Scripts: true, NumMethods: 1, Calls: 2,
				Methods: []MockMethod{{Name: "Left", Field: "left", Outs: []int{0}}}}},
		},
		MaxLen: 2,
		Depth:  3,
	}
	leaves, err := l.Leaves()
	if err != nil {
		t.Fatal(err)
	}
	// The root's choice, then its two Left elements' choices, each
	// followed by its own two (the depth rule ends there): 1 + 2*(1+2) =
	// 7. The child's Left elements are leaves 2 and 3.
	if len(leaves) != 7 {
		t.Fatalf("%d leaves, want 7", len(leaves))
	}
	vals := make([]Value, len(leaves))
	for i := range vals {
		vals[i].Bits = 1 // every value a mock
	}
	vals[3].Bits = 0 // but the child's second Left element
	resetRun(0)
	cur.mockBound = l.MaxLen
	for i, lf := range leaves {
		cur.inputs = append(cur.inputs, mk(Node{Op: OpInput, K: lf.K, Val: uint64(i)}))
	}
	on.Store(true)
	defer on.Store(false)
	funcs := map[string]reflect.Value{"#*boundTreeMock": reflect.ValueOf((**boundTreeMock)(nil))}
	b := newBuilder(l, l.Choices(), funcs, vals)
	v, _ := b.arg(0, reflect.TypeFor[boundTree]())
	root := v.Interface().(boundTree)
	if root == nil {
		t.Fatal("the root is nil, want a mock (the first of two)")
	}
	child := root.Left() // leaf 1: the second mock
	if child == nil {
		t.Fatal("the first child is nil, want a mock (the second of two)")
	}
	if got := child.Left(); got != nil { // leaf 2: a third mock
		t.Errorf("the grandchild is %v, want nil (the bound is two mock values)", got)
	}
	if got := child.Left(); got != nil { // leaf 3: nil in the input
		t.Errorf("the grandchild's sibling is %v, want nil", got)
	}
	if want := []int{2}; !reflect.DeepEqual(cur.nilled, want) {
		t.Errorf("nilled leaves %v, want %v", cur.nilled, want)
	}
	if !cur.nodeBounded {
		t.Error("the run does not say the bound restricted it")
	}
	// The choices recorded: the root's and the child's ("is 0?" not
	// taken, "is 1?" taken), then one "0 or 1" taken for each of the
	// two grandchildren.
	var got []string
	for _, e := range cur.events {
		n := cur.nodes[e.Cond]
		got = append(got, fmt.Sprintf("%s %v", map[Op]string{OpEq: "==", OpLOr: "||"}[n.Op], e.Taken))
	}
	want := []string{"== false", "== true", "== false", "== true", "|| true", "|| true"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events %v, want %v", got, want)
	}
}
