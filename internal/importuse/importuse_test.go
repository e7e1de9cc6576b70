package importuse

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestBlankUnused removes every call of a function named Exit, as the
// instrumenter removes os.Exit, and checks which imports become blank.
func TestBlankUnused(t *testing.T) {
	tests := []struct {
		name    string
		imports string
		body    string
		want    string // the imports' names after the rewrite, "-" for none
	}{
		{"only use", `"os"`, `os.Exit(1)`, "_"},
		{"other use", `"os"`, `os.Exit(1); _ = os.Getenv("x")`, "-"},
		{"two removed", `"os"`, `os.Exit(1); os.Exit(2)`, "_"},
		{"renamed", `xos "os"`, `xos.Exit(1)`, "_"},
		{"dot only use", `. "os"`, `Exit(1)`, "_"},
		{"dot other use", `. "os"`, `Exit(1); _ = Getenv("x")`, "."},
		{"dot type use", `. "os"`, `Exit(1); var f *File; _ = f`, "."},
		{"dot and named", "\"os\"\n. \"os\"", `Exit(1); _ = os.Getenv("x")`, "- _"},
		{"named removed beside dot", "\"os\"\n. \"os\"", `os.Exit(1); _ = Getenv("x")`, "_ ."},
		{"local function", `"os"`, `Exit(1); _ = os.Args`, "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package p\n\nimport (\n" + tt.imports + "\n)\n\nfunc Exit(int) {}\n\nfunc f() {\n" + tt.body + "\n}\n"
			if strings.Contains(tt.imports, ".") {
				// A dot import of os and a local Exit would collide.
				src = strings.Replace(src, "func Exit(int) {}\n", "", 1)
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "p.go", src, 0)
			if err != nil {
				t.Fatal(err)
			}
			info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}}
			conf := types.Config{Importer: importer.Default()}
			if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
				t.Fatal(err)
			}
			removed := Removed{}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if id := callee(call.Fun); id != nil && id.Name == "Exit" {
					removed.Add(f, info, call.Fun)
					call.Fun = ast.NewIdent("rtExit")
				}
				return true
			})
			BlankUnused(f, info, removed)
			var got []string
			for _, spec := range f.Imports {
				name := "-"
				if spec.Name != nil {
					name = spec.Name.Name
				}
				got = append(got, name)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("imports %q after removing the Exit calls, want %q", got, tt.want)
			}
		})
	}
}

func callee(e ast.Expr) *ast.Ident {
	switch x := e.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}
