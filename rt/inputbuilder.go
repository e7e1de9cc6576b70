package rt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"unsafe"
)

// builder turns an input vector into argument values, gives their leaves
// their shadows and records the construction choices as branches. It walks
// the layout exactly as Layout.Leaves does.
type builder struct {
	l       *Layout
	choices []bool // per shape: values hold choices (Layout.Choices)
	funcs   map[string]reflect.Value
	vals    []Value
	next    int
	u       Unfolding
	// rejected says why a built value could not be made (its constructor
	// or a method failed): the run is skipped.
	rejected string
	// quiet counts the interface values being filled: the choices in
	// their dynamic values (a pointer's, a mock script's) are made
	// whether or not the run looks at them, so they are recorded as
	// implicit branches, which do not tell paths apart (as the choice of
	// the dynamic type itself).
	quiet int
	// implicit records the choices as implicit branches: those of an
	// isolated call's results, which are searched like the others but
	// tell paths apart only where the code branches on them.
	implicit bool
	// deferTo, while a mock script's element is built, collects its
	// choices instead of recording them (see run.deferred), and held the
	// mock values the element holds (counted when a call returns it).
	deferTo *[]Event
	held    *[]heldChoice
	// param is the parameter being built: the node bound counts the
	// mock values of each parameter.
	param int
	// at is, while the alternative of a pooled interface is built, where
	// the leaves the walk counts with next are in the input vector
	// (PoolTable); nil outside pools. pools memoizes the pools.
	at    []int
	pools Pools
}

// index is where leaf j of the walk (counted as next counts) is in the
// input vector.
func (b *builder) index(j int) int {
	if b.at != nil {
		return b.at[j]
	}
	return j
}

// rec records e as a branch of the run, or defers it with the mock
// script element being built.
func (b *builder) rec(e Event) {
	if b.deferTo != nil {
		*b.deferTo = append(*b.deferTo, e)
		return
	}
	record(e)
}

func newBuilder(l *Layout, choices []bool, funcs map[string]reflect.Value, vals []Value) *builder {
	return &builder{l: l, choices: choices, funcs: funcs, vals: vals, u: Unfolding{}, pools: Pools{}}
}

// arg builds parameter i, of type t, and returns it with the Arg that
// carries its shadow into the target's prologue.
func (b *builder) arg(i int, t reflect.Type) (reflect.Value, Arg) {
	b.param = i
	return b.argOf(t, b.l.Params[i].Shape)
}

// argOf builds a value of type t and shape, to be passed to a function.
func (b *builder) argOf(t reflect.Type, shape int) (reflect.Value, Arg) {
	v := reflect.New(t).Elem()
	s, fp := b.fill(v, shape)
	switch t.Kind() {
	case reflect.Array, reflect.Struct:
		return v, Arg{S: Agg, F: uint64(v.UnsafeAddr()), N: t.Size()}
	}
	return v, Arg{S: s, F: fp}
}

func (b *builder) take() (Value, S) {
	i := b.index(b.next)
	b.next++
	return b.vals[i], cur.inputs[i]
}

// pick takes a leaf that picks one of n alternatives (0 for none, j for
// the j-th) and records the pick as a switch would: "is it 0?", then "is
// it 1?", ..., up to the one picked. An out-of-range value picks none.
func (b *builder) pick(n int) int { return b.pickAs(n, false) }

// pickAs is pick, with the branches recorded as implicit ones if
// implicit is set: the search negates them, but they do not tell paths
// apart (the dynamic type of an interface: two types on which the code
// takes the same branches take the same path).
func (b *builder) pickAs(n int, implicit bool) int {
	c := ifaceChoice{n: n}
	b.takeChoice(&c)
	for _, ev := range c.chain(implicit || b.quiet > 0 || b.implicit) {
		b.rec(ev)
	}
	return c.pick
}

// pickOf is the alternative a choice leaf of n alternatives picks.
func pickOf(x Value, n int) int {
	if pick := int(x.Bits); pick >= 0 && pick <= n {
		return pick
	}
	return 0
}

// choose takes a choice leaf and records it as a branch of the run.
func (b *builder) choose() bool {
	x, s := b.take()
	c := x.Bits&1 != 0
	b.rec(Event{Site: InputSite, Taken: c, Cond: s, Implicit: b.quiet > 0 || b.implicit})
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
		case sh.Float:
			// The shadow reinterprets the leaf's bits, which are
			// written as they are (a float32 NaN converted through
			// float64 would lose its signaling bit).
			bits := mask(k, x.Bits)
			fk := KFloat64
			if k == KUint32 {
				fk = KFloat32
				*(*uint32)(v.Addr().UnsafePointer()) = uint32(bits)
			} else {
				v.SetFloat(math.Float64frombits(bits))
			}
			if s != 0 && on.Load() {
				s = mk(Node{Op: OpFromBits, K: fk, K2: k, A: s})
			}
			return s, bits
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
		if n < 0 || n > b.l.Slots(sh) {
			n = 0
		}
		if n > 0 {
			v.Set(reflect.MakeSlice(v.Type(), n, n))
			if es := &b.l.Shapes[sh.Elem]; es.Kind == ShapeScalar && es.K.Integer() {
				// One leaf per element, right after the length.
				first := b.next
				elems := make([]S, b.l.Slots(sh))
				for k := range elems {
					elems[k] = cur.inputs[b.index(first+k)]
				}
				if cur.slices == nil {
					cur.slices = map[uintptr]inputSlice{}
				}
				cur.slices[v.Pointer()] = inputSlice{n: n, elems: elems}
			}
		} else if es := &b.l.Shapes[sh.Elem]; s != 0 && es.Kind == ShapeScalar && es.K.Integer() {
			// An empty input is nil: it has no address, but its length's
			// shadow names it.
			elems := make([]S, b.l.Slots(sh))
			for k := range elems {
				elems[k] = cur.inputs[b.index(b.next+k)]
			}
			if cur.emptySlices == nil {
				cur.emptySlices = map[S]inputSlice{}
			}
			cur.emptySlices[s] = inputSlice{elems: elems}
		}
		for i := 0; i < b.l.Slots(sh); i++ {
			if b.choices[sh.Elem] && i <= n {
				b.rec(Event{Site: InputSite, Taken: i < n, Cond: Cmp(OpLt, KInt, 0, uint64(i), s, uint64(n)), Implicit: b.quiet > 0 || b.implicit})
			}
			if i < n {
				b.fillAt(v.Index(i), sh.Elem)
			} else {
				b.skip(sh.Elem)
			}
		}
		return s, uint64(n)
	case ShapeMap:
		b.fillMap(v, sh)
	case ShapeStruct:
		for _, f := range sh.Fields {
			fv := v.Field(f.Index)
			if !fv.CanSet() {
				fv = reflect.NewAt(fv.Type(), unsafe.Pointer(fv.UnsafeAddr())).Elem()
			}
			b.fillAt(fv, f.Shape)
		}
	case ShapePointer:
		if !b.u.Enter(b.l, sh.Elem) {
			return 0, 0 // nil
		}
		defer b.u.Leave(b.l, sh.Elem)
		if !sh.NonNil && !b.choose() {
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
	case ShapeReader:
		v.Set(reflect.ValueOf(b.reader(sh)))
	case ShapeChan:
		b.fillChan(v, sh)
	case ShapeBuilt:
		b.build(v, sh.Build)
	case ShapeIface:
		b.fillIface(v, shape, sh)
	case ShapeMock:
		b.fillMock(v, sh)
	case ShapeVar:
		if sh.Wrap {
			inner, _ := b.funcs["="+sh.Type].Interface().(error)
			v.Set(reflect.ValueOf(fmt.Errorf(WrapFormat, inner)))
			break
		}
		v.Set(b.funcs["="+sh.Type])
	case ShapeTypeOf:
		v.Set(reflect.ValueOf(b.funcs["#"+sh.Type].Type().Elem()))
	case ShapeAny:
		pick := b.pick(len(sh.Outs))
		for j, o := range sh.Outs {
			if j+1 != pick {
				b.skip(o)
				continue
			}
			dv := reflect.New(scalarType(b.l.Shapes[o].K)).Elem()
			if s, _ := b.fill(dv, o); s != 0 {
				// Values in interfaces carry no shadow: branches on this
				// one are concrete, which the verdict must say.
				Conc(InputSite, "the value of an interface input")
			}
			v.Set(dv)
		}
	case ShapeFunc:
		if sh.Sandbox {
			b.stub(v, sh)
			return 0, 0
		}
		if !b.choose() {
			for c := 0; c < sh.Len; c++ {
				for _, o := range sh.Outs {
					b.skip(o)
				}
			}
			return 0, 0
		}
		b.stub(v, sh)
	}
	return 0, 0
}

// stub makes v a func whose i-th call returns the i-th scripted results
// (the last ones after that), with their shadows, ignoring its arguments.
func (b *builder) stub(v reflect.Value, sh *Shape) {
	t := v.Type()
	calls := make([][]reflect.Value, sh.Len)
	shadows := make([][]Arg, sh.Len)
	// writes are, per call, the pointees it sets through pointer
	// arguments (Shape.Writes: the parameter analysis of "Generating Unit Isolation
	// Environment Using Symbolic Execution").
	type write struct {
		val reflect.Value
		a   Arg // the pointee's shadow: a scalar's, or Agg and its cells' address
	}
	writes := make([][]write, sh.Len)
	built := make([]bool, sh.Len)
	make1 := func(b *builder, c int) {
		built[c] = true
		for k, o := range sh.Outs {
			var ot reflect.Type
			if k < t.NumOut() {
				ot = t.Out(k)
			} else {
				ot = t.In(sh.Writes[k-t.NumOut()]).Elem()
			}
			p := reflect.New(ot)
			s, fp := b.fill(p.Elem(), o)
			a := Arg{S: s, F: fp}
			switch ot.Kind() {
			case reflect.Array, reflect.Struct:
				a = Arg{S: Agg, F: uint64(p.Pointer()), N: ot.Size()} // fill stored its cells
			}
			if k >= t.NumOut() {
				writes[c] = append(writes[c], write{p.Elem(), a})
				continue
			}
			calls[c] = append(calls[c], p.Elem())
			shadows[c] = append(shadows[c], a)
		}
	}
	// A sandbox stub (an isolated call site) builds each call's values
	// when the call happens: the choices they make (an error nil or not)
	// are recorded where the code uses them, and only for the calls the
	// run makes, so unused occurrences add no branches to the path.
	starts := make([]int, sh.Len)
	for c := range calls {
		if !sh.Sandbox {
			make1(b, c)
			continue
		}
		starts[c] = b.next
		for _, o := range sh.Outs {
			b.skip(o)
		}
	}
	n := 0
	v.Set(reflect.MakeFunc(t, func(args []reflect.Value) []reflect.Value {
		// The arguments go unused: whatever shadows they had cost nothing.
		if on.Load() && lock() {
			cur.pending.valid = false
			unlock()
		}
		out := make([]reflect.Value, t.NumOut())
		if len(calls) == 0 {
			for k := range out {
				out[k] = reflect.Zero(t.Out(k))
			}
			return out
		}
		i := min(n, len(calls)-1)
		n++
		if !built[i] {
			make1(&builder{l: b.l, choices: b.choices, funcs: b.funcs, vals: b.vals, next: starts[i], u: Unfolding{}, implicit: true, at: b.at, pools: Pools{}}, i)
		}
		copy(out, calls[i])
		for j, w := range writes[i] {
			ptr := args[sh.Writes[j]]
			if ptr.IsNil() {
				continue
			}
			ptr.Elem().Set(w.val)
			if w.a.S == Agg {
				Copy(ptr.Pointer(), uintptr(w.a.F), w.a.N)
			} else {
				St(ptr.Pointer(), w.a.S, w.a.F)
			}
		}
		Ret(0, shadows[i]...)
		return out
	}))
}

// build makes v by calling bd's constructor and the methods the choice
// leaves pick, recording the choices as branches ("no more calls" first,
// then each method in turn, as a switch would).
func (b *builder) build(v reflect.Value, bd *Build) {
	ok := true
	recv := v
	if v.Kind() != reflect.Pointer {
		recv = v.Addr()
	}
	switch {
	case bd.Ctor.Expr != "" && bd.Deref:
		// *T made by the constructor, changed by the methods, copied into
		// v at the end.
		var out []reflect.Value
		if out, ok = b.call(bd.Ctor, nil); ok && out[0].IsNil() {
			ok, b.rejected = false, bd.Ctor.Expr+" returned nil"
		}
		if ok {
			recv = out[0]
			defer func() { v.Set(recv.Elem()) }()
		}
	case bd.Ctor.Expr != "" && bd.Addr:
		// T made by the constructor, v a pointer to it.
		var out []reflect.Value
		if out, ok = b.call(bd.Ctor, nil); ok {
			p := reflect.New(v.Type().Elem())
			p.Elem().Set(out[0])
			v.Set(p)
		}
	case bd.Ctor.Expr != "":
		var out []reflect.Value
		if out, ok = b.call(bd.Ctor, nil); ok {
			v.Set(out[0])
		}
	case v.Kind() == reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem())) // a pointer to the zero value
	}
	if bd.Ctor.Expr == "" && bd.Unmade {
		cur.unmade = true
	}
	if v.Kind() == reflect.Pointer {
		recv = v
	}
	for c := 0; c < bd.Steps; c++ {
		pick := b.pick(len(bd.Methods))
		for j, m := range bd.Methods {
			if j+1 == pick && ok && b.rejected == "" {
				_, ok = b.call(m, &recv)
			} else {
				b.skipArgs(m)
			}
		}
		if pick == 0 {
			for c++; c < bd.Steps; c++ {
				b.next++
				for _, m := range bd.Methods {
					b.skipArgs(m)
				}
			}
		}
	}
}

// call calls fn (on *recv, for a method) with arguments built from the
// next leaves, and returns its results; ok is false, and b.rejected says
// why, if it panicked or returned a non-nil error.
func (b *builder) call(fn Func, recv *reflect.Value) (out []reflect.Value, ok bool) {
	fv := b.funcs[fn.Expr]
	ft := fv.Type()
	var args []reflect.Value
	var shadows []Arg
	first := 0
	if recv != nil {
		args, shadows, first = append(args, *recv), append(shadows, Arg{}), 1
	}
	for k, p := range fn.Params {
		v, a := b.argOf(ft.In(first+k), p)
		args, shadows = append(args, v), append(shadows, a)
	}
	if b.rejected != "" {
		return nil, false
	}
	defer func() {
		if r := recover(); r != nil {
			b.rejected = fmt.Sprintf("%s panicked: %v", fn.Expr, r)
			untaken(&cur.pending)
			out, ok = nil, false
		}
	}()
	Call(0, shadows...)
	if fn.Variadic {
		out = fv.CallSlice(args)
	} else {
		out = fv.Call(args)
	}
	if fn.Err {
		if err := out[len(out)-1]; !err.IsNil() {
			b.rejected = fmt.Sprintf("%s returned an error: %v", fn.Expr, err.Interface())
			return nil, false
		}
	}
	return out, true
}

// skipArgs passes over the leaves of fn's parameters.
func (b *builder) skipArgs(fn Func) {
	for _, p := range fn.Params {
		b.skip(p)
	}
}

// skip passes over the leaves of shape without building a value (the
// elements of a slice beyond its length, the pointee of a nil pointer).
func (b *builder) skip(shape int) { b.next += b.l.leafCount(shape, b.u, b.pools) }

// fillAt fills v, which lives in memory, and records its shadow cell.
func (b *builder) fillAt(v reflect.Value, shape int) {
	s, fp := b.fill(v, shape)
	if s != 0 {
		St(v.UnsafeAddr(), s, fp)
	}
}

// fillMap sets the map v from a length leaf (chosen, as pick does) and
// Slots(sh) slots of a key and a value (see Layout): the first len slots are
// stored in order, each key
// compared with the keys stored before it as branches of the run (site 0:
// equal keys make a smaller map, which the search must be able to choose
// or avoid), and the map's table gets the keys' and values' shadows (see
// maps.go). A length of 0 is the nil map.
func (b *builder) fillMap(v reflect.Value, sh *Shape) {
	// The length is a choice (len == 0?, len == 1?, ...): what the code
	// does with the map depends on its size in ways no branch of the code
	// records (a lookup in the nil map finds nothing, whatever the key).
	n := b.pick(b.l.Slots(sh))
	kt, vt := v.Type().Key(), v.Type().Elem()
	kk := b.l.Shapes[sh.Key].K
	ktype := keyTypeOf(kt)
	var st *mapState
	if n > 0 {
		v.Set(reflect.MakeMapWithSize(v.Type(), n))
		st = &mapState{}
		if lock() {
			if cur.maps == nil {
				cur.maps = map[unsafe.Pointer]*mapState{}
			}
			cur.maps[v.UnsafePointer()] = st
			unlock()
		}
	}
	for i := 0; i < b.l.Slots(sh); i++ {
		if i >= n {
			b.skip(sh.Key)
			b.skip(sh.Elem)
			continue
		}
		key, val := reflect.New(kt).Elem(), reflect.New(vt).Elem()
		ks, _ := b.fill(key, sh.Key)
		vs, vfp := b.fill(val, sh.Elem)
		if b.l.Shapes[sh.Elem].Kind != ShapeScalar {
			// The map holds a copy of val: what val's own memory cells
			// held (the fields of a struct, the elements of an array) and
			// a slice's length shadow do not go with it, which the
			// verdict must say. Pointees, a slice's elements, nested
			// maps' tables and stubs stay where they are and keep theirs.
			switch vt.Kind() {
			case reflect.Struct, reflect.Array:
				if cellsIn(val.Addr().Pointer(), vt.Size()) {
					Conc(InputSite, "the fields of a value held by a map input")
				}
			case reflect.Slice:
				if vs != 0 {
					Conc(InputSite, "the length of a slice held by a map input")
				}
			}
			vs = 0
		}
		v.SetMapIndex(key, val)
		k := key.Interface()
		var kp KS
		if ktype.leaves != nil {
			// A struct or array key: its leaves' cells (fillAt).
			kp = leafShadows(ktype, key.Addr().UnsafePointer())
		}
		kc := ks
		if kc == 0 && kk != KInvalid {
			kc = keyConst(key, kk)
		}
		stored := false
		for j := range st.entries {
			e := &st.entries[j]
			equal := e.key == k
			var cond S
			switch {
			case ktype.leaves != nil:
				ek := reflect.New(kt)
				ek.Elem().Set(reflect.ValueOf(e.key))
				cond, _, _ = ktype.eq(key.Addr().UnsafePointer(), ek.UnsafePointer(), keySh{p: kp}, e.sh())
			case ks != 0 || e.ks != 0:
				es := e.ks
				if es == 0 {
					es = keyConst(reflect.ValueOf(e.key), kk)
				}
				cond = mk(Node{Op: OpEq, K: KBool, K2: kk, A: kc, B: es})
			}
			if cond != 0 {
				b.rec(Event{Site: InputSite, Taken: equal, Cond: cond, Implicit: b.quiet > 0})
			}
			if equal {
				e.vs, e.vfp = vs, vfp
				stored = true
				break
			}
		}
		if !stored {
			st.entries = append(st.entries, mapEntry{key: k, ks: ks, kp: kp, vs: vs, vfp: vfp})
		}
		st.version++
	}
}

// keyConst is the constant shadow of map key k of kind kk.
func keyConst(k reflect.Value, kk Kind) S {
	switch {
	case kk == KString:
		return strConst(k.String())
	case kk == KBool:
		return constant(kk, B(k.Bool()))
	case kk.Signed():
		return constant(kk, uint64(k.Int()))
	}
	return constant(kk, k.Uint())
}
