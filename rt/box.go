package rt

import (
	"reflect"
	"unsafe"
)

// Values boxed into interfaces (docs/instrument.md, "Interface values").
//
// Converting a struct or array value to an interface copies it into
// memory the interface points to (its data word). The cells of that copy
// are kept like any other memory: Box gives them the shadows of the
// value converted, after the conversion; a method called through the
// interface announces them as its receiver (BoxArg), and a type
// assertion back to the value's type copies them out (Unbox). The
// interface values Box saw are kept alive for the run, so that their
// copies' addresses are not reused while their cells are.

// maxBoxes bounds the interface values a run keeps cells for: past it,
// a boxed value loses its shadows, which is recorded.
const maxBoxes = 1 << 14

// staticBase is where the runtime keeps the values of small integers
// (and of bytes and bools) that it boxes without allocating: every
// interface holding a Square{7} points at the same word there, and such
// interfaces cannot be told apart. The first value boxed there in a run
// with cells gets them; a second one boxed to the same word takes them
// away, which is recorded (Box). Found by boxing a zero held in a
// variable into an interface that escapes (one that does not may be
// given a stack copy instead), which the runtime points at its table.
var (
	staticZero  uint64
	staticProbe any
	staticBase  = func() uintptr {
		staticProbe = staticZero
		return dataWord(staticProbe)
	}()
)

// staticWords is the size of the runtime's table of small integers.
const staticWords = 256

// dataWord is the data word of the interface value v.
func dataWord(v any) uintptr {
	return uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1])
}

// boxedCopy returns the address and size of the copy v holds of a
// struct or array value, and whether that copy is in the runtime's table
// of small values (shared); 0 if v holds none that cells can be kept for
// (nil, a pointer-shaped value stored in the data word itself, a value
// of no size).
func boxedCopy(v any) (p, size uintptr, shared bool) {
	t := reflect.TypeOf(v)
	if t == nil || t.Size() == 0 || pointerShaped(t) {
		return 0, 0, false
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Array:
	default:
		return 0, 0, false
	}
	p = dataWord(v)
	return p, t.Size(), p >= staticBase && p < staticBase+staticWords*8
}

// pointerShaped reports whether values of t are stored in an interface's
// data word itself: pointers, maps, channels, funcs, and structs and
// arrays holding one such value and nothing else.
func pointerShaped(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Struct:
		var only reflect.Type
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.Type.Size() > 0 {
				if only != nil {
					return false
				}
				only = f.Type
			}
		}
		return only != nil && pointerShaped(only)
	case reflect.Array:
		return t.Len() == 1 && pointerShaped(t.Elem())
	}
	return false
}

// Box gives the copy that interface value v holds the cells of the value
// at src, which was converted to the interface at site; where it cannot
// (v does not hold a T, see boxedCopy and maxBoxes, or a copy in the
// runtime's table of small values that another value was boxed to in
// this run), the cells are lost, which is recorded as a concretization
// (why).
func Box[T any](site uint32, v any, src *T, why string) {
	if !on.Load() {
		return
	}
	size := unsafe.Sizeof(*src)
	cells := cellsIn(uintptr(unsafe.Pointer(src)), size)
	_, holds := v.(T)
	dst, n, shared := boxedCopy(v)
	if holds && shared && n == size && lock() {
		// Interfaces holding equal small values share the copy: only the
		// first one boxed in the run keeps cells there.
		claimed := cur.shared[dst]
		cur.shared[dst] = true
		unlock()
		if claimed {
			if cellsIn(dst, n) || cells {
				clearCells(dst, n)
				Conc(site, why)
			}
			return
		}
	}
	if !cells {
		return
	}
	if !holds || dst == 0 || n != size || len(cur.boxes) >= maxBoxes {
		Conc(site, why)
		return
	}
	if lock() {
		cur.boxes = append(cur.boxes, v)
		unlock()
	}
	Copy(dst, uintptr(unsafe.Pointer(src)), size)
}

// clearCells removes the cells of the size bytes at p.
func clearCells(p, size uintptr) {
	if !lock() {
		return
	}
	defer unlock()
	for a := p; a < p+size; a++ {
		delete(cur.mem, a)
	}
}

// BoxArg is the receiver argument of a method called through interface
// value v: the cells of the struct or array value it holds, which a
// value receiver takes (InAgg); none for other values.
func BoxArg(v any) Arg {
	if !on.Load() {
		return Arg{}
	}
	p, n, _ := boxedCopy(v)
	if p == 0 || !cellsIn(p, n) {
		return Arg{}
	}
	return Arg{S: Agg, F: uint64(p), N: n}
}

// Unbox copies the cells of the copy that interface value v holds to
// dst, where a type assertion to T just stored it; nothing if v does not
// hold a T (a comma-ok assertion that failed).
func Unbox[T any](dst *T, v any) {
	if !on.Load() {
		return
	}
	if _, ok := v.(T); !ok {
		return
	}
	p, n, _ := boxedCopy(v)
	if p == 0 || n != unsafe.Sizeof(*dst) {
		return
	}
	Copy(uintptr(unsafe.Pointer(dst)), p, n)
}
