package load

import (
	"go/types"
	"sort"
	"strings"

	"github.com/dowse-go/dowse/rt"
)

// Values of the package's own types can be built by calls (rt.Build): a
// constructor, then a few calls of the type's methods. Automatic targets
// build their receivers and parameters of such types this way, so that
// the values are ones the package itself makes; field-by-field
// construction stays the fallback for types without a constructor.

// maxCalls bounds the method calls after the constructor (SetBounds lowers
// it to -max-len); maxMutators bounds the methods offered at each call.
const (
	maxCalls    = 3
	maxMutators = 8
)

// builtShape returns the shape of t built by calls, if t is a named type
// of the target's package, or a pointer to one, with a constructor whose
// parameters can be built, or without one, a struct with unexported
// fields and methods that change it (built from its zero value).
func (b *layoutBuilder) builtShape(t types.Type) (int, bool) {
	named, _ := types.Unalias(t).(*types.Named)
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		named, _ = types.Unalias(p.Elem()).(*types.Named)
	}
	if named == nil || named.Obj().Pkg() != b.pkg || named.TypeParams().Len() > 0 || b.building[named.Obj()] {
		return 0, false
	}
	if _, isIface := named.Underlying().(*types.Interface); isIface {
		return 0, false
	}
	ctor, deref := b.constructor(named, t)
	if deref && hasUnexported(named) && len(mutators(named, b.readOnly)) > 0 {
		// The zero value and the methods reach states a constructor that
		// validates its input may not (a version parsed by a regexp):
		// a constructor of *T builds a T only where nothing else can.
		ctor, deref = nil, false
	}
	unmade := ctor == nil && b.zeroMade != nil && !b.zeroMade[named.Obj()]
	var mctors []*types.Func // methods of other types that make it
	if unmade {
		mctors = b.methodConstructors(named, t)
	}
	if ctor == nil && len(mctors) == 0 && !(hasUnexported(named) && len(mutators(named, b.readOnly)) > 0) {
		return 0, false
	}
	b.building[named.Obj()] = true
	defer delete(b.building, named.Obj())
	bd := &rt.Build{Steps: maxCalls, Deref: deref}
	switch {
	case ctor != nil:
		var ok bool
		if bd.Ctor, ok = b.fn(ctor, false); !ok {
			return 0, false
		}
	case len(mctors) > 0:
		for _, m := range mctors {
			if f, ok := b.methodCtor(m); ok {
				bd.Ctor = f
				bd.Addr = !types.Identical(m.Type().(*types.Signature).Results().At(0).Type(), t)
				break
			}
		}
		bd.Unmade = bd.Ctor.Expr == ""
	default:
		bd.Unmade = unmade
	}
	if bd.Unmade && !(hasUnexported(named) && len(mutators(named, b.readOnly)) > 0) {
		return 0, false
	}
	// Methods whose parameters cannot be built are not offered (the
	// shapes begun for them stay in the table, unreferenced).
	for _, m := range mutators(named, b.readOnly) {
		if len(bd.Methods) == maxMutators {
			break
		}
		if f, ok := b.fn(m, true); ok {
			bd.Methods = append(bd.Methods, f)
		}
	}
	return b.add(rt.Shape{Kind: rt.ShapeBuilt, Type: typeString(t, b.pkg), Build: bd}), true
}

// hasUnexported reports whether n is a struct with unexported fields: a
// type whose state its methods keep, which a value built field by field
// could break. Without a constructor, such a type is built from its zero
// value (Go's "the zero value is ready to use") by its methods.
func hasUnexported(n *types.Named) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if !st.Field(i).Exported() {
			return true
		}
	}
	return false
}

// constructor returns the function of the package that makes values of
// type t (T or *T for the named type n): not generic,
// returning t first and at most an error besides; for a t that is T, one
// returning *T does too (deref: the value is its pointee), after those
// returning T. "New"+T comes first, then "New", then other functions
// named New..., then the rest, exported ones before unexported ones, each
// group in name order.
func (b *layoutBuilder) constructor(n *types.Named, t types.Type) (ctor *types.Func, deref bool) {
	_, tIsPtr := types.Unalias(t).(*types.Pointer)
	ptrTo := map[*types.Func]bool{}
	var found []*types.Func
	scope := b.pkg.Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.TypeParams().Len() > 0 {
			continue
		}
		res := sig.Results()
		if res.Len() == 0 || res.Len() > 2 || res.Len() == 2 && !isNamed(res.At(1).Type(), "", "error") {
			continue
		}
		switch first := res.At(0).Type(); {
		case types.Identical(first, t):
			found = append(found, fn)
		case !tIsPtr && types.Identical(first, types.NewPointer(t)):
			found = append(found, fn)
			ptrTo[fn] = true
		}
	}
	rank := func(fn *types.Func) int {
		r := 0
		switch {
		case fn.Name() == "New"+n.Obj().Name():
		case fn.Name() == "New":
			r = 1
		case strings.HasPrefix(fn.Name(), "New"):
			r = 2
		default:
			r = 3
		}
		if !fn.Exported() {
			r += 4
		}
		if ptrTo[fn] {
			r += 8
		}
		return r
	}
	sort.SliceStable(found, func(i, j int) bool { return rank(found[i]) < rank(found[j]) })
	if len(found) == 0 {
		return nil, false
	}
	return found[0], ptrTo[found[0]]
}

// methodConstructors returns the exported methods of the package's other
// exported types that make values of type t (T or *T for the named type
// n): not generic or variadic, returning t — or T, when t is *T — first
// and at most an error besides; those returning t first, then by type
// and method name. A list's Iterator() makes its iterators: the way the
// package makes a type its code never makes from a zero value.
func (b *layoutBuilder) methodConstructors(n *types.Named, t types.Type) []*types.Func {
	ptr, tIsPtr := types.Unalias(t).(*types.Pointer)
	var exact, addr []*types.Func
	scope := b.pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() || tn == n.Obj() {
			continue
		}
		other, ok := tn.Type().(*types.Named)
		if !ok || other.TypeParams().Len() > 0 {
			continue
		}
		if _, isIface := other.Underlying().(*types.Interface); isIface {
			continue
		}
		for i := 0; i < other.NumMethods(); i++ {
			m := other.Method(i)
			sig := m.Type().(*types.Signature)
			res := sig.Results()
			if !m.Exported() || res.Len() == 0 || res.Len() > 2 || res.Len() == 2 && !isNamed(res.At(1).Type(), "", "error") {
				continue
			}
			switch first := res.At(0).Type(); {
			case types.Identical(first, t):
				exact = append(exact, m)
			case tIsPtr && types.Identical(first, ptr.Elem()):
				addr = append(addr, m)
			}
		}
	}
	return append(exact, addr...)
}

// methodCtor describes method m as the constructor of a Build: a method
// expression ("(*List).Iterator") whose first parameter is the receiver,
// built like any parameter.
func (b *layoutBuilder) methodCtor(m *types.Func) (rt.Func, bool) {
	sig := m.Type().(*types.Signature)
	recv := sig.Recv()
	f := rt.Func{Expr: "(" + typeString(recv.Type(), b.pkg) + ")." + m.Name(), Name: m.Name()}
	shape, _, ok := b.shape(recv.Type())
	if !ok {
		return rt.Func{}, false
	}
	name := recv.Name()
	if name == "" || name == "_" {
		name = "recv"
	}
	f.Params, f.ParamNames = append(f.Params, shape), append(f.ParamNames, name)
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		shape, _, ok := b.shape(p.Type())
		if !ok {
			return rt.Func{}, false
		}
		f.Params = append(f.Params, shape)
		f.ParamNames = append(f.ParamNames, p.Name())
	}
	if res := sig.Results(); res.Len() > 1 {
		f.Err = true
	}
	b.funcs[f.Expr] = m
	return f, true
}

// mutators are the exported methods of *n declared with a pointer
// receiver (those that may change the value) and not known to leave it
// unchanged (readOnly), in name order.
func mutators(n *types.Named, readOnly map[*types.Func]bool) []*types.Func {
	var out []*types.Func
	for i := 0; i < n.NumMethods(); i++ {
		m := n.Method(i)
		sig := m.Type().(*types.Signature)
		if !m.Exported() || readOnly[m] {
			continue
		}
		if _, ptr := types.Unalias(sig.Recv().Type()).(*types.Pointer); ptr {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// methodExpr is the method expression of a pointer-receiver method m.
func methodExpr(m *types.Func) string {
	recv := types.Unalias(m.Type().(*types.Signature).Recv().Type()).(*types.Pointer)
	return "(*" + types.Unalias(recv.Elem()).(*types.Named).Obj().Name() + ")." + m.Name()
}

// fn describes fn for a Build, with the shapes of its parameters.
func (b *layoutBuilder) fn(fn *types.Func, method bool) (rt.Func, bool) {
	sig := fn.Type().(*types.Signature)
	f := rt.Func{Expr: fn.Name(), Name: fn.Name(), Variadic: sig.Variadic()}
	if method {
		f.Expr = methodExpr(fn)
	}
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		shape, _, ok := b.shape(p.Type())
		if !ok {
			return rt.Func{}, false
		}
		f.Params = append(f.Params, shape)
		f.ParamNames = append(f.ParamNames, p.Name())
	}
	if res := sig.Results(); res.Len() > 0 && isNamed(res.At(res.Len()-1).Type(), "", "error") {
		f.Err = true
	}
	b.funcs[f.Expr] = fn
	return f, true
}
