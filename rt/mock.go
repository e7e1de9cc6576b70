package rt

import (
	"fmt"
	"reflect"
	"slices"
	"unsafe"
)

// Values of interface type and generated mock types (docs/mocks.md).
//
// The harness serves every dynamic type an interface input may take as
// "@#T": (*T)(nil), so that the worker finds the type T by the name the
// layout gives it (Shape.Type of the alternative). Mock types are
// compiled into the harness; their methods call MockResult, which
// returns the scripted results the worker stored in the mock's fields
// and hands their shadows to the caller like a stub's.

// dynType is the type served for alternative shape o, or nil.
func (b *builder) dynType(o int) reflect.Type {
	return dynType(b.l, b.funcs, o)
}

// dynType is the type of alternative o: served as "#"+Type, or the
// interface of a shape rt builds itself (an error, a reader), or a
// served variable's.
func dynType(l *Layout, funcs map[string]reflect.Value, o int) reflect.Type {
	switch s := &l.Shapes[o]; s.Kind {
	case ShapeError:
		return errorType
	case ShapeReader:
		return readerType
	case ShapeWriter:
		return writerType
	case ShapeContext:
		return contextType
	case ShapeTypeOf:
		return rtypeType
	case ShapeVar:
		if s.Wrap {
			return errorType
		}
		if f, ok := funcs["="+s.Type]; ok {
			return f.Type()
		}
		return nil
	}
	f, ok := funcs["#"+l.Shapes[o].Type]
	if !ok {
		return nil
	}
	return f.Type().Elem()
}

// rtypeType is the dynamic type of reflect.Type values.
var rtypeType = reflect.TypeOf(reflect.TypeFor[int]())

// fillIface sets the interface value v (shape index i) to nil or to a
// value of the dynamic type the choice leaf picks.
func (b *builder) fillIface(v reflect.Value, i int, sh *Shape) {
	if !b.u.Enter(b.l, i) {
		return // nil, no leaves
	}
	defer b.u.Leave(b.l, i)
	ch := ifaceChoice{leaf: b.index(b.next), n: len(sh.Outs)}
	for j, o := range sh.Outs {
		if b.l.Shapes[o].Kind == ShapeMock {
			ch.mocks = append(ch.mocks, j+1)
		}
	}
	var pick int
	switch {
	case len(ch.mocks) == 0:
		pick = b.pickAs(ch.n, true)
	case b.deferTo == nil:
		// Built with the parameter: the node bound applies now.
		b.takeChoice(&ch)
		pick = ch.pick
		var evs []Event
		if ch.isMock(ch.pick) && !countMock(b.param) || !ch.isMock(ch.pick) && boundReached(b.param) {
			evs, pick = ch.boundedChain(), ch.bounded()
			if pick != ch.pick {
				nilled(ch.leaf)
			}
		} else {
			evs = ch.chain(true)
		}
		for _, ev := range evs {
			b.rec(ev)
		}
	default:
		// In a mock script's element: the node bound applies when a
		// call returns the element (deferredElem.returned).
		start := len(*b.deferTo)
		b.takeChoice(&ch)
		pick = ch.pick
		for _, ev := range ch.chain(true) {
			b.rec(ev)
		}
		k := len(*b.held)
		*b.held = append(*b.held, heldChoice{ifaceChoice: ch, at: v, start: start, chainEnd: len(*b.deferTo)})
		defer func() { (*b.held)[k].end = len(*b.deferTo) }()
	}
	b.quiet++
	defer func() { b.quiet-- }()
	if sh.Pool {
		// The chosen alternative reads its leaves in the pool.
		start := b.next
		p := b.l.PoolOf(i, b.u, b.pools)
		if pick > 0 && pick <= len(sh.Outs) {
			outer := b.at
			b.at, b.next = PoolTable(p, pick, start, outer), 0
			b.fillAlt(v, sh.Outs[pick-1])
			b.at = outer
		}
		b.next = start + p.Size
		return
	}
	for j, o := range sh.Outs {
		if j+1 != pick {
			b.skip(o)
			continue
		}
		b.fillAlt(v, o)
	}
}

// fillAlt sets the interface value v to a value of alternative o, built
// from the next leaves.
func (b *builder) fillAlt(v reflect.Value, o int) {
	dv := reflect.New(b.dynType(o)).Elem()
	s, _ := b.fill(dv, o)
	switch dv.Kind() {
	case reflect.Struct, reflect.Array:
		// The interface holds a copy: the cells of dv are not its.
		if cellsIn(dv.Addr().Pointer(), dv.Type().Size()) {
			Conc(InputSite, "the fields of a value held by an interface input")
		}
	default:
		if s != 0 && dv.Kind() != reflect.Slice {
			// Values in interfaces carry no shadow: branches on this
			// one are concrete, which the verdict must say.
			Conc(InputSite, "the value of an interface input")
		} else if s != 0 {
			Conc(InputSite, "the length of a slice held by an interface input")
		}
	}
	v.Set(dv)
}

// fillMock makes v a value of a generated mock type and stores each
// method's scripted results, with their shadows, in its fields.
func (b *builder) fillMock(v reflect.Value, sh *Shape) {
	m := sh.Mock
	sv := v
	if m.Ptr {
		p := reflect.New(v.Type().Elem())
		v.Set(p)
		sv = p.Elem()
	}
	if !m.Scripts {
		return
	}
	settable := func(f reflect.Value) reflect.Value {
		return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	}
	if !m.Ptr {
		calls := settable(sv.FieldByName("calls"))
		calls.Set(reflect.New(calls.Type().Elem()))
	}
	for _, md := range m.Methods {
		f := settable(sv.FieldByName(md.Field))
		n := m.CallsOf(&md)
		f.Set(reflect.MakeSlice(f.Type(), n, n))
		for c := 0; c < n; c++ {
			// The choices of the element (an error's, a nested mock's
			// type) become branches when a call returns it: a script
			// element no call reaches adds no branch the search would
			// flip to no effect.
			e := f.Index(c)
			var d deferredElem
			savedTo, savedHeld := b.deferTo, b.held
			b.deferTo, b.held = &d.evs, &d.held
			if !md.Multi {
				b.fillAt(e, md.Outs[0])
			} else {
				for k, o := range md.Outs {
					b.fillAt(settable(e.Field(k)), o)
				}
			}
			b.deferTo, b.held = savedTo, savedHeld
			d.param = b.param
			if (len(d.evs) > 0 || len(d.held) > 0) && lock() {
				if cur.deferred == nil {
					cur.deferred = map[uintptr]deferredElem{}
				}
				cur.deferred[e.UnsafeAddr()] = d
				unlock()
			}
		}
	}
}

// deferredElem is what building a mock script's element left for the
// call that returns it: the choices made (evs), the mock values the
// element holds, and the parameter it belongs to.
type deferredElem struct {
	evs   []Event
	held  []heldChoice
	param int
}

// ifaceChoice is the choice of an interface value's dynamic type among
// n alternatives (0 is nil) of which mocks (1-based) are generated mock
// types: the choice leaf, its shadow and the alternative it picks.
type ifaceChoice struct {
	leaf  int
	s     S
	pick  int
	n     int
	mocks []int
}

func (c *ifaceChoice) isMock(j int) bool { return slices.Contains(c.mocks, j) }

// takeChoice takes c's choice leaf: its value and shadow.
func (b *builder) takeChoice(c *ifaceChoice) {
	var x Value
	x, c.s = b.take()
	c.pick = pickOf(x, c.n)
}

// chain is the choice recorded as a switch would record it: "is it 0?",
// "is it 1?", ..., up to the one picked.
func (c *ifaceChoice) chain(implicit bool) []Event {
	evs := make([]Event, 0, c.pick+1)
	for j := 0; j <= c.pick; j++ {
		evs = append(evs, Event{Site: InputSite, Taken: j == c.pick, Cond: c.is(j), Implicit: implicit})
	}
	return evs
}

// bounded is the alternative picked once the parameter has all the mock
// values the node bound allows: nil instead of a mock type.
func (c *ifaceChoice) bounded() int {
	if c.isMock(c.pick) {
		return 0
	}
	return c.pick
}

// boundedChain is the choice recorded once the node bound is reached:
// among nil and the alternatives that are no mock types, where nil stands
// for the mock types too ("the leaf is 0 or a mock type's"), so that the
// search never asks for a mock the bound would make nil.
func (c *ifaceChoice) boundedChain() []Event {
	if lock() {
		cur.nodeBounded = true
		unlock()
	}
	pick := c.bounded()
	nilOrMock := c.is(0)
	for _, m := range c.mocks {
		if nilOrMock == 0 {
			break // a leaf without a shadow: a concrete choice
		}
		nilOrMock = mk(Node{Op: OpLOr, K: KBool, A: nilOrMock, B: c.is(m)})
	}
	evs := []Event{{Site: InputSite, Taken: pick == 0, Cond: nilOrMock, Implicit: true}}
	for j := 1; j <= pick; j++ {
		if !c.isMock(j) {
			evs = append(evs, Event{Site: InputSite, Taken: j == pick, Cond: c.is(j), Implicit: true})
		}
	}
	return evs
}

// is is the shadow of "the leaf picks alternative j".
func (c *ifaceChoice) is(j int) S {
	return Cmp(OpEq, KInt, c.s, uint64(c.pick), 0, uint64(j))
}

// heldChoice is an interface value in a mock script's element (not
// inside another mock, whose scripts are elements of their own) whose
// alternatives include mock types: the value at, its choice, and where
// its events are in the element's: the choice evs[start:chainEnd], the
// dynamic value's evs[chainEnd:end].
type heldChoice struct {
	ifaceChoice
	at                   reflect.Value
	start, chainEnd, end int
}

// returned counts the mock values d holds against the node bound, in
// the order they were built, makes nil those beyond it, and returns the
// choices to record: d's, with the choices made past the bound recorded
// as boundedChain records them, and without the events of the values
// made nil.
func (d *deferredElem) returned() []Event {
	if len(d.held) == 0 {
		return d.evs
	}
	evs, from := make([]Event, 0, len(d.evs)), 0
	for _, h := range d.held {
		if h.isMock(h.pick) && countMock(d.param) {
			continue
		}
		if !h.isMock(h.pick) && !boundReached(d.param) {
			continue
		}
		evs = append(append(evs, d.evs[from:h.start]...), h.boundedChain()...)
		from = h.chainEnd
		if h.isMock(h.pick) {
			h.at.SetZero()
			nilled(h.leaf)
			from = h.end
		}
	}
	return append(evs, d.evs[from:]...)
}

// boundReached reports whether parameter p has all the mock values the
// node bound allows.
func boundReached(p int) bool {
	if !lock() {
		return false
	}
	defer unlock()
	return cur.mocks[p] >= cur.mockBound
}

// countMock counts one more mock value of parameter p, if the node
// bound allows it: a parameter holds at most Layout.MaxLen generated mock
// values (at least 1), whether built with it or returned by its mocks'
// methods (docs/mocks.md, "The node bound").
func countMock(p int) bool {
	if !lock() {
		return true
	}
	defer unlock()
	if cur.mocks[p] >= cur.mockBound {
		return false
	}
	if cur.mocks == nil {
		cur.mocks = map[int]int{}
	}
	cur.mocks[p]++
	return true
}

// nilled notes that the node bound made the mock value of choice leaf
// leaf nil.
func nilled(leaf int) {
	if lock() {
		cur.nilled = append(cur.nilled, leaf)
		unlock()
	}
}

// mockCalls are the calls the generated mocks the parameters args hold
// recorded (Result.MockCalls): a parameter of interface shape whose
// dynamic type is one of its alternatives' pointer mock types with
// scripts, which record their calls in their field got.
func mockCalls(l *Layout, funcs map[string]reflect.Value, args []reflect.Value) [][]string {
	var out [][]string
	for i, a := range args {
		if i >= len(l.Params) || a.Kind() != reflect.Interface || a.IsNil() {
			continue
		}
		sh := &l.Shapes[l.Params[i].Shape]
		if sh.Kind != ShapeIface {
			continue
		}
		d := a.Elem()
		for _, o := range sh.Outs {
			m := l.Shapes[o].Mock
			if l.Shapes[o].Kind != ShapeMock || !m.Ptr || !m.Scripts || dynType(l, funcs, o) != d.Type() || d.IsNil() {
				continue
			}
			got := d.Elem().FieldByName("got")
			if !got.IsValid() || got.Kind() != reflect.Slice || got.Type().Elem().Kind() != reflect.String {
				break
			}
			if out == nil {
				out = make([][]string, len(args))
			}
			out[i] = make([]string, got.Len())
			for k := range out[i] {
				out[i][k] = got.Index(k).String()
			}
			break
		}
	}
	return out
}

// fitsMock checks that mock shape sh describes type t.
func (c *checker) fitsMock(sh *Shape, t reflect.Type) error {
	m := sh.Mock
	st := t
	if m.Ptr {
		if t.Kind() != reflect.Pointer {
			return fmt.Errorf("mock %s is not a pointer", t)
		}
		st = t.Elem()
	}
	if !m.Scripts {
		return nil
	}
	if st.Kind() != reflect.Struct {
		return fmt.Errorf("mock %s is not a struct", t)
	}
	if f, ok := st.FieldByName("calls"); !ok || f.Type.Kind() == reflect.Pointer == m.Ptr {
		return fmt.Errorf("mock %s has no call counters", t)
	}
	for _, md := range m.Methods {
		f, ok := st.FieldByName(md.Field)
		if !ok || f.Type.Kind() != reflect.Slice {
			return fmt.Errorf("mock %s has no field %s", t, md.Field)
		}
		e := f.Type.Elem()
		if !md.Multi {
			if len(md.Outs) != 1 {
				return fmt.Errorf("mock %s: %s has %d results", t, md.Name, len(md.Outs))
			}
			if err := c.fits(md.Outs[0], e); err != nil {
				return err
			}
			continue
		}
		if e.Kind() != reflect.Struct || e.NumField() != len(md.Outs) {
			return fmt.Errorf("mock %s: the results of %s do not fit", t, md.Name)
		}
		for k, o := range md.Outs {
			if err := c.fits(o, e.Field(k).Type); err != nil {
				return err
			}
		}
	}
	return nil
}

// fitsIface checks interface shape sh against type t: every dynamic type
// offered is served and implements t.
func (c *checker) fitsIface(sh *Shape, t reflect.Type) error {
	if t.Kind() != reflect.Interface {
		return fmt.Errorf("shape %s (%s) does not fit type %s", sh.Kind, sh.Type, t)
	}
	for _, o := range sh.Outs {
		dt := dynType(c.l, c.funcs, o)
		if dt == nil {
			return fmt.Errorf("the worker has no type %s", c.l.Shapes[o].Type)
		}
		if !dt.Implements(t) {
			return fmt.Errorf("%s does not implement %s", dt, t)
		}
		if err := c.fits(o, dt); err != nil {
			return err
		}
	}
	return nil
}

// MockResult is the body of a generated mock method in the worker: it
// returns the scripted results of call *n (the last ones after the
// script, zero values without one), counts the call, and leaves the
// results' shadows for the caller (Ret), as the stubs of func inputs do.
// multi says an element is a struct of several results, one per field.
// The arguments are not followed: the frame instrumented code announced
// for the call is dropped.
func MockResult[T any](script []T, n *int, multi bool) (r T) {
	if on.Load() && lock() {
		cur.pending.valid = false
		unlock()
	}
	i := *n
	*n++
	if len(script) == 0 {
		Ret(0)
		return r
	}
	i = min(i, len(script)-1)
	e := reflect.ValueOf(&script[i]).Elem()
	if on.Load() && lock() {
		d, ok := cur.deferred[e.UnsafeAddr()]
		delete(cur.deferred, e.UnsafeAddr())
		unlock()
		if ok {
			for _, ev := range d.returned() {
				record(ev)
			}
		}
	}
	if !multi {
		Ret(0, shadowAt(e))
		return script[i]
	}
	args := make([]Arg, e.NumField())
	for k := range args {
		args[k] = shadowAt(e.Field(k))
	}
	Ret(0, args...)
	return script[i]
}

// MockFill copies the scripted bytes of a Read-like mock method's call
// into its argument p, with their shadows (io.Reader's contract: Read
// fills p): field is the index, in the results struct, of the bytes of
// the call that n calls counted (MockResult counted it). How many bytes
// it copies depends on their number, a length leaf: MockFill records
// "j < len" before each byte it copies, and the "no more" that ends the
// copy, as implicit branches, so the search can lengthen the bytes. It
// leaves the result shadows MockResult left alone.
func MockFill[T any](p []byte, script []T, n int, field int) {
	if len(script) == 0 {
		return
	}
	e := reflect.ValueOf(&script[min(n-1, len(script)-1)]).Elem()
	data := e.Field(field).Bytes()
	s := Ld(e.Field(field).UnsafeAddr(), uint64(len(data)))
	k := copy(p, data)
	if !on.Load() {
		return
	}
	if s != 0 {
		for j := 0; j <= k && j < len(p); j++ {
			record(Event{Site: InputSite, Taken: j < len(data), Cond: Cmp(OpLt, KInt, 0, uint64(j), s, uint64(len(data))), Implicit: true})
		}
	}
	if k > 0 {
		Copy(uintptr(unsafe.Pointer(&p[0])), uintptr(unsafe.Pointer(&data[0])), uintptr(k))
	}
}

// MockNone is the body of a method of a mock without scripts: its
// results are zero values, without shadows.
func MockNone() {
	if on.Load() && lock() {
		cur.pending.valid = false
		unlock()
	}
	Ret(0)
}

// shadowAt is the Arg of the value in memory at v (addressable), with the
// shadow its cell holds (aggregates by address).
func shadowAt(v reflect.Value) Arg {
	addr := v.UnsafeAddr()
	var fp uint64
	switch v.Kind() {
	case reflect.Array, reflect.Struct:
		return Arg{S: Agg, F: uint64(addr), N: v.Type().Size()}
	case reflect.Bool:
		fp = B(v.Bool())
	case reflect.String:
		fp = FS(v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		fp = uint64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		fp = v.Uint()
	case reflect.Slice:
		fp = uint64(v.Len())
	default:
		return Arg{}
	}
	return Arg{S: Ld(addr, fp), F: fp}
}
