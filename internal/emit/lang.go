package emit

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"go/version"

	"golang.org/x/tools/go/ast/astutil"
)

// Generated code compiles under the language version of the package's
// module (the go line of go.mod, types.Package.GoVersion): a module that
// says go 1.12 cannot use the predeclared any, generic functions
// (slices.Equal, reflect.TypeFor) or the builtins and statements of later
// versions. emit writes what the version allows: interface{} for any,
// reflect.TypeOf((*T)(nil)).Elem() for reflect.TypeFor[T](), and the
// calls mocks recorded compared joined by strings.Join instead of with
// slices.Equal. It writes no min, max or clear builtins, no range over
// integers or functions, and no binary, octal 0o or digit-separated
// literals in any version.

// langAtLeast reports whether the language version of pkg is at least v
// ("go1.18"); an unknown version is the newest.
func langAtLeast(pkg *types.Package, v string) bool {
	lang := pkg.GoVersion()
	return lang == "" || !version.IsValid(lang) || version.Compare(lang, v) >= 0
}

// withoutAny replaces the predeclared any in src, a Go file of package
// pkg, by interface{} when pkg's language version predates it. Types of
// other packages print as any where those packages declare it so (a
// mock of an interface whose methods take any).
func withoutAny(src []byte, pkg *types.Package) ([]byte, error) {
	if langAtLeast(pkg, "go1.18") || pkg.Scope().Lookup("any") != nil || !bytes.Contains(src, []byte("any")) {
		return src, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("generated code does not parse (a bug in emit): %w", err)
	}
	unresolved := map[*ast.Ident]bool{}
	for _, id := range f.Unresolved {
		if id.Name == "any" {
			unresolved[id] = true
		}
	}
	if len(unresolved) == 0 {
		return src, nil
	}
	astutil.Apply(f, func(c *astutil.Cursor) bool {
		if _, key := c.Parent().(*ast.KeyValueExpr); key && c.Name() == "Key" {
			return true // a field name of a literal, as tests' {any: 1}
		}
		if id, ok := c.Node().(*ast.Ident); ok && unresolved[id] {
			c.Replace(&ast.InterfaceType{Methods: &ast.FieldList{}})
		}
		return true
	}, nil)
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return nil, fmt.Errorf("printing generated code: %w", err)
	}
	return b.Bytes(), nil
}
