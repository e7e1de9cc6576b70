package load

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// A type without a constructor is built from its zero value and a few
// method calls (builtShape). That is how the package means it to be used
// only where the package says so: Go's "the zero value is ready to use"
// holds for bytes.Buffer, not for an iterator whose methods follow a
// list pointer that only the list's Iterator method sets. A nil
// dereference on a value built from a zero value the package never makes
// says the input was not a valid value (rt.Build.Unmade), not that the
// code has a bug.

// zeroMadeTypes returns the package's named types (declared in files)
// whose zero value the package makes usable: its code makes one
// (var x T, T{}, &T{}, new(T)), the type's doc comment speaks of its
// zero value, or one of its methods checks a field of the receiver
// against nil (it guards the zero value's nil fields).
func zeroMadeTypes(info *types.Info, files []*ast.File) map[*types.TypeName]bool {
	made := map[*types.TypeName]bool{}
	mark := func(t types.Type) {
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			made[n.Obj()] = true
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if n.Tok == token.TYPE {
					for _, sp := range n.Specs {
						ts := sp.(*ast.TypeSpec)
						doc := ts.Doc
						if doc == nil && len(n.Specs) == 1 {
							doc = n.Doc
						}
						if doc != nil && strings.Contains(strings.ToLower(doc.Text()), "zero value") {
							if tn, ok := info.Defs[ts.Name].(*types.TypeName); ok {
								made[tn] = true
							}
						}
					}
				}
			case *ast.ValueSpec:
				if len(n.Values) == 0 {
					for _, name := range n.Names {
						if obj := info.Defs[name]; obj != nil {
							if _, ptr := types.Unalias(obj.Type()).(*types.Pointer); !ptr {
								mark(obj.Type())
							}
						}
					}
				}
			case *ast.CompositeLit:
				if len(n.Elts) == 0 {
					if tv, ok := info.Types[n]; ok {
						mark(tv.Type)
					}
				}
			case *ast.CallExpr:
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && len(n.Args) == 1 {
					if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "new" {
						if tv, ok := info.Types[n.Args[0]]; ok {
							mark(tv.Type)
						}
					}
				}
			case *ast.FuncDecl:
				if n.Recv != nil && len(n.Recv.List) == 1 && len(n.Recv.List[0].Names) == 1 && n.Body != nil {
					recv := info.Defs[n.Recv.List[0].Names[0]]
					if recv != nil && checksFieldNil(info, n.Body, recv) {
						mark(recv.Type())
					}
				}
			}
			return true
		})
	}
	return made
}

// checksFieldNil reports whether body compares a field of recv with nil.
func checksFieldNil(info *types.Info, body *ast.BlockStmt, recv types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if found || !ok || be.Op != token.EQL && be.Op != token.NEQ {
			return !found
		}
		for _, side := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
			sel, ok := ast.Unparen(side[0]).(*ast.SelectorExpr)
			if !ok || !isNil(info, side[1]) {
				continue
			}
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && info.Uses[id] == recv {
				found = true
			}
		}
		return !found
	})
	return found
}

// isNil reports whether e is the predeclared nil.
func isNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}
