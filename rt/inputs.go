package rt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"unsafe"
)

// checkLayout reports whether layout l describes parameters of the types
// params: the worker refuses a layout that does not fit the function it
// would call with the values built from it.
func checkLayout(l *Layout, params []reflect.Type) error {
	if err := l.Check(); err != nil {
		return err
	}
	if len(l.Params) != len(params) {
		return fmt.Errorf("layout has %d parameters, the function %d", len(l.Params), len(params))
	}
	seen := map[fit]bool{}
	for i, p := range l.Params {
		if err := fits(l, p.Shape, params[i], seen); err != nil {
			return fmt.Errorf("parameter %d (%s): %w", i+1, p.Name, err)
		}
	}
	return nil
}

type fit struct {
	shape int
	t     reflect.Type
}

var (
	errorType   = reflect.TypeFor[error]()
	contextType = reflect.TypeFor[context.Context]()
	writerType  = reflect.TypeFor[interface{ Write([]byte) (int, error) }]()
)

// fits checks shape i of l against type t.
func fits(l *Layout, i int, t reflect.Type, seen map[fit]bool) error {
	if seen[fit{i, t}] {
		return nil
	}
	seen[fit{i, t}] = true
	s := &l.Shapes[i]
	bad := func() error { return fmt.Errorf("shape %s (%s) does not fit type %s", s.Kind, s.Type, t) }
	switch s.Kind {
	case ShapeScalar:
		if kindOf(t) != s.K {
			return bad()
		}
	case ShapeArray:
		if t.Kind() != reflect.Array || t.Len() != s.Len {
			return bad()
		}
		return fits(l, s.Elem, t.Elem(), seen)
	case ShapeSlice:
		if t.Kind() != reflect.Slice {
			return bad()
		}
		return fits(l, s.Elem, t.Elem(), seen)
	case ShapePointer:
		if t.Kind() != reflect.Pointer {
			return bad()
		}
		return fits(l, s.Elem, t.Elem(), seen)
	case ShapeStruct:
		if t.Kind() != reflect.Struct {
			return bad()
		}
		for _, f := range s.Fields {
			if f.Index < 0 || f.Index >= t.NumField() || t.Field(f.Index).Name != f.Name {
				return fmt.Errorf("%s has no field %s at index %d", t, f.Name, f.Index)
			}
			if err := fits(l, f.Shape, t.Field(f.Index).Type, seen); err != nil {
				return err
			}
		}
	case ShapeError:
		if t != errorType {
			return bad()
		}
	case ShapeContext:
		if t != contextType {
			return bad()
		}
	case ShapeWriter:
		if t.Kind() != reflect.Interface || !reflect.TypeFor[*bytes.Buffer]().Implements(t) || !t.Implements(writerType) {
			return bad()
		}
	default:
		return bad()
	}
	return nil
}

func kindOf(t reflect.Type) Kind {
	switch t.Kind() {
	case reflect.Bool:
		return KBool
	case reflect.Int:
		return KInt
	case reflect.Int8:
		return KInt8
	case reflect.Int16:
		return KInt16
	case reflect.Int32:
		return KInt32
	case reflect.Int64:
		return KInt64
	case reflect.Uint:
		return KUint
	case reflect.Uint8:
		return KUint8
	case reflect.Uint16:
		return KUint16
	case reflect.Uint32:
		return KUint32
	case reflect.Uint64:
		return KUint64
	case reflect.Uintptr:
		return KUintptr
	case reflect.String:
		return KString
	}
	return KInvalid
}

// builder turns an input vector into argument values, gives their leaves
// their shadows and records the construction choices as branches. It walks
// the layout exactly as Layout.Leaves does.
type builder struct {
	l       *Layout
	choices []bool // per shape: values hold choices (Layout.Choices)
	vals    []Value
	next    int
	u       Unfolding
}

func newBuilder(l *Layout, choices []bool, vals []Value) *builder {
	return &builder{l: l, choices: choices, vals: vals, u: Unfolding{}}
}

// arg builds parameter i, of type t, and returns it with the Arg that
// carries its shadow into the target's prologue.
func (b *builder) arg(i int, t reflect.Type) (reflect.Value, Arg) {
	v := reflect.New(t).Elem()
	shape := b.l.Params[i].Shape
	s, fp := b.fill(v, shape)
	switch t.Kind() {
	case reflect.Array, reflect.Struct:
		return v, Arg{S: Agg, F: uint64(v.UnsafeAddr()), N: t.Size()}
	}
	return v, Arg{S: s, F: fp}
}

func (b *builder) take() (Value, S) {
	i := b.next
	b.next++
	return b.vals[i], cur.inputs[i]
}

// choose takes a choice leaf and records it as a branch of the run.
func (b *builder) choose() bool {
	x, s := b.take()
	c := x.Bits&1 != 0
	record(Event{Site: InputSite, Taken: c, Cond: s})
	return c
}

// fill sets the addressable value v from the leaves of shape and returns
// the shadow and fingerprint of v itself when it is a scalar, string or
// slice.
func (b *builder) fill(v reflect.Value, shape int) (S, uint64) {
	sh := &b.l.Shapes[shape]
	switch sh.Kind {
	case ShapeScalar:
		x, s := b.take()
		k := sh.K
		switch {
		case k == KBool:
			v.SetBool(x.Bits != 0)
			return s, B(x.Bits != 0)
		case k == KString:
			v.SetString(x.Str)
			return s, FS(v.String())
		case k.Signed():
			n := int64(signExtend(k, mask(k, x.Bits)))
			v.SetInt(n)
			return s, uint64(n)
		default:
			n := mask(k, x.Bits)
			v.SetUint(n)
			return s, n
		}
	case ShapeArray:
		for i := 0; i < sh.Len; i++ {
			b.fillAt(v.Index(i), sh.Elem)
		}
	case ShapeSlice:
		x, s := b.take()
		n := int(x.Bits)
		if n < 0 || n > b.l.MaxLen {
			n = 0
		}
		if n > 0 {
			v.Set(reflect.MakeSlice(v.Type(), n, n))
		}
		for i := 0; i < b.l.MaxLen; i++ {
			if b.choices[sh.Elem] && i <= n {
				record(Event{Site: InputSite, Taken: i < n, Cond: Cmp(OpLt, KInt, 0, uint64(i), s, uint64(n))})
			}
			if i < n {
				b.fillAt(v.Index(i), sh.Elem)
			} else {
				b.skip(sh.Elem)
			}
		}
		return s, uint64(n)
	case ShapeStruct:
		for _, f := range sh.Fields {
			fv := v.Field(f.Index)
			if !fv.CanSet() {
				fv = reflect.NewAt(fv.Type(), unsafe.Pointer(fv.UnsafeAddr())).Elem()
			}
			b.fillAt(fv, f.Shape)
		}
	case ShapePointer:
		if !b.u.Enter(sh.Elem, b.l.Depth) {
			return 0, 0 // nil
		}
		defer b.u.Leave(sh.Elem)
		if !b.choose() {
			b.skip(sh.Elem)
			return 0, 0
		}
		p := reflect.New(v.Type().Elem())
		b.fillAt(p.Elem(), sh.Elem)
		v.Set(p)
	case ShapeError:
		nonNil := b.choose()
		x, _ := b.take()
		if nonNil {
			v.Set(reflect.ValueOf(errors.New(x.Str)))
		}
	case ShapeContext:
		v.Set(reflect.ValueOf(context.Background()))
	case ShapeWriter:
		v.Set(reflect.ValueOf(new(bytes.Buffer)))
	}
	return 0, 0
}

// skip passes over the leaves of shape without building a value (the
// elements of a slice beyond its length, the pointee of a nil pointer).
func (b *builder) skip(shape int) {
	sh := &b.l.Shapes[shape]
	switch sh.Kind {
	case ShapeScalar:
		b.next++
	case ShapeArray:
		for i := 0; i < sh.Len; i++ {
			b.skip(sh.Elem)
		}
	case ShapeSlice:
		b.next++
		for i := 0; i < b.l.MaxLen; i++ {
			b.skip(sh.Elem)
		}
	case ShapeStruct:
		for _, f := range sh.Fields {
			b.skip(f.Shape)
		}
	case ShapePointer:
		if b.u.Enter(sh.Elem, b.l.Depth) {
			b.next++
			b.skip(sh.Elem)
			b.u.Leave(sh.Elem)
		}
	case ShapeError:
		b.next += 2
	}
}

// fillAt fills v, which lives in memory, and records its shadow cell.
func (b *builder) fillAt(v reflect.Value, shape int) {
	s, fp := b.fill(v, shape)
	if s != 0 {
		St(v.UnsafeAddr(), s, fp)
	}
}

// unbuilder turns result values back into the flat form of their layout
// (the inverse of builder): the worker reports an automatic target's
// results this way, and emit writes them as the rows' expected values.
type unbuilder struct {
	l    *Layout
	u    Unfolding
	vals []Value
	ok   bool // every value fit its shape
}

// outputs flattens the results of a call after the layout's Results, and
// the arguments it lists in After as they are after the call, or
// returns nil if one does not fit (a slice longer than the length bound,
// a list deeper than the unfolding bound, a dynamic error type that is
// nil as a pointer).
func outputs(l *Layout, results, args []reflect.Value) []Value {
	if len(l.Results) != len(results) || len(l.Results)+len(l.After) == 0 {
		return nil
	}
	ub := &unbuilder{l: l, u: Unfolding{}, vals: []Value{}, ok: true}
	for i, r := range l.Results {
		ub.value(results[i], r.Shape)
	}
	for _, i := range l.After {
		ub.value(args[i], l.Params[i].Shape)
	}
	if !ub.ok {
		return nil
	}
	return ub.vals
}

func (ub *unbuilder) value(v reflect.Value, shape int) {
	sh := &ub.l.Shapes[shape]
	switch sh.Kind {
	case ShapeScalar:
		switch {
		case sh.K == KBool:
			ub.vals = append(ub.vals, Value{Bits: B(v.Bool())})
		case sh.K == KString:
			ub.vals = append(ub.vals, Value{Str: v.String()})
		case sh.K.Signed():
			ub.vals = append(ub.vals, Value{Bits: mask(sh.K, uint64(v.Int()))})
		default:
			ub.vals = append(ub.vals, Value{Bits: v.Uint()})
		}
	case ShapeArray:
		for i := 0; i < sh.Len; i++ {
			ub.value(v.Index(i), sh.Elem)
		}
	case ShapeSlice:
		n := v.Len()
		if n > ub.l.MaxLen {
			ub.ok = false // too long for the layout
			n = 0
		}
		length := uint64(n)
		if n == 0 && !v.IsNil() {
			length = EmptySlice
		}
		ub.vals = append(ub.vals, Value{Bits: length})
		for i := 0; i < ub.l.MaxLen; i++ {
			if i < n {
				ub.value(v.Index(i), sh.Elem)
			} else {
				ub.zeros(sh.Elem)
			}
		}
	case ShapeStruct:
		for _, f := range sh.Fields {
			ub.value(v.Field(f.Index), f.Shape)
		}
	case ShapePointer:
		if !ub.u.Enter(sh.Elem, ub.l.Depth) {
			if !v.IsNil() {
				ub.ok = false
			}
			return
		}
		defer ub.u.Leave(sh.Elem)
		ub.vals = append(ub.vals, Value{Bits: B(!v.IsNil())})
		if v.IsNil() {
			ub.zeros(sh.Elem)
		} else {
			ub.value(v.Elem(), sh.Elem)
		}
	case ShapeError:
		if v.IsNil() {
			ub.vals = append(ub.vals, Value{}, Value{})
			return
		}
		e := v.Interface().(error)
		if ev := reflect.ValueOf(e); ev.Kind() == reflect.Pointer && ev.IsNil() {
			ub.ok = false // a typed nil: its message may panic
			ub.vals = append(ub.vals, Value{}, Value{})
			return
		}
		ub.vals = append(ub.vals, Value{Bits: 1}, Value{Str: e.Error()})
	case ShapeContext, ShapeWriter:
		ub.ok = false // results of these types are not compared
	}
}

// EmptySlice is the length an output reports for a slice that is empty
// but not nil (an input of length 0 is nil; reflect.DeepEqual tells them
// apart).
const EmptySlice = ^uint64(0)

// zeros appends the zero values of the leaves of shape, for a part of the
// layout the value does not have (elements past a slice's length, the
// pointee of a nil pointer).
func (ub *unbuilder) zeros(shape int) {
	sh := &ub.l.Shapes[shape]
	switch sh.Kind {
	case ShapeScalar:
		ub.vals = append(ub.vals, Value{})
	case ShapeArray:
		for i := 0; i < sh.Len; i++ {
			ub.zeros(sh.Elem)
		}
	case ShapeSlice:
		ub.vals = append(ub.vals, Value{})
		for i := 0; i < ub.l.MaxLen; i++ {
			ub.zeros(sh.Elem)
		}
	case ShapeStruct:
		for _, f := range sh.Fields {
			ub.zeros(f.Shape)
		}
	case ShapePointer:
		if ub.u.Enter(sh.Elem, ub.l.Depth) {
			ub.vals = append(ub.vals, Value{})
			ub.zeros(sh.Elem)
			ub.u.Leave(sh.Elem)
		}
	case ShapeError:
		ub.vals = append(ub.vals, Value{}, Value{})
	}
}
