package load

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The Less(i, j int) bool and Swap(i, j int) methods of a type with a
// Len() int method implement sort.Interface (and heap.Interface), whose
// contract says they are called with indices in [0, Len()): an index out
// of range there is the caller's error, a precondition of the method as
// a documented panic is, not a bug. Only indexing with the parameters
// themselves counts (cs[i], v[j].key); an index the method computes, or
// one deeper in what it calls, is still a finding.

// indexSites returns the positions ("file:line") where fn, declared by
// fd, indexes with one of its parameters, if fn is the Less or Swap
// method of a sort.Interface.
func indexSites(fd *ast.FuncDecl, info *types.Info, fset *token.FileSet, fn *types.Func) []string {
	if fd.Body == nil || !sortIndexMethod(fn) {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	isParam := map[types.Object]bool{sig.Params().At(0): true, sig.Params().At(1): true}
	var sites []string
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		ix, ok := n.(*ast.IndexExpr)
		if !ok {
			return true
		}
		if id, ok := ast.Unparen(ix.Index).(*ast.Ident); ok && isParam[info.Uses[id]] {
			sites = append(sites, positionLine(fset.Position(ix.Lbrack)))
		}
		return true
	})
	return sites
}

// sortIndexMethod reports whether fn is Less(i, j int) bool or
// Swap(i, j int) of a type whose method set (of its pointer) has
// Len() int.
func sortIndexMethod(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || sig.Params().Len() != 2 || !isInt(sig.Params().At(0).Type()) || !isInt(sig.Params().At(1).Type()) {
		return false
	}
	switch fn.Name() {
	case "Less":
		if sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
			return false
		}
	case "Swap":
		if sig.Results().Len() != 0 {
			return false
		}
	default:
		return false
	}
	recv := sig.Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(recv), false, fn.Pkg(), "Len")
	lenFn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	ls := lenFn.Type().(*types.Signature)
	return ls.Params().Len() == 0 && ls.Results().Len() == 1 && isInt(ls.Results().At(0).Type())
}

// isInt reports whether t is the predeclared int.
func isInt(t types.Type) bool {
	return types.Identical(t, types.Typ[types.Int])
}
