package load

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// A function that begins by asserting the dynamic type of an interface
// parameter without checking it (a comparator's `a.(int8)`) states that
// callers pass that type: the panic of the assertion on another type is
// its precondition, as a documented panic is, not a bug. Only the
// function's first statements count, those before anything with an
// effect (a call, an assignment to something other than a local, a
// branch) — within a statement, before its first call, whose arguments
// are evaluated before it: an assertion there is the function's own
// check of its inputs.

// assertSites returns the positions ("file:line") of the unchecked type
// assertions on parameters of fd (of signature sig)
// among the first statements of its body that have no effect.
func assertSites(fd *ast.FuncDecl, info *types.Info, fset *token.FileSet, sig *types.Signature) []string {
	if fd.Body == nil {
		return nil
	}
	isParam := map[types.Object]bool{}
	for i := 0; i < sig.Params().Len(); i++ {
		isParam[sig.Params().At(i)] = true
	}
	var sites []string
	for _, st := range fd.Body.List {
		var checked ast.Expr // the assertion of a comma-ok form
		switch s := st.(type) {
		case *ast.AssignStmt:
			if !localsOnly(s.Lhs, info, isParam) {
				return sites
			}
			if len(s.Lhs) == 2 && len(s.Rhs) == 1 {
				checked = s.Rhs[0]
			}
		case *ast.DeclStmt:
			if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, sp := range g.Specs {
					if vs := sp.(*ast.ValueSpec); len(vs.Names) == 2 && len(vs.Values) == 1 {
						checked = vs.Values[0]
					}
				}
			}
		case *ast.ReturnStmt:
		default:
			return sites
		}
		// In evaluation order (a call's arguments before the call), the
		// assertions before the first call or receive.
		effect := false
		var stack []ast.Node
		ast.Inspect(st, func(n ast.Node) bool {
			if n != nil {
				if _, lit := n.(*ast.FuncLit); lit {
					return false
				}
				stack = append(stack, n)
				return true
			}
			n, stack = stack[len(stack)-1], stack[:len(stack)-1]
			switch n := n.(type) {
			case *ast.CallExpr:
				if tv, ok := info.Types[n.Fun]; !ok || !tv.IsType() {
					effect = true
				}
			case *ast.UnaryExpr:
				effect = effect || n.Op == token.ARROW
			case *ast.TypeAssertExpr:
				id, ok := ast.Unparen(n.X).(*ast.Ident)
				if !effect && n.Type != nil && ok && isParam[info.Uses[id]] && ast.Expr(n) != ast.Unparen(checked) {
					sites = append(sites, positionLine(fset.Position(n.Lparen)))
				}
			}
			return true
		})
		if effect {
			return sites
		}
		if _, ok := st.(*ast.ReturnStmt); ok {
			return sites
		}
	}
	return sites
}

// localsOnly reports whether the left-hand sides of an assignment are
// all local variables other than the parameters (or blank).
func localsOnly(lhs []ast.Expr, info *types.Info, isParam map[types.Object]bool) bool {
	for _, e := range lhs {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		if id.Name == "_" {
			continue
		}
		obj := info.Defs[id]
		if obj == nil {
			obj = info.Uses[id]
		}
		v, ok := obj.(*types.Var)
		if !ok || isParam[v] || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
			return false
		}
	}
	return true
}

// positionLine is "file:line" of p, as a panic's site is written.
func positionLine(p token.Position) string {
	return fmt.Sprintf("%s:%d", p.Filename, p.Line)
}
