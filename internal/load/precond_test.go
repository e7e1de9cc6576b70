package load

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

func TestAssertSites(t *testing.T) {
	const src = `package p

import "fmt"

var last any

type box struct{ v any }

func Int8s(a, b any) int {
	x := a.(int8)
	y := b.(int8)
	return int(x - y)
}

func Checked(a any) int {
	x, ok := a.(int)
	if !ok {
		return 0
	}
	return x
}

func AfterCall(a any) int {
	fmt.Println("comparing")
	return a.(int)
}

func CallFirst(a, b any) int {
	return len(fmt.Sprint(b)) + a.(int)
}

func AfterStore(a any) int {
	last = a
	return a.(int)
}

func InReturn(a, b any) bool {
	return a.(string) < b.(string)
}

func ArgOfCall(a any) string {
	return fmt.Sprint(a.(int))
}

func Conversion(a any) int64 {
	return int64(a.(int32))
}

func Field(b box) int {
	return b.v.(int)
}

func Var(a any) int {
	var n = a.(int)
	return n
}

func Local(a any) int {
	a = 5
	return a.(int)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		fn   string
		want []string
	}{
		{"Int8s", []string{"p.go:10", "p.go:11"}},
		{"Checked", nil},
		{"AfterCall", nil},
		{"CallFirst", nil},
		{"AfterStore", nil},
		{"InReturn", []string{"p.go:38", "p.go:38"}},
		{"ArgOfCall", []string{"p.go:42"}},
		{"Conversion", []string{"p.go:46"}},
		{"Field", nil},
		{"Var", []string{"p.go:54"}},
		{"Local", nil},
	}
	decls := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			decls[fd.Name.Name] = fd
		}
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			fd := decls[tt.fn]
			sig := info.Defs[fd.Name].(*types.Func).Type().(*types.Signature)
			if got := assertSites(fd, info, fset, sig); !slices.Equal(got, tt.want) {
				t.Errorf("assertSites = %q, want %q", got, tt.want)
			}
		})
	}
}
