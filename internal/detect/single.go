package detect

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dowse-go/dowse/internal/detect/sources"
)

// A Package is one type-checked package with its SSA form, as the
// go/analysis framework provides it.
type Package struct {
	Fset  *token.FileSet
	Files []*ast.File
	Info  *types.Info
	Path  string
	// Funcs are the package's source functions, closures included.
	Funcs []*ssa.Function
	Prog  *ssa.Program
}

// AnalyzePackage runs the intraprocedural analysis over one package alone
// and returns the call sites of its test files. Field facts are those of
// this package's code.
func AnalyzePackage(p *Package, cfg *sources.Config) []*Site {
	s := newSession(p.Fset, p.Prog, sources.NewClassifier(p.Fset, cfg))
	for _, fn := range p.Funcs {
		s.add(fn)
	}
	s.eng.solve()
	return s.sites(&syntaxUnit{path: p.Path, fset: p.Fset, files: p.Files, info: p.Info})
}
