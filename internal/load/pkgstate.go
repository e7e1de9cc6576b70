package load

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// packageWrites finds, for every function and method declared in files,
// the package-level variables of pkg it assigns — itself, in closures it
// contains, or through the functions and methods of the package it calls
// statically (a fixed point over the package). A generated test of such
// a target restores those variables when it ends (SetRand(r) replaces the
// package's source of randomness: the tests after it would otherwise run
// with the reader a row gave it). Writes into what a variable points to
// (a map's entries, a slice's elements) are not tracked: restoring the
// variable does not undo them. Nor are the writes of a function passed
// to sync.Once's Do: the variables a lazy initialization sets stay set,
// as the Once stays done (a variable of a sync type is never restored).
func packageWrites(info *types.Info, pkg *types.Package, files []*ast.File) map[*types.Func][]*types.Var {
	direct := map[*types.Func]map[*types.Var]bool{}
	calls := map[*types.Func][]*types.Func{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			writes := map[*types.Var]bool{}
			note := func(e ast.Expr) {
				id, ok := ast.Unparen(e).(*ast.Ident)
				if !ok {
					return
				}
				if v, ok := info.Uses[id].(*types.Var); ok && v.Pkg() == pkg && v.Parent() == pkg.Scope() {
					writes[v] = true
				}
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					if n.Tok != token.DEFINE {
						for _, l := range n.Lhs {
							note(l)
						}
					}
				case *ast.IncDecStmt:
					note(n.X)
				case *ast.UnaryExpr:
					if n.Op == token.AND {
						note(n.X) // its address may be written through
					}
				case *ast.CallExpr:
					if onceDo(info, n) {
						// Lazy initialization (once.Do(func() { re =
						// regexp.MustCompile(...) })): the Once is not
						// restored, so neither may what it set be.
						return false
					}
					if callee := staticCallee(info, n); callee != nil && callee.Pkg() == pkg {
						calls[fn] = append(calls[fn], callee)
					}
				}
				return true
			})
			direct[fn] = writes
		}
	}
	for changed := true; changed; {
		changed = false
		for fn, callees := range calls {
			for _, c := range callees {
				for v := range direct[c] {
					if !direct[fn][v] {
						direct[fn][v] = true
						changed = true
					}
				}
			}
		}
	}
	out := map[*types.Func][]*types.Var{}
	for fn, ws := range direct {
		for v := range ws {
			out[fn] = append(out[fn], v)
		}
		sort.Slice(out[fn], func(i, j int) bool { return out[fn][i].Name() < out[fn][j].Name() })
	}
	return out
}

// staticCallee is the function or method a call names statically (nil
// for calls of func values and interface methods).
func staticCallee(info *types.Info, call *ast.CallExpr) *types.Func {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[f].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			if sel.Kind() != types.MethodVal {
				return nil
			}
			fn, _ := sel.Obj().(*types.Func)
			if fn != nil && types.IsInterface(sel.Recv()) {
				return nil
			}
			return fn
		}
		fn, _ := info.Uses[f.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr: // an instantiation f[T]
		if id, ok := f.X.(*ast.Ident); ok {
			fn, _ := info.Uses[id].(*types.Func)
			return fn
		}
	}
	return nil
}

// onceDo reports whether call is a call of (*sync.Once).Do.
func onceDo(info *types.Info, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Do" {
		return false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Name() == "Once"
}
