package load

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

func TestZeroMadeTypes(t *testing.T) {
	const src = `package p

type Iter struct{ l *List; i int }     // made only by List.Iter
type List struct{ xs []int }           // var l List below
type Buf struct{ b []byte }            // Buf{} below
type Node struct{ next *Node }         // new(Node) below
type Ptr struct{ p *int }              // &Ptr{} below
type Guard struct{ m map[string]int }  // its method checks m against nil
type Filled struct{ p *int }           // made with fields only
type Pointed struct{ p *int }          // only a nil pointer of it

// Doc holds things. The zero value is ready to use.
type Doc struct{ m map[int]int }

func (l *List) Iter() Iter { return Iter{l: l, i: -1} }

func (g *Guard) Put(k string) {
	if g.m == nil {
		g.m = map[string]int{}
	}
	g.m[k]++
}

var _ = (*Pointed)(nil)

func use() {
	var l List
	_ = l
	_ = Buf{}
	_ = new(Node)
	_ = &Ptr{}
	x := 1
	_ = Filled{p: &x}
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	made := zeroMadeTypes(info, []*ast.File{f})
	tests := []struct {
		typ  string
		want bool
	}{
		{"Iter", false},
		{"List", true},
		{"Buf", true},
		{"Node", true},
		{"Ptr", true},
		{"Guard", true},
		{"Filled", false},
		{"Pointed", false},
		{"Doc", true},
	}
	for _, tt := range tests {
		tn := pkg.Scope().Lookup(tt.typ).(*types.TypeName)
		if made[tn] != tt.want {
			t.Errorf("%s: zero value made = %v, want %v", tt.typ, made[tn], tt.want)
		}
	}
}

func TestMethodConstructors(t *testing.T) {
	const src = `package p

type List struct{ xs []int }
type Iter struct{ l *List; i int }
type Cur struct{ l *List }
type Other struct{}

func (l *List) Iter() Iter                { return Iter{l: l, i: -1} }
func (l *List) IterPtr() *Iter            { return &Iter{l: l, i: -1} }
func (l List) Cursor() (Cur, error)       { return Cur{l: &l}, nil }
func (l *List) Many(n int) (Iter, int)    { return Iter{}, n }
func (l *List) Items(xs ...int) Iter      { return Iter{} }
func (o Other) unexported() Iter          { return Iter{} }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	named := func(n string) *types.Named { return pkg.Scope().Lookup(n).(*types.TypeName).Type().(*types.Named) }
	tests := []struct {
		t    types.Type
		want []string
	}{
		{types.NewPointer(named("Iter")), []string{"IterPtr", "Iter", "Items"}}, // *Iter exactly first, then Iter by address; variadic ones too
		{named("Iter"), []string{"Iter", "Items"}},
		{named("Cur"), []string{"Cursor"}},
		{named("Other"), nil},
	}
	for _, tt := range tests {
		n := tt.t
		if p, ok := n.(*types.Pointer); ok {
			n = p.Elem()
		}
		b := newLayoutBuilder(pkg, true, nil, nil)
		var got []string
		for _, m := range b.methodConstructors(n.(*types.Named), tt.t) {
			got = append(got, m.Name())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("methodConstructors(%s) = %v, want %v", tt.t, got, tt.want)
		}
	}
}
