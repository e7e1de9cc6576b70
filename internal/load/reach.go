package load

import (
	"go/ast"
	"go/types"
	"slices"
)

// What errors.Is and errors.As ask of an error (wrappers, the target
// types of errors.As) is offered to the error values of a target only
// when the target can reach such a call: an error choice with wrappers
// nests errors in errors, and a package that calls errors.As in one
// function would otherwise make every error of every target a deep
// choice (the search then spends its runs on choices no branch reads).
// Reachability is syntactic and conservative: a function reaches the
// functions and methods of the package it names, every method of the
// package named like an interface method it calls, every method of the
// package's types it names (a value of a type of the package handed to
// another package, sort.Sort(byName(xs)), has its methods called
// there), and the functions named by package-level declarations
// (tables of handlers) are reached from everywhere.

// errUse is one call of errors.Is or errors.As in function fn (nil: in
// a package-level declaration), with the type errors.As asks for (nil
// for errors.Is or a target of no pointer type).
type errUse struct {
	fn types.Object
	as types.Type
}

// callGraph is what each function of the package names.
type callGraph struct {
	refs    map[types.Object][]types.Object // function → functions and methods it names
	roots   []types.Object                  // named by package-level declarations
	methods map[string][]types.Object       // the package's methods by name
	// typeMethods are the methods of each type of the package, by the
	// receiver's base type.
	typeMethods map[types.Object][]types.Object
}

func newCallGraph() *callGraph {
	return &callGraph{refs: map[types.Object][]types.Object{}, methods: map[string][]types.Object{}, typeMethods: map[types.Object][]types.Object{}}
}

// add records the references of declaration d (fn is its function, nil
// for a package-level declaration).
func (g *callGraph) add(d ast.Decl, fn types.Object, info *types.Info, pkg *types.Package) {
	if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fn != nil {
		g.methods[fn.Name()] = append(g.methods[fn.Name()], fn)
		if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
			rt := types.Unalias(sig.Recv().Type())
			if p, ok := rt.(*types.Pointer); ok {
				rt = types.Unalias(p.Elem())
			}
			if named, ok := rt.(*types.Named); ok {
				tn := named.Origin().Obj()
				g.typeMethods[tn] = append(g.typeMethods[tn], fn)
			}
		}
	}
	ast.Inspect(d, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		if tn, ok := info.Uses[id].(*types.TypeName); ok && tn.Pkg() == pkg && fn != nil {
			g.refs[fn] = append(g.refs[fn], tn)
			return true
		}
		f, ok := info.Uses[id].(*types.Func)
		if !ok {
			return true
		}
		f = f.Origin()
		if f.Pkg() != pkg && !abstract(f) {
			return true
		}
		if fn == nil {
			g.roots = append(g.roots, f)
		} else {
			g.refs[fn] = append(g.refs[fn], f)
		}
		return true
	})
}

// abstract reports whether f is a method of an interface.
func abstract(f *types.Func) bool {
	sig, ok := f.Type().(*types.Signature)
	return ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

// reach returns the functions reachable from roots.
func (g *callGraph) reach(roots []types.Object) map[types.Object]bool {
	seen := map[types.Object]bool{}
	var visit func(o types.Object)
	visit = func(o types.Object) {
		if o == nil || seen[o] {
			return
		}
		seen[o] = true
		if f, ok := o.(*types.Func); ok && abstract(f) {
			for _, m := range g.methods[f.Name()] {
				visit(m)
			}
			return
		}
		if _, ok := o.(*types.TypeName); ok {
			for _, m := range g.typeMethods[o] {
				visit(m)
			}
			return
		}
		for _, r := range g.refs[o] {
			visit(r)
		}
	}
	for _, r := range append(roots, g.roots...) {
		visit(r)
	}
	return seen
}

// anyType is the empty interface.
var anyType = types.Universe.Lookup("any").Type()

// factUse is an assertion (v.(T), a type switch case) or a comparison
// with a sentinel error in function fn (nil: a package-level
// declaration).
type factUse struct {
	fn         types.Object
	assert     *assertion
	sentinel   *types.Var
	implements types.Type // an interface reflect's Implements or AssignableTo asks about
	reflect    reflectUse // a reflect method called on a type or value
	tag        *tagValue  // a tag read and compared with a constant
}

// reflectUse is what a call of a reflect method asks of a type.
type reflectUse uint8

const (
	reflectKinds    reflectUse = iota + 1 // Kind or Elem
	reflectNumField                       // NumField
	reflectValues                         // NumMethod
)

// scope sets the facts that depend on what a target reaches — the
// assertions, the sentinels errors are compared with, errors.Is and
// errors.As, reflection on types (Kind, Elem, NumField, NumMethod,
// Implements, AssignableTo) and the tags compared with constants — to
// those of the functions reachable from roots (the target). Which interfaces an input is asserted to decides its mock
// types, and what errors are compared with or looked through decides
// whether every error of the target is a choice.
func (f *ifaceFacts) scope(roots []types.Object) {
	reached := f.graph.reach(roots)
	in := func(fn types.Object) bool { return fn == nil || reached[fn] }
	f.asserted, f.concreteAsserts, f.sentinels, f.unwrap, f.implementing = nil, nil, nil, false, nil
	f.kinds, f.numField, f.values, f.tags = false, false, false, nil
	for _, u := range f.uses {
		if !in(u.fn) {
			continue
		}
		switch {
		case u.assert != nil:
			f.assertTo(u.assert.from, u.assert.to)
		case u.sentinel != nil && !slices.Contains(f.sentinels, u.sentinel):
			f.sentinels = append(f.sentinels, u.sentinel)
		case u.reflect == reflectKinds:
			f.kinds = true
		case u.reflect == reflectNumField:
			f.numField = true
		case u.reflect == reflectValues:
			f.values = true
		case u.tag != nil && !slices.Contains(f.tags, *u.tag):
			f.tags = append(f.tags, *u.tag)
		case u.implements != nil:
			// v's type implements I, or not: offered as if v were
			// asserted to I.
			f.assertTo(anyType, u.implements)
			if !slices.ContainsFunc(f.implementing, func(t types.Type) bool { return types.Identical(t, u.implements) }) {
				f.implementing = append(f.implementing, u.implements)
			}
		}
	}
	for _, u := range f.errUses {
		if !in(u.fn) {
			continue
		}
		f.unwrap = true
		if u.as != nil {
			f.assertTo(errorType, u.as)
		}
	}
}
