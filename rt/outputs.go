package rt

import (
	"cmp"
	"math"
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

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
	if len(l.Results) != len(results) || len(l.Results)+len(l.After)+len(l.Observers) == 0 {
		return nil
	}
	ub := &unbuilder{l: l, u: Unfolding{}, vals: []Value{}, ok: true}
	for i, r := range l.Results {
		ub.value(results[i], r.Shape)
	}
	if !ub.ok {
		return nil
	}
	n := len(ub.vals)
	for k, i := range l.After {
		ub.value(args[i], l.AfterShapes[k])
	}
	for _, o := range l.Observers {
		v, ok := observe(args[o.Param], o.Method)
		if !ok {
			ub.ok = false
			break
		}
		ub.value(v, o.Shape)
	}
	if !ub.ok {
		return ub.vals[:n:n] // the results alone (see Result.Outputs)
	}
	return ub.vals
}

// observe calls the method named method, without arguments, on v and
// returns its result; ok is false if v is a nil pointer, has no such
// method, or the call panics.
func observe(v reflect.Value, method string) (res reflect.Value, ok bool) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return reflect.Value{}, false
	}
	m := v.MethodByName(method)
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		return reflect.Value{}, false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return m.Call(nil)[0], true
}

func (ub *unbuilder) value(v reflect.Value, shape int) {
	sh := &ub.l.Shapes[shape]
	switch sh.Kind {
	case ShapeScalar:
		switch {
		case sh.Float && sh.K == KUint32:
			ub.vals = append(ub.vals, Value{Bits: uint64(math.Float32bits(float32(v.Float())))})
		case sh.Float:
			ub.vals = append(ub.vals, Value{Bits: math.Float64bits(v.Float())})
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
		if n > ub.l.Slots(sh) {
			ub.ok = false // too long for the layout
			n = 0
		}
		length := uint64(n)
		if n == 0 && !v.IsNil() {
			length = EmptySlice
		}
		ub.vals = append(ub.vals, Value{Bits: length})
		for i := 0; i < ub.l.Slots(sh); i++ {
			if i < n {
				ub.value(v.Index(i), sh.Elem)
			} else {
				ub.zeros(sh.Elem)
			}
		}
	case ShapeMap:
		ub.mapValue(v, sh)
	case ShapeStruct:
		for _, f := range sh.Fields {
			ub.value(v.Field(f.Index), f.Shape)
		}
	case ShapePointer:
		if !ub.u.Enter(ub.l, sh.Elem) {
			if !v.IsNil() {
				ub.ok = false
			}
			return
		}
		defer ub.u.Leave(ub.l, sh.Elem)
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
		if !v.CanInterface() {
			// An unexported field of a reported value (a lexer's err):
			// read through its address, as reflect.DeepEqual does.
			if !v.CanAddr() {
				ub.ok = false
				ub.vals = append(ub.vals, Value{}, Value{})
				return
			}
			v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
		}
		e := v.Interface().(error)
		if ev := reflect.ValueOf(e); ev.Kind() == reflect.Pointer && ev.IsNil() {
			ub.ok = false // a typed nil: its message may panic
			ub.vals = append(ub.vals, Value{}, Value{})
			return
		}
		ub.vals = append(ub.vals, Value{Bits: 1}, Value{Str: e.Error()})
	case ShapeAny:
		ub.anyValue(v, sh)
	case ShapeContext, ShapeWriter, ShapeReader, ShapeChan, ShapeBuilt, ShapeFunc, ShapeIface, ShapeMock, ShapeVar, ShapeTypeOf:
		ub.ok = false // results of these types are not compared
	}
}

// EmptySlice is the length an output reports for a slice that is empty
// but not nil (an input of length 0 is nil; reflect.DeepEqual tells them
// apart).
const EmptySlice = ^uint64(0)

// anyValue flattens an interface value of shape sh (ShapeAny): nil, or a
// value whose dynamic type is one of the offered ones.
func (ub *unbuilder) anyValue(v reflect.Value, sh *Shape) {
	pick := 0
	if !v.IsNil() {
		for j, o := range sh.Outs {
			if v.Elem().Type() == scalarType(ub.l.Shapes[o].K) {
				pick = j + 1
			}
		}
		if pick == 0 {
			ub.ok = false // another dynamic type
		}
	}
	ub.vals = append(ub.vals, Value{Bits: uint64(pick)})
	for j, o := range sh.Outs {
		if j+1 == pick {
			ub.value(v.Elem(), o)
		} else {
			ub.zeros(o)
		}
	}
}

// zeros appends the zero values of the leaves of shape, for a part of the
// layout the value does not have (elements past a slice's length, the
// pointee of a nil pointer).
func (ub *unbuilder) zeros(shape int) {
	for n := ub.l.leafCount(shape, ub.u, nil); n > 0; n-- {
		ub.vals = append(ub.vals, Value{})
	}
}

// mapValue flattens a map of shape sh: its length (EmptySlice for an
// empty map that is not nil), then its entries in the order of their
// keys, then zeros for the remaining slots; a map longer than the length
// bound does not fit.
func (ub *unbuilder) mapValue(v reflect.Value, sh *Shape) {
	n := v.Len()
	if n > ub.l.Slots(sh) {
		ub.ok = false
		n = 0
	}
	length := uint64(n)
	if n == 0 && !v.IsNil() {
		length = EmptySlice
	}
	ub.vals = append(ub.vals, Value{Bits: length})
	kk := ub.l.Shapes[sh.Key].K
	var keys []reflect.Value
	if n > 0 {
		keys = v.MapKeys()
	}
	if kt := keyTypeOf(v.Type().Key()); kt.leaves != nil {
		// Struct and array keys, by their leaves' values.
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			pa, pb := reflect.New(a.Type()), reflect.New(b.Type())
			pa.Elem().Set(a)
			pb.Elem().Set(b)
			return kt.compare(pa.UnsafePointer(), pb.UnsafePointer())
		})
	} else {
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			switch {
			case kk == KString:
				return strings.Compare(a.String(), b.String())
			case kk == KBool:
				return cmp.Compare(B(a.Bool()), B(b.Bool()))
			case kk.Signed():
				return cmp.Compare(a.Int(), b.Int())
			}
			return cmp.Compare(a.Uint(), b.Uint())
		})
	}
	for i := 0; i < ub.l.Slots(sh); i++ {
		if i < n {
			ub.value(keys[i], sh.Key)
			ub.value(v.MapIndex(keys[i]), sh.Elem)
		} else {
			ub.zeros(sh.Key)
			ub.zeros(sh.Elem)
		}
	}
}
