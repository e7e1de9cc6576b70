package mock

import (
	"flag"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const src = `package p

import "io"

type Node interface {
	Kind() int
	Next() Node
}

type Handler interface {
	Handle(n Node, data []byte) (int, error)
	io.Closer
}

type Marker struct{}

type Source interface {
	Read(p []byte) (n int, err error)
}
`

// TestSource writes the mock types of a few forms, in both versions (the
// worker's, whose methods call the runtime, and the generated tests'),
// compares them with golden files, and checks that each version
// type-checks together with the package.
func TestSource(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	methods := func(name string) []*types.Func {
		it := pkg.Scope().Lookup(name).Type().Underlying().(*types.Interface)
		var ms []*types.Func
		for i := 0; i < it.NumMethods(); i++ {
			ms = append(ms, it.Method(i))
		}
		return ms
	}
	marker := pkg.Scope().Lookup("Marker").Type().(*types.Named)
	mocks := []*Type{
		New(pkg, "dowseNode", []string{"Node"}, methods("Node"), true, Struct, ""),
		New(pkg, "dowseHandlerRoleA", []string{"Handler"}, methods("Handler"), false, Struct, `role:"A"`),
		New(pkg, "dowseNodeEmpty", []string{"Node"}, methods("Node"), true, Empty, ""),
		New(pkg, "dowseNodeInt", []string{"Node"}, methods("Node"), false, NonStruct, ""),
		NewAnnotated(pkg, "dowseMarkerId7", marker, true, false, `id:"7"`),
		New(pkg, "dowseSource", []string{"Source"}, methods("Source"), true, Struct, ""),
	}
	for _, version := range []struct{ name, rt string }{{"test", ""}, {"worker", "dowsert"}} {
		t.Run(version.name, func(t *testing.T) {
			out := "package p\n\nimport (\n\t\"reflect\"\n\t\"strconv\"\n\t\"strings\"\n)\n\n"
			if version.rt != "" {
				out += "import dowsert \"github.com/dowse-go/dowse/rt\"\n\n"
			}
			q := func(p *types.Package) string {
				if p == pkg {
					return ""
				}
				return p.Name()
			}
			var records []*Type
			for _, m := range mocks {
				out += m.Source(q, version.rt) + "\n"
				if m.Records() && version.rt == "" {
					records = append(records, m)
				}
			}
			out += RecorderSource(q, records)
			got, err := format.Source([]byte(out))
			if err != nil {
				t.Fatalf("the source does not parse: %v\n%s", err, out)
			}
			golden := filepath.Join("testdata", version.name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("source:\n%s\nwant:\n%s", got, want)
			}
			if version.rt != "" {
				return // the runtime is not importable here; the e2e tests build it
			}
			g, err := parser.ParseFile(fset, "mocks.go", got, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f, g}, nil); err != nil {
				t.Errorf("the mocks do not type-check with the package: %v", err)
			}
		})
	}
}
