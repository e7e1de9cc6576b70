package isolate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/dowse-go/dowse/internal/importuse"
)

// Rewrite turns the isolated calls of f (a file of u's package) into
// calls of their sandbox functions: F(args) and pkg.F[T](args) become
// dowseIso_K(args), x.M(args) becomes dowseIso_K(x, args) (&x for a
// pointer method called on an addressable value). The arguments keep
// their order and are all evaluated, as before. It returns, per imported
// package, how many of its uses the rewrite removed (a qualified callee),
// so that an import left without uses can be made blank.
func (u *Unit) Rewrite(f *ast.File, info *types.Info) map[*types.PkgName]int {
	removed := importuse.Removed{}
	if u == nil || len(u.Sites) == 0 {
		return removed
	}
	// Functions used as values first: the references are replaced.
	astutil.Apply(f, func(c *astutil.Cursor) bool {
		ref, ok := c.Node().(*ast.SelectorExpr)
		if !ok || u.byRef[ref] == nil {
			return true
		}
		removed.Add(f, info, ref)
		c.Replace(ast.NewIdent(u.byRef[ref].Func))
		return false
	}, nil)
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		s := u.bySite[call]
		if s == nil {
			return true
		}
		fun := calleeExpr(call)
		if s.Method {
			sel := fun.(*ast.SelectorExpr)
			recv := sel.X
			if s.RecvAddr {
				recv = &ast.UnaryExpr{Op: token.AND, X: recv}
			}
			call.Args = append([]ast.Expr{recv}, call.Args...)
		} else {
			removed.Add(f, info, fun)
		}
		call.Fun = ast.NewIdent(s.Func)
		return true
	})
	return removed
}

// BlankUnused makes the imports of f whose every use was removed blank
// imports (the package is still initialised, as before).
func BlankUnused(f *ast.File, info *types.Info, removed map[*types.PkgName]int) {
	importuse.BlankUnused(f, info, removed)
}

// Plan is the isolation plan of a run: the units' packages, by path.
type Plan struct {
	Units map[string]*Unit
}

// Isolated reports whether call is an isolated call site of one of the
// plan's packages.
func (p *Plan) Isolated(call *ast.CallExpr) bool {
	if p == nil {
		return false
	}
	for _, u := range p.Units {
		if u.Isolated(call) {
			return true
		}
	}
	return false
}

// Rewrite rewrites the isolated calls of f, a file of package pkgPath
// (see Unit.Rewrite).
func (p *Plan) Rewrite(pkgPath string, f *ast.File, info *types.Info) map[*types.PkgName]int {
	if p == nil {
		return nil
	}
	return p.Units[pkgPath].Rewrite(f, info)
}
