package load

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

func TestIndexSites(t *testing.T) {
	const src = `package p

type byAge []struct{ name string; age int }

func (a byAge) Len() int { return len(a) }

func (a byAge) Less(i, j int) bool {
	return a[i].age < a[j].age
}

func (a byAge) Swap(i, j int) {
	a[i], a[j] =
		a[j], a[i]
}

type ring struct{ items []int }

func (r *ring) Len() int { return len(r.items) }

func (r *ring) Less(i, j int) bool { return r.items[i+1] < r.items[j] }

func (r ring) Swap(i, j int) { r.items[i], r.items[j] = r.items[j], r.items[i] }

type pair [2]int

func (p pair) Less(i, j int) bool { return p[i] < p[j] }

type sized []int

func (s sized) Len() int64 { return int64(len(s)) }

func (s sized) Swap(i, j int) { s[i], s[j] = s[j], s[i] }

type table []int

func (t table) Len() int { return len(t) }

func (t table) Get(i int) int { return t[i] }

func (t table) Swap(i, j int) int { t[i], t[j] = t[j], t[i]; return 0 }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		recv, fn string
		want     []string
	}{
		{"byAge", "Less", []string{"p.go:8", "p.go:8"}},
		{"byAge", "Swap", []string{"p.go:12", "p.go:12", "p.go:13", "p.go:13"}},
		// Len of the pointer's method set; an index the method computes
		// (i+1) is not the caller's.
		{"ring", "Less", []string{"p.go:20"}},
		{"ring", "Swap", []string{"p.go:22", "p.go:22", "p.go:22", "p.go:22"}},
		{"pair", "Less", nil},  // no Len: not a sort.Interface
		{"sized", "Swap", nil}, // Len() int64
		{"table", "Get", nil},  // not Less or Swap
		{"table", "Swap", nil}, // Swap with a result
	}
	decls := map[[2]string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
			recv := fd.Recv.List[0].Type
			if s, ok := recv.(*ast.StarExpr); ok {
				recv = s.X
			}
			decls[[2]string{recv.(*ast.Ident).Name, fd.Name.Name}] = fd
		}
	}
	for _, tt := range tests {
		t.Run(tt.recv+"."+tt.fn, func(t *testing.T) {
			fd := decls[[2]string{tt.recv, tt.fn}]
			if fd == nil {
				t.Fatalf("no method %s.%s", tt.recv, tt.fn)
			}
			fn := info.Defs[fd.Name].(*types.Func)
			if got := indexSites(fd, info, fset, fn); !slices.Equal(got, tt.want) {
				t.Errorf("indexSites = %q, want %q", got, tt.want)
			}
		})
	}
}
