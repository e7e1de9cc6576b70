// Package importuse keeps the imports of a rewritten file valid. A
// rewrite that replaces a call of another package's function (os.Exit by
// the runtime's Exit, strings.Contains by a model, an isolated call by its
// sandbox function) removes a use of that package's import; when it was
// the last one, the compiler rejects the file ("imported and not used").
// The rewrite counts the uses it removes (Removed.Add), and BlankUnused
// then turns every import left without uses into a blank import, which
// still initializes the package as before.
package importuse

import (
	"go/ast"
	"go/types"
)

// Removed counts, per import of a file (its types.Info.PkgNameOf, named
// "." for a dot import), the uses a rewrite removed.
type Removed map[*types.PkgName]int

// Add records that expr, a reference to a function (or another
// package-level object) in file f, is about to be removed from the file.
// References to objects of f's own package, and expressions that are not
// references of that kind, are ignored.
func (r Removed) Add(f *ast.File, info *types.Info, expr ast.Expr) {
	if pn := Ref(f, info, expr); pn != nil {
		r[pn]++
	}
}

// Ref returns the import of f through which expr refers to a
// package-level object of another package: pkg in pkg.F (pkg.F[T] too),
// or the dot import that makes F visible. It returns nil otherwise.
func Ref(f *ast.File, info *types.Info, expr ast.Expr) *types.PkgName {
	switch x := ast.Unparen(expr).(type) {
	case *ast.IndexExpr:
		return Ref(f, info, x.X)
	case *ast.IndexListExpr:
		return Ref(f, info, x.X)
	case *ast.SelectorExpr:
		if id, ok := ast.Unparen(x.X).(*ast.Ident); ok {
			pn, _ := info.Uses[id].(*types.PkgName)
			return pn
		}
	case *ast.Ident:
		obj := info.Uses[x]
		if obj == nil || obj.Pkg() == nil || obj.Pkg().Scope().Lookup(obj.Name()) != obj {
			return nil
		}
		for _, spec := range f.Imports {
			if spec.Name == nil || spec.Name.Name != "." {
				continue
			}
			if pn := info.PkgNameOf(spec); pn != nil && pn.Imported() == obj.Pkg() {
				return pn
			}
		}
	}
	return nil
}

// BlankUnused makes the imports of f whose every use was removed (as
// counted in removed) blank imports. The uses are those type checking
// recorded in info, which the rewrite does not change.
func BlankUnused(f *ast.File, info *types.Info, removed Removed) {
	for _, spec := range f.Imports {
		pn := info.PkgNameOf(spec)
		if pn == nil || removed[pn] == 0 {
			continue
		}
		if uses(f, info, pn) == removed[pn] {
			spec.Name = ast.NewIdent("_")
		}
	}
}

// uses counts the uses of import pn in f: the qualified identifiers
// naming it, or for a dot import the identifiers that refer to its
// package's objects without a qualifier.
func uses(f *ast.File, info *types.Info, pn *types.PkgName) int {
	in := func(id *ast.Ident) bool { return id.Pos() >= f.FileStart && id.Pos() < f.FileEnd }
	n := 0
	if pn.Name() != "." {
		for id, obj := range info.Uses {
			if obj == pn && in(id) {
				n++
			}
		}
		return n
	}
	// Every identifier referring to a package-level object of the
	// package is either unqualified (a use of the dot import) or the
	// selector of a qualified identifier whose qualifier is another
	// import of the same package: count the first by subtracting the
	// second.
	pkg := pn.Imported()
	for id, obj := range info.Uses {
		if !in(id) {
			continue
		}
		if other, ok := obj.(*types.PkgName); ok {
			if other.Imported() == pkg {
				n--
			}
			continue
		}
		if obj.Pkg() == pkg && pkg.Scope().Lookup(obj.Name()) == obj {
			n++
		}
	}
	return n
}
