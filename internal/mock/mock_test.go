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
	"strings"
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
			out += RecorderSource(q, DefaultHelpers, records)
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

// Names gives every generated declaration of a package a name of its own:
// the helpers first (suffixed where the package declares their names),
// then mock types and their result types, suffixed where the package or
// an earlier generated declaration has the name; the same requests give
// the same names.
func TestNames(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", `package p

import "io"

type Source interface {
	Reader() (io.Reader, error)
}

type SourceReader interface {
	Source
	io.Reader
}

func dowseCallsOf() {}
`, 0)
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
	run := func() []string {
		declared := map[string]bool{"dowseCallsOf": true, "dowseSource2": true, "dowseRecordCall": true, "dowseRecordCall1": true}
		n := NewNames(func(s string) bool { return declared[s] })
		h := n.Helpers()
		out := []string{h.RecordCall, h.CallsOf, h.FormatArg}
		for _, m := range []*Type{
			n.New(pkg, "dowseSource", []string{"Source"}, methods("Source"), true, Struct, ""),
			n.New(pkg, "dowseSourceReader", []string{"Source", "Reader"}, methods("SourceReader"), true, Struct, ""),
			n.New(pkg, "dowseSource", []string{"Source"}, methods("Source"), false, Struct, ""),
			n.New(pkg, "dowseSource", []string{"Source"}, methods("Source"), true, Empty, ""),
			n.New(pkg, "dowseRecordCall", []string{"Source"}, methods("Source"), true, Empty, ""),
		} {
			out = append(out, m.Name)
			for _, r := range m.Results {
				if r != nil {
					out = append(out, r.Obj().Name())
				}
			}
			if m.Helpers() != h {
				t.Errorf("%s: helpers %v, want %v", m.Name, m.Helpers(), h)
			}
		}
		return out
	}
	got := run()
	want := []string{
		"dowseRecordCall2", "dowseCallsOf1", "dowseFormatArg",
		"dowseSource", "dowseSourceReader",
		"dowseSourceReader1", "dowseSourceReader1Read", "dowseSourceReader1Reader",
		"dowseSource1", "dowseSource1Reader",
		"dowseSource3",
		"dowseRecordCall3",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("names %v,\nwant %v", got, want)
	}
	if again := run(); strings.Join(again, " ") != strings.Join(got, " ") {
		t.Errorf("a second time, names %v, want %v", again, got)
	}
	// The recorder writes the helpers under the package's names, and the
	// mocks call them so.
	m := NewNames(func(s string) bool { return s == "dowseRecordCall" }).New(pkg, "dowseSource", []string{"Source"}, methods("Source"), true, Struct, "")
	q := func(*types.Package) string { return "" }
	if src := m.Source(q, ""); !strings.Contains(src, "dowseRecordCall1(&m.got") {
		t.Errorf("the mock does not call dowseRecordCall1:\n%s", src)
	}
	if src := RecorderSource(q, m.Helpers(), []*Type{m}); !strings.Contains(src, "func dowseRecordCall1(") || !strings.Contains(src, "func dowseCallsOf(") || !strings.Contains(src, "dowseFormatArg(&b,") {
		t.Errorf("the recorder does not declare the package's names:\n%s", src)
	}
}

// The field holding an unexported method's scripted results does not
// take the method's name, which the type would then have twice.
func TestFieldsAreNoMethods(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", `package p

type tomlType interface {
	typeString() string
	String() string
}
`, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	it := pkg.Scope().Lookup("tomlType").Type().Underlying().(*types.Interface)
	var ms []*types.Func
	for i := 0; i < it.NumMethods(); i++ {
		ms = append(ms, it.Method(i))
	}
	m := New(pkg, "dowseTomlType", []string{"tomlType"}, ms, true, Struct, "")
	for i, fn := range ms {
		for _, other := range ms {
			if m.Fields[i] == other.Name() {
				t.Errorf("the results of %s are in field %s, a method's name", fn.Name(), m.Fields[i])
			}
		}
	}
}
