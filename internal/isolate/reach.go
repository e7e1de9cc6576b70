package isolate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// Reach is the static call graph of a package's functions and methods
// (its test files included), to find the isolated call sites a target
// may reach: a function reaches what its body (function literals
// included) uses, calls or takes as a value, of the package; a method
// call through an interface reaches every method of the package with
// that name. Calls into other packages are not followed (-unit's other
// packages are reached in full).
type Reach struct {
	edges  map[*types.Func][]*types.Func
	byName map[string][]*types.Func // the package's methods, by name
}

// NewReach builds the call graph of the variants' files (the package with
// its tests, and its external test package).
func NewReach(variants ...*packages.Package) *Reach {
	r := &Reach{edges: map[*types.Func][]*types.Func{}, byName: map[string][]*types.Func{}}
	var self *types.Package
	if len(variants) > 0 && variants[0] != nil {
		self = variants[0].Types
	}
	local := func(fn *types.Func) bool {
		return fn.Pkg() != nil && self != nil && fn.Pkg().Path() == self.Path()
	}
	for _, v := range variants {
		if v == nil || v.TypesInfo == nil {
			continue
		}
		for _, f := range v.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				fn, ok := v.TypesInfo.Defs[fd.Name].(*types.Func)
				if !ok {
					continue
				}
				if fd.Recv != nil && local(fn) {
					r.byName[fn.Name()] = append(r.byName[fn.Name()], fn)
				}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					id, ok := n.(*ast.Ident)
					if !ok {
						return true
					}
					callee, ok := v.TypesInfo.Uses[id].(*types.Func)
					if !ok {
						return true
					}
					if o := callee.Origin(); o != nil {
						callee = o
					}
					if local(callee) || types.IsInterface(recvType(callee)) {
						r.edges[fn] = append(r.edges[fn], callee)
					}
					return true
				})
			}
		}
	}
	return r
}

// recvType is the receiver type of a method, nil for a function.
func recvType(fn *types.Func) types.Type {
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		return sig.Recv().Type()
	}
	return types.Typ[types.Invalid]
}

// From returns the functions reachable from roots (roots included).
func (r *Reach) From(roots ...*types.Func) map[*types.Func]bool {
	seen := map[*types.Func]bool{}
	var visit func(fn *types.Func)
	visit = func(fn *types.Func) {
		if fn == nil || seen[fn] {
			return
		}
		seen[fn] = true
		if types.IsInterface(recvType(fn)) {
			for _, m := range r.byName[fn.Name()] {
				visit(m)
			}
			return
		}
		for _, c := range r.edges[fn] {
			visit(c)
		}
	}
	for _, fn := range roots {
		visit(fn)
	}
	return seen
}

// Reached reports whether site s is in a function of reached, or in a
// package-level initializer (which every binary runs).
func (s *Site) Reached(reached map[*types.Func]bool) bool {
	return s.Owner == nil || reached[s.Owner]
}
