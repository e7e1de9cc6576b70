package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

func TestWithoutAny(t *testing.T) {
	src := Header + `

package p

func dowseRecordCall(got *[]string, method string, args ...any) {}

func f(v any) (any, map[string]any) {
	tests := []struct{ any int }{{any: 1}}
	_ = tests[0].any
	return v, nil
}
`
	for _, tt := range []struct {
		version string
		declare bool // the package declares a name any
		anys    int  // "any" words left
	}{
		{"go1.12", false, 3}, // the field, its key and its selector
		{"go1.17", false, 3},
		{"go1.18", false, 7},
		{"", false, 7},
		{"go1.12", true, 7},
	} {
		decl := "package p\n"
		if tt.declare {
			decl += "type any int\n"
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "p.go", decl, 0)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := (&types.Config{GoVersion: tt.version}).Check("example.com/p", fset, []*ast.File{file}, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := withoutAny([]byte(src), pkg)
		if err != nil {
			t.Fatal(err)
		}
		words := strings.FieldsFunc(string(out), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
		})
		n := 0
		for _, w := range words {
			if w == "any" {
				n++
			}
		}
		if n != tt.anys {
			t.Errorf("%s (declared %v): %d any left, want %d:\n%s", tt.version, tt.declare, n, tt.anys, out)
		}
	}
}
