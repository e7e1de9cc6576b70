package emit

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dowse-go/dowse/internal/mock"
)

// The mock types that generated tests use (docs/mocks.md) are declared
// once per package variant, in a file of their own: the generated files
// of several source files (every source file of a package has its own
// file of automatic targets) often use the same mock, and a type
// declared in two files of a package does not compile. The file declares
// exactly the known mock types that some generated file of the variant
// refers to, so tests kept from an earlier run (File.Keep, or files this
// run does not rewrite) keep their types.

// MockFileName is the name of the file declaring the mock types of a
// package's generated tests; MockFileNameX that of its external test
// package.
const (
	MockFileName  = "dowse_mocks_test.go"
	MockFileNameX = "dowse_mocks_x_test.go"
)

// MockFile describes the mock declarations of one package variant.
type MockFile struct {
	Pkg      *types.Package // the package variant the generated tests are in
	Dir      string         // the package directory
	External bool           // Pkg is the external test package
	// Mocks are the mock types the variant's targets may use (their
	// Target.Mocks); those some generated file refers to are declared.
	Mocks []*mock.Type
	// All declares every one of Mocks, referred to or not. The file is
	// written so before the test files that may refer to them, so that
	// a stop between two files never leaves a package whose tests do
	// not compile; the write after them keeps those referred to.
	All bool
}

// WriteMocks writes the file declaring the mock types that the generated
// test files of f's variant refer to, or removes it when they refer to
// none. It returns the path if the file changed.
func WriteMocks(f MockFile) (changed []string, err error) {
	name := MockFileName
	if f.External {
		name = MockFileNameX
	}
	path := filepath.Join(f.Dir, name)
	used, err := referenced(f.Dir, name, f.Pkg.Name())
	if err != nil {
		return nil, fmt.Errorf("emit %s: %w", name, err)
	}
	byName := map[string]*mock.Type{}
	for _, m := range f.Mocks {
		if used[m.Name] || f.All {
			byName[m.Name] = m
		}
	}
	if len(byName) == 0 {
		if len(f.Mocks) == 0 && declaresUsed(path, used) {
			// This run offers no mock types (-mocks=false) but kept
			// tests still use the ones declared: leave them.
			return nil, nil
		}
		removed, err := removeOwned(path, isGenerated)
		if err != nil {
			return nil, fmt.Errorf("emit %s: %w", name, err)
		}
		if removed {
			return []string{path}, nil
		}
		return nil, nil
	}
	imports := newImportSet(f.Pkg.Path(), f.Pkg.Scope().Names())
	var body bytes.Buffer
	var records []*mock.Type
	for _, n := range slices.Sorted(maps.Keys(byName)) {
		body.WriteString("\n" + byName[n].Source(imports.qualifier, ""))
		if byName[n].Records() {
			records = append(records, byName[n])
		}
	}
	if len(records) > 0 {
		body.WriteString(mock.RecorderSource(imports.qualifier, records[0].Helpers(), records))
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n\n", Header)
	fmt.Fprintf(&b, "package %s\n\n", f.Pkg.Name())
	writeImports(&b, imports)
	b.Write(body.Bytes())
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("emit %s: generated code does not parse (a bug in emit): %w", name, err)
	}
	if src, err = withoutAny(src, f.Pkg); err != nil {
		return nil, fmt.Errorf("emit %s: %w", name, err)
	}
	if changed, err := writeOwned(path, src, isGenerated); err != nil {
		return nil, fmt.Errorf("emit %s: %w", name, err)
	} else if changed {
		return []string{path}, nil
	}
	return nil, nil
}

// declaresUsed reports whether the generated file path declares a type
// whose name is in used.
func declaresUsed(path string, used map[string]bool) bool {
	src, err := os.ReadFile(path)
	if err != nil || !isGenerated(src) {
		return false
	}
	file, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	for _, d := range file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				if used[sp.(*ast.TypeSpec).Name.Name] {
					return true
				}
			}
		}
	}
	return false
}

// referenced returns the identifiers used in the generated test files of
// package pkgName in dir, other than the file self.
func referenced(dir, self, pkgName string) (map[string]bool, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	for _, n := range names {
		if filepath.Base(n) == self {
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		if !isGenerated(src) {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), n, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("reading the generated %s: %w", filepath.Base(n), err)
		}
		if file.Name.Name != pkgName {
			continue
		}
		ast.Inspect(file, func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok && strings.HasPrefix(id.Name, "dowse") {
				used[id.Name] = true
			}
			return true
		})
	}
	return used, nil
}
