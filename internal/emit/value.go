package emit

import (
	"fmt"
	"go/types"
	"math"

	"github.com/dowse-go/dowse/internal/mock"
	"github.com/dowse-go/dowse/rt"
)

// A value is one input reconstructed from the input vector by walking the
// target's layout (rt.Layout) together with the parameters' Go types.
type value struct {
	t      types.Type   // the type as declared (may be named or an alias)
	shape  rt.ShapeKind // how the value is built
	kind   rt.Kind      // scalars: the leaf's kind
	bits   uint64       // integers and bools; floats: their IEEE 754 bits
	float  bool         // a float32 (kind KUint32) or float64 (kind KUint64)
	str    string       // strings; the message of an error; the bytes of a reader
	elems  []*value     // arrays; slices and channels: the first len elements
	isNil  bool         // a slice of length 0, a nil pointer or error
	fields []field      // structs, blank fields left out
	elem   *value       // a non-nil pointer: the pointee
	built  *built       // a value made by calls (rt.ShapeBuilt)
	calls  [][]*value   // a non-nil func stub: the results of each scripted call (then, for a sandbox stub, the pointees it writes)
	writes []int        // a sandbox stub: the parameters whose pointees each call sets (rt.Shape.Writes)
	maxLen int          // a channel: the length bound (a send-only channel's capacity)
	dyn    *value       // a non-nil any or interface: the value of its dynamic type
	mock   *mock.Type   // a value of a generated mock type (its declaration goes into the file)
	vr     *types.Var   // a package-level variable (rt.ShapeVar)
	wrap   bool         // vr wrapped by fmt.Errorf(rt.WrapFormat, vr) (rt.Shape.Wrap)
	// entries are a map's entries in slot order, a key equal to an
	// earlier one replacing that entry's value as the worker's stores did.
	entries []mapEntry
}

// mapEntry is one entry of a map value.
type mapEntry struct {
	key, val *value
}

// built is a value made by its constructor and method calls.
type built struct {
	ctor  *types.Func
	fn    rt.Func
	deref bool // the constructor returns a pointer to the value
	addr  bool // the value is a pointer to what the constructor returns
	args  []*value
	calls []call
}

type call struct {
	m    *types.Func
	args []*value
}

type field struct {
	v   *types.Var
	val *value
}

// decoder walks a target's layout and one row's inputs in step.
type decoder struct {
	l      *rt.Layout
	funcs  map[string]*types.Func // the functions of built values
	inputs []rt.Value
	i      int
	u      rt.Unfolding
	// outputs allows the lengths of outputs: rt.EmptySlice for a slice
	// that is empty but not nil.
	outputs bool
	// dyn are the dynamic types offered to interface inputs, by their
	// shapes' Type, and mocks the generated mock types, by name.
	dyn   map[string]types.Type
	mocks map[string]*mock.Type
	vars  map[string]*types.Var
	// at is, while the alternative of a pooled interface is decoded,
	// where the leaves counted by i are in the input vector
	// (rt.PoolTable); nil outside pools. pools memoizes the pools.
	at    []int
	pools rt.Pools
}

func (d *decoder) next(want string) (rt.Value, error) {
	j := d.i
	if d.at != nil {
		if j >= len(d.at) {
			return rt.Value{}, fmt.Errorf("pool too short: no leaf for %s", want)
		}
		j = d.at[j]
	}
	if j >= len(d.inputs) {
		return rt.Value{}, fmt.Errorf("input vector too short: no leaf for %s", want)
	}
	d.i++
	return d.inputs[j], nil
}

// decodeValues rebuilds the values of params from one row's inputs (or,
// if outputs is set, an automatic target's results from its outputs);
// funcs are the functions of built values.
func decodeValues(params []*types.Var, l *rt.Layout, funcs map[string]*types.Func, inputs []rt.Value, outputs bool, dyn ...dynTypes) ([]*value, error) {
	if l == nil || len(l.Params) != len(params) {
		return nil, fmt.Errorf("no input layout for the %d parameters", len(params))
	}
	if err := l.Check(); err != nil {
		return nil, err
	}
	if n := l.CountLeaves(rt.MaxLeaves); n != len(inputs) {
		return nil, fmt.Errorf("row has %d inputs for %d leaves", len(inputs), n)
	}
	d := &decoder{l: l, funcs: funcs, inputs: inputs, u: rt.Unfolding{}, outputs: outputs, pools: rt.Pools{}}
	for _, dt := range dyn {
		d.dyn, d.mocks, d.vars = dt.types, map[string]*mock.Type{}, dt.vars
		for _, m := range dt.mocks {
			d.mocks[m.Name] = m
		}
	}
	vals := make([]*value, len(params))
	for i, p := range params {
		v, err := d.decode(l.Params[i].Shape, p.Type(), paramLabel(p, i))
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	if d.i != len(inputs) {
		return nil, fmt.Errorf("%d inputs left over after the last parameter", len(inputs)-d.i)
	}
	return vals, nil
}

func paramLabel(p *types.Var, i int) string {
	if p.Name() == "" || p.Name() == "_" {
		return fmt.Sprintf("parameter %d", i+1)
	}
	return p.Name()
}

// length reads the length leaf of the slice or map at path, which has
// slots elements in the layout: the length, and whether the value is nil
// (length 0, except an output's EmptySlice).
func (d *decoder) length(path string, slots int) (int64, bool, error) {
	in, err := d.next("len(" + path + ")")
	if err != nil {
		return 0, false, err
	}
	n := signExtend(in.Bits, 64)
	empty := d.outputs && in.Bits == rt.EmptySlice
	if empty {
		n = 0
	}
	if n < 0 || n > int64(slots) {
		return 0, false, fmt.Errorf("len(%s) = %d outside [0, %d]", path, n, slots)
	}
	return n, n == 0 && !empty, nil
}

func (d *decoder) decode(shape int, t types.Type, path string) (*value, error) {
	sh := &d.l.Shapes[shape]
	v := &value{t: t, shape: sh.Kind, maxLen: d.l.MaxLen}
	mismatch := func() error { return fmt.Errorf("%s: layout %s (%s) does not fit type %s", path, sh.Kind, sh.Type, t) }
	u := types.Unalias(t).Underlying()
	switch sh.Kind {
	case rt.ShapeScalar:
		b, ok := u.(*types.Basic)
		if !ok {
			return nil, mismatch()
		}
		if sh.Float {
			if !(b.Kind() == types.Float32 && sh.K == rt.KUint32 || b.Kind() == types.Float64 && sh.K == rt.KUint64) {
				return nil, mismatch()
			}
			v.float = true
		} else if err := checkBasicLeaf(b, sh.K); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		in, err := d.next(path)
		if err != nil {
			return nil, err
		}
		v.kind = sh.K
		if sh.K == rt.KString {
			v.str = in.Str
		} else {
			v.bits = in.Bits & mask(sh.K.Bits())
		}
	case rt.ShapeArray:
		a, ok := u.(*types.Array)
		if !ok || a.Len() != int64(sh.Len) {
			return nil, mismatch()
		}
		for i := 0; i < sh.Len; i++ {
			e, err := d.decode(sh.Elem, a.Elem(), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			v.elems = append(v.elems, e)
		}
	case rt.ShapeSlice:
		s, ok := u.(*types.Slice)
		if !ok {
			return nil, mismatch()
		}
		n, isNil, err := d.length(path, d.l.Slots(sh))
		if err != nil {
			return nil, err
		}
		v.isNil = isNil
		for i := 0; i < d.l.Slots(sh); i++ {
			e, err := d.decode(sh.Elem, s.Elem(), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			if int64(i) < n {
				v.elems = append(v.elems, e)
			}
		}
	case rt.ShapeChan:
		c, ok := u.(*types.Chan)
		if !ok || sh.Send != (c.Dir() == types.SendOnly) {
			return nil, mismatch()
		}
		if sh.Send {
			break // empty, with room for MaxLen values
		}
		n, _, err := d.length(path, d.l.Slots(sh))
		if err != nil {
			return nil, err
		}
		for i := 0; i < d.l.Slots(sh); i++ {
			e, err := d.decode(sh.Elem, c.Elem(), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			if int64(i) < n {
				v.elems = append(v.elems, e)
			}
		}
	case rt.ShapeMap:
		m, ok := u.(*types.Map)
		if !ok {
			return nil, mismatch()
		}
		n, isNil, err := d.length(path, d.l.Slots(sh))
		if err != nil {
			return nil, err
		}
		v.isNil = isNil
		v.entries = []mapEntry{}
		for i := 0; i < d.l.Slots(sh); i++ {
			k, err := d.decode(sh.Key, m.Key(), fmt.Sprintf("key(%s, %d)", path, i))
			if err != nil {
				return nil, err
			}
			e, err := d.decode(sh.Elem, m.Elem(), fmt.Sprintf("value(%s, %d)", path, i))
			if err != nil {
				return nil, err
			}
			if int64(i) >= n {
				continue
			}
			replaced := false
			for j := range v.entries {
				if sameKey(v.entries[j].key, k) {
					v.entries[j].val, replaced = e, true
				}
			}
			if !replaced {
				v.entries = append(v.entries, mapEntry{k, e})
			}
		}
	case rt.ShapeStruct:
		st, ok := u.(*types.Struct)
		if !ok {
			return nil, mismatch()
		}
		for _, f := range sh.Fields {
			if f.Index < 0 || f.Index >= st.NumFields() || st.Field(f.Index).Name() != f.Name {
				return nil, mismatch()
			}
			fv, err := d.decode(f.Shape, st.Field(f.Index).Type(), path+"."+f.Name)
			if err != nil {
				return nil, err
			}
			v.fields = append(v.fields, field{st.Field(f.Index), fv})
		}
	case rt.ShapePointer:
		p, ok := u.(*types.Pointer)
		if !ok {
			return nil, mismatch()
		}
		v.isNil = true
		if !d.u.Enter(d.l, sh.Elem) {
			break
		}
		defer d.u.Leave(d.l, sh.Elem)
		nonNil := sh.NonNil
		if !nonNil {
			in, err := d.next(path + " != nil")
			if err != nil {
				return nil, err
			}
			nonNil = in.Bits&1 != 0
		}
		e, err := d.decode(sh.Elem, p.Elem(), "*"+path)
		if err != nil {
			return nil, err
		}
		if nonNil {
			v.isNil, v.elem = false, e
		}
	case rt.ShapeError:
		in, err := d.next(path + " != nil")
		if err != nil {
			return nil, err
		}
		msg, err := d.next(path + ".Error()")
		if err != nil {
			return nil, err
		}
		v.isNil, v.str = in.Bits&1 == 0, msg.Str
	case rt.ShapeContext, rt.ShapeWriter:
		if _, ok := u.(*types.Interface); !ok {
			return nil, mismatch()
		}
	case rt.ShapeReader:
		if _, ok := u.(*types.Interface); !ok {
			return nil, mismatch()
		}
		// The bytes the reader yields, stored like a []byte's elements.
		n, _, err := d.length(path, d.l.Slots(sh))
		if err != nil {
			return nil, err
		}
		data := make([]byte, 0, n)
		for i := 0; i < d.l.Slots(sh); i++ {
			in, err := d.next(fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			if int64(i) < n {
				data = append(data, byte(in.Bits))
			}
		}
		v.str = string(data)
	case rt.ShapeBuilt:
		b, err := d.build(sh.Build, path)
		if err != nil {
			return nil, err
		}
		v.built = b
	case rt.ShapeAny:
		in, err := d.next(path + ".(type)")
		if err != nil {
			return nil, err
		}
		pick := int(in.Bits)
		v.isNil = true
		for j, o := range sh.Outs {
			alt, err := d.decode(o, basicOf(d.l.Shapes[o].K), fmt.Sprintf("%s.(%s)", path, d.l.Shapes[o].Type))
			if err != nil {
				return nil, err
			}
			if j+1 == pick {
				v.isNil, v.dyn = false, alt
			}
		}
	case rt.ShapeIface:
		if _, ok := u.(*types.Interface); !ok {
			return nil, mismatch()
		}
		v.isNil = true
		if !d.u.Enter(d.l, shape) {
			break
		}
		defer d.u.Leave(d.l, shape)
		in, err := d.next(path + ".(type)")
		if err != nil {
			return nil, err
		}
		if sh.Pool {
			return v, d.pooled(v, shape, int(in.Bits), path)
		}
		for j, o := range sh.Outs {
			at := d.dyn[d.l.Shapes[o].Type]
			if at == nil {
				return nil, fmt.Errorf("%s: no type %s", path, d.l.Shapes[o].Type)
			}
			alt, err := d.decode(o, at, fmt.Sprintf("%s.(%s)", path, d.l.Shapes[o].Type))
			if err != nil {
				return nil, err
			}
			if j+1 == int(in.Bits) {
				v.isNil, v.dyn = false, alt
			}
		}
	case rt.ShapeMock:
		return d.mockValue(sh, t, path)
	case rt.ShapeTypeOf:
		// v.t is the type itself; a generated one is declared by the file.
		tt := t
		if p, ok := t.(*types.Pointer); ok {
			tt = p.Elem()
		}
		if n, ok := tt.(*types.Named); ok {
			v.mock = d.mocks[n.Obj().Name()]
		}
	case rt.ShapeVar:
		v.vr, v.wrap = d.vars[sh.Type], sh.Wrap
		if v.vr == nil {
			return nil, fmt.Errorf("%s: no variable %s", path, sh.Type)
		}
	case rt.ShapeFunc:
		sig, ok := u.(*types.Signature)
		if !ok || sig.Results().Len()+len(sh.Writes) != len(sh.Outs) {
			return nil, mismatch()
		}
		if !sh.Sandbox {
			in, err := d.next(path + " != nil")
			if err != nil {
				return nil, err
			}
			v.isNil = in.Bits&1 == 0
		}
		v.writes = sh.Writes
		for c := 0; c < sh.Len; c++ {
			var outs []*value
			for k, o := range sh.Outs {
				var ot types.Type
				name := fmt.Sprintf("%s.call[%d].r%d", path, c, k)
				if k < sig.Results().Len() {
					ot = sig.Results().At(k).Type()
				} else {
					w := sh.Writes[k-sig.Results().Len()]
					ptr, ok := sig.Params().At(w).Type().Underlying().(*types.Pointer)
					if !ok {
						return nil, mismatch()
					}
					ot, name = ptr.Elem(), fmt.Sprintf("%s.call[%d].*a%d", path, c, w)
				}
				r, err := d.decode(o, ot, name)
				if err != nil {
					return nil, err
				}
				outs = append(outs, r)
			}
			if !v.isNil {
				v.calls = append(v.calls, outs)
			}
		}
	default:
		return nil, mismatch()
	}
	return v, nil
}

// pooled decodes into v, a non-nil interface value, alternative pick of
// pooled interface shape from the pool of leaves that follows (see
// rt/pool.go), and passes over the pool.
func (d *decoder) pooled(v *value, shape, pick int, path string) error {
	sh := &d.l.Shapes[shape]
	for _, o := range sh.Outs {
		if d.dyn[d.l.Shapes[o].Type] == nil {
			return fmt.Errorf("%s: no type %s", path, d.l.Shapes[o].Type)
		}
	}
	start := d.i
	p := d.l.PoolOf(shape, d.u, d.pools)
	if pick > 0 && pick <= len(sh.Outs) {
		o := sh.Outs[pick-1]
		outer := d.at
		d.at, d.i = rt.PoolTable(p, pick, start, outer), 0
		alt, err := d.decode(o, d.dyn[d.l.Shapes[o].Type], fmt.Sprintf("%s.(%s)", path, d.l.Shapes[o].Type))
		if err != nil {
			return err
		}
		if d.i != len(d.at) {
			return fmt.Errorf("%s: %d of the %d leaves of %s read", path, d.i, len(d.at), d.l.Shapes[o].Type)
		}
		d.at = outer
		v.isNil, v.dyn = false, alt
	}
	d.i = start + p.Size
	return nil
}

// checkBasicLeaf checks that a leaf of kind k can hold a value of basic
// type b.
func checkBasicLeaf(b *types.Basic, k rt.Kind) error {
	info := b.Info()
	switch {
	case info&types.IsBoolean != 0:
		if k == rt.KBool {
			return nil
		}
	case info&types.IsString != 0:
		if k == rt.KString {
			return nil
		}
	case info&types.IsInteger != 0:
		if !k.Integer() || k.Signed() != (info&types.IsUnsigned == 0) {
			break
		}
		switch w := basicBits(b.Kind()); w {
		case 0: // int, uint, uintptr: 32 or 64 bits by platform
			if k.Bits() == 32 || k.Bits() == 64 {
				return nil
			}
		default:
			if k.Bits() == w {
				return nil
			}
		}
	default:
		return fmt.Errorf("unsupported input type %s", b)
	}
	return fmt.Errorf("a leaf of kind %s does not fit type %s", k, b)
}

// basicBits is the width of a sized integer kind, 0 for platform-sized ones.
func basicBits(k types.BasicKind) int {
	switch k {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32:
		return 32
	case types.Int64, types.Uint64:
		return 64
	}
	return 0
}

func mask(bits int) uint64 {
	if bits >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(bits) - 1
}

func signExtend(x uint64, bits int) int64 {
	if bits >= 64 || bits <= 0 {
		return int64(x)
	}
	s := uint(64 - bits)
	return int64(x<<s) >> s
}

// isZero reports whether v is its type's zero value.
func (v *value) isZero() bool {
	switch {
	case v.kind != rt.KInvalid:
		return v.bits == 0 && v.str == ""
	case v.shape == rt.ShapePointer || v.shape == rt.ShapeError || v.shape == rt.ShapeFunc || v.shape == rt.ShapeAny || v.shape == rt.ShapeIface:
		return v.isNil
	case v.shape == rt.ShapeVar || v.shape == rt.ShapeTypeOf:
		return false
	case v.shape == rt.ShapeContext || v.shape == rt.ShapeWriter || v.shape == rt.ShapeReader || v.shape == rt.ShapeChan || v.shape == rt.ShapeBuilt:
		return false // a value is built
	case v.fields != nil:
		for _, f := range v.fields {
			if !f.val.isZero() {
				return false
			}
		}
		return true
	}
	switch types.Unalias(v.t).Underlying().(type) {
	case *types.Slice, *types.Map:
		return v.isNil
	case *types.Array:
		for _, e := range v.elems {
			if !e.isZero() {
				return false
			}
		}
	}
	return true
}

// signed reports whether an integer value is of a signed kind.
func (v *value) signed() bool { return v.kind.Signed() }

// floatValue returns a float's value.
func (v *value) floatValue() float64 {
	if v.kind == rt.KUint32 {
		return float64(math.Float32frombits(uint32(v.bits)))
	}
	return math.Float64frombits(v.bits)
}

// hasNaN reports whether v holds a NaN float anywhere.
func (v *value) hasNaN() bool {
	if v == nil {
		return false
	}
	if v.float {
		return math.IsNaN(v.floatValue())
	}
	for _, e := range v.elems {
		if e.hasNaN() {
			return true
		}
	}
	for _, f := range v.fields {
		if f.val.hasNaN() {
			return true
		}
	}
	for _, e := range v.entries {
		if e.key.hasNaN() || e.val.hasNaN() {
			return true
		}
	}
	return v.elem.hasNaN() || v.dyn.hasNaN()
}

// int64 returns a signed integer value.
func (v *value) int64() int64 { return signExtend(v.bits, v.kind.Bits()) }

// decodeOutputs rebuilds the results of an automatic target, and the
// parameters it reports after the call (Layout.After), from one row's
// outputs. It returns nil (nothing to compare) when the results have
// no layout, or when an error result is non-nil with an empty message (a
// comparison of messages could not tell it from nil).
func decodeOutputs(t *Target, outputs []rt.Value) ([]*value, error) {
	l := t.Layout
	if l == nil || len(l.Results) != len(t.Results) || len(l.Results)+len(l.After)+len(l.Observers) == 0 {
		return nil, nil
	}
	view := l.OutputLayout()
	vars := append([]*types.Var(nil), t.Results...)
	for _, i := range l.After {
		vars = append(vars, t.Params[i])
	}
	for _, o := range l.Observers {
		r := observerResult(t.Params[o.Param].Type(), o.Method)
		if r == nil {
			return nil, fmt.Errorf("no method %s with one result on %s", o.Method, t.Params[o.Param].Type())
		}
		vars = append(vars, r)
	}
	if len(l.After)+len(l.Observers) > 0 {
		// The results alone: the parameters after the call did not fit.
		alone := *view
		alone.Params = l.Results
		if alone.CountLeaves(rt.MaxLeaves) == len(outputs) {
			view, vars = &alone, vars[:len(t.Results)]
		}
	}
	outs, err := decodeValues(vars, view, t.Funcs, outputs, true, dynTypes{t.Dyn, t.Mocks, t.Vars})
	if err != nil {
		return nil, err
	}
	for _, o := range outs {
		if o.shape == rt.ShapeError && !o.isNil && o.str == "" || o.hasNaN() {
			return nil, nil // NaN != NaN: reflect.DeepEqual could never agree
		}
	}
	return outs, nil
}

// observerResult is the result of the method named method of type t,
// called without arguments (rt.Observer), or nil.
func observerResult(t types.Type, method string) *types.Var {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, method)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return nil
	}
	return sig.Results().At(0)
}

// build decodes a built value: the constructor's arguments, then the
// calls the choice leaves pick (the arguments of the methods not picked
// are read and dropped).
func (d *decoder) build(bd *rt.Build, path string) (*built, error) {
	ctor := d.funcs[bd.Ctor.Expr]
	b := &built{ctor: ctor, fn: bd.Ctor, deref: bd.Deref, addr: bd.Addr}
	if bd.Ctor.Expr != "" { // else the zero value
		if ctor == nil {
			return nil, fmt.Errorf("%s: no function %s", path, bd.Ctor.Expr)
		}
		var err error
		if b.args, err = d.args(bd.Ctor, ctor, path); err != nil {
			return nil, err
		}
	}
	done := false
	for c := 0; c < bd.Steps; c++ {
		in, err := d.next(fmt.Sprintf("%s.call[%d]", path, c))
		if err != nil {
			return nil, err
		}
		pick := int(in.Bits)
		if pick < 0 || pick > len(bd.Methods) {
			pick = 0
		}
		done = done || pick == 0
		for j, m := range bd.Methods {
			fn := d.funcs[m.Expr]
			if fn == nil {
				return nil, fmt.Errorf("%s: no function %s", path, m.Expr)
			}
			args, err := d.args(m, fn, fmt.Sprintf("%s.call[%d]", path, c))
			if err != nil {
				return nil, err
			}
			if !done && j+1 == pick {
				b.calls = append(b.calls, call{fn, args})
			}
		}
	}
	return b, nil
}

// args decodes the arguments of fn (described by f).
func (d *decoder) args(f rt.Func, fn *types.Func, path string) ([]*value, error) {
	sig := fn.Type().(*types.Signature)
	var ptypes []types.Type
	if sig.Recv() != nil && len(f.Params) == sig.Params().Len()+1 {
		// A method as a constructor: its receiver comes first.
		ptypes = append(ptypes, sig.Recv().Type())
	}
	for k := 0; k < sig.Params().Len(); k++ {
		ptypes = append(ptypes, sig.Params().At(k).Type())
	}
	if len(ptypes) != len(f.Params) {
		return nil, fmt.Errorf("%s: %s takes %d parameters, not %d", path, fn.Name(), sig.Params().Len(), len(f.Params))
	}
	var out []*value
	for k, p := range f.Params {
		v, err := d.decode(p, ptypes[k], path+"."+fn.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// basicOf is the unnamed Go type of scalar kind k.
func basicOf(k rt.Kind) types.Type {
	switch k {
	case rt.KBool:
		return types.Typ[types.Bool]
	case rt.KInt8:
		return types.Typ[types.Int8]
	case rt.KInt16:
		return types.Typ[types.Int16]
	case rt.KInt32:
		return types.Typ[types.Int32]
	case rt.KInt64:
		return types.Typ[types.Int64]
	case rt.KUint:
		return types.Typ[types.Uint]
	case rt.KUint8:
		return types.Typ[types.Uint8]
	case rt.KUint16:
		return types.Typ[types.Uint16]
	case rt.KUint32:
		return types.Typ[types.Uint32]
	case rt.KUint64:
		return types.Typ[types.Uint64]
	case rt.KUintptr:
		return types.Typ[types.Uintptr]
	case rt.KString:
		return types.Typ[types.String]
	}
	return types.Typ[types.Int]
}

// sameValue reports whether two decoded values are written alike.
func sameValue(a, b *value) bool {
	return fmt.Sprint(flatten(a)) == fmt.Sprint(flatten(b))
}

// flatten lists what a value is made of, for sameValue.
func flatten(v *value) []any {
	if v == nil {
		return []any{nil}
	}
	out := []any{v.shape, v.kind, v.bits, v.str, v.isNil, len(v.elems), len(v.fields)}
	for _, e := range v.elems {
		out = append(out, flatten(e)...)
	}
	for _, f := range v.fields {
		out = append(out, f.v.Name())
		out = append(out, flatten(f.val)...)
	}
	out = append(out, flatten(v.elem)...)
	if v.dyn != nil {
		out = append(out, types.TypeString(v.dyn.t, nil))
		out = append(out, flatten(v.dyn)...)
	}
	return out
}

// sameKey reports whether map keys a and b are equal: integers, bools and
// strings, or structs and arrays of them, compared leaf by leaf.
func sameKey(a, b *value) bool {
	if a.bits != b.bits || a.str != b.str || len(a.fields) != len(b.fields) || len(a.elems) != len(b.elems) {
		return false
	}
	for i := range a.fields {
		if !sameKey(a.fields[i].val, b.fields[i].val) {
			return false
		}
	}
	for i := range a.elems {
		if !sameKey(a.elems[i], b.elems[i]) {
			return false
		}
	}
	return true
}
