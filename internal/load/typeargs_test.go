package load

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestTypeArgs checks the instantiation a generic function is explored
// with: the package's own first one when it can be written without an
// import, else int, else string, else none.
func TestTypeArgs(t *testing.T) {
	const src = `package p

import "strconv"

type Point struct{ X, Y int }

func Keys[K comparable, V any](m map[K]V) []K { return nil }
func Join[S ~string](a, b S) S             { return a + b }
func Conv[T any](v T) T                      { return v }
func Slice[S ~[]E, E any](s S) S             { return s }

var _ = Keys[string, Point](nil)
var _ = Conv[strconv.NumError](strconv.NumError{})
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Instances: map[*ast.Ident]types.Instance{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ fn, want string }{
		{"Keys", "[string, Point]"}, // the package's own instantiation
		{"Join", "[string]"},        // int does not satisfy ~string
		{"Conv", "[int]"},           // its instantiation needs an import
		{"Slice", ""},               // neither int nor string is a slice
	} {
		fn := pkg.Scope().Lookup(tc.fn).(*types.Func)
		sig := fn.Type().(*types.Signature)
		targs, err := typeArgs(fn, sig.TypeParams(), sig, pkg, info)
		got := ""
		if err == nil {
			got = typeArgList(targs, pkg)
		}
		if got != tc.want {
			t.Errorf("%s: type arguments %q (%v), want %q", tc.fn, got, err, tc.want)
		}
	}
}
