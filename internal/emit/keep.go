package emit

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
)

// kept is what survives of an existing generated file for the targets that
// are not regenerated (File.Keep): their functions, verbatim, and the
// imports those use.
type kept struct {
	funcs   [][]byte          // source of each kept declaration, doc comment included
	imports map[string]string // import path -> name used by the kept code
}

// keptFuncs reads the generated file goFile in dir, if there is one, and
// returns the declarations that belong to the targets in keep:
// TestDowse<Name>, its failures table (TestDowse<Name>Failures or
// TestDowseFailures<Name>) and FuzzDowse<Name>Failures, or those names
// with the suffix that made them free (taken.go); a function whose name
// the package now declares itself is not kept.
func keptFuncs(dir, goFile string, keep []string, nm namer) (*kept, error) {
	k := &kept{imports: map[string]string{}}
	if len(keep) == 0 {
		return k, nil
	}
	name := filepath.Join(dir, goFile)
	src, err := os.ReadFile(name)
	if err != nil || !isGenerated(src) {
		return k, nil // nothing generated before: nothing to keep
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("reading the existing %s to keep its other targets: %w", goFile, err)
	}
	var bases []string
	for _, t := range keep {
		bases = append(bases, baseNames(t)...)
	}
	importName := map[string]string{} // local name -> path
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		n := filepath.Base(p)
		if imp.Name != nil {
			n = imp.Name.Name
		}
		importName[n] = p
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || !nm.ofTarget(fd.Name.Name, bases) {
			continue
		}
		start := fd.Pos()
		if fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		k.funcs = append(k.funcs, bytes.Clone(src[fset.Position(start).Offset:fset.Position(fd.End()).Offset]))
		ast.Inspect(fd, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					if p, ok := importName[id.Name]; ok {
						k.imports[p] = id.Name
					}
				}
			}
			return true
		})
	}
	return k, nil
}

// paths returns the kept imports' paths in order.
func (k *kept) paths() []string {
	out := make([]string, 0, len(k.imports))
	for p := range k.imports {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
