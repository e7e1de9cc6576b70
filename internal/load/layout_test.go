package load

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

// A type whose shape failed midway (a field dowse cannot build, behind a
// pointer back to the type) must fail again where it is used next, not
// reuse the shape begun for it.
func TestFailedShapeIsForgotten(t *testing.T) {
	const src = `package p

type Node struct {
	next *Node
	f    complex128
}

type Wrapper struct{ n *Node }

type Stack struct{ items []int }

func (s *Stack) Push(n *Node) {}
func (s *Stack) Link(n *Node) {}
func (s *Stack) Add(x int)    {}
func (s *Stack) Wrap(w *Wrapper) {}

func Use(s *Stack) {}
`
	pkg := checkPackage(t, src)
	use := pkg.Scope().Lookup("Use").(*types.Func)
	l, _, err := layoutFor("Use", []*types.Var{use.Type().(*types.Signature).Params().At(0)}, pkg, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	bd := l.Shapes[l.Params[0].Shape].Build
	if bd == nil {
		t.Fatalf("*Stack is not built: %+v", l.Shapes[l.Params[0].Shape])
	}
	var names []string
	for _, m := range bd.Methods {
		names = append(names, m.Name)
	}
	if len(names) != 1 || names[0] != "Add" {
		t.Errorf("methods offered %v, want only Add (Link, Push and Wrap take a *Node, which cannot be built)", names)
	}
	if err := l.Check(); err != nil {
		t.Fatal(err)
	}
	SetBounds(l, 2)
	if _, err := l.Leaves(); err != nil {
		t.Fatal(err)
	}
}

// checkPackage type-checks src as package p.
func checkPackage(t *testing.T, src string) *types.Package {
	t.Helper()
	pkg, _, _ := checkSource(t, src)
	return pkg
}

// checkSource type-checks src as package p, with the uses, definitions and
// selections recorded.
func checkSource(t *testing.T, src string) (*types.Package, *types.Info, *ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return pkg, info, f
}

// leafPaths lays out the parameters of function name of pkg with length
// bound 2 and returns the paths of the leaves.
func leafPaths(t *testing.T, pkg *types.Package, name string) (*rt.Layout, []string) {
	t.Helper()
	sig := pkg.Scope().Lookup(name).(*types.Func).Type().(*types.Signature)
	var params []*types.Var
	for i := 0; i < sig.Params().Len(); i++ {
		params = append(params, sig.Params().At(i))
	}
	l, err := LayoutOf(name, params, pkg)
	if err != nil {
		t.Fatal(err)
	}
	SetBounds(l, 2)
	leaves, err := l.Leaves()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, lf := range leaves {
		paths = append(paths, lf.Path+":"+lf.K.String())
	}
	return l, paths
}

// An io.Reader is a length and MaxLen bytes; only the exact interface is
// one (an io.ByteReader is not).
func TestReaderLayout(t *testing.T) {
	pkg := checkPackage(t, `package p

import "io"

type In struct{ Body io.Reader }

func Read(r io.Reader, in In) {}

func Bytes(r io.ByteReader) {}
`)
	l, paths := leafPaths(t, pkg, "Read")
	want := []string{"len(r):int64", "r[0]:uint8", "r[1]:uint8", "len(in.Body):int64", "in.Body[0]:uint8", "in.Body[1]:uint8"}
	if !slices.Equal(paths, want) {
		t.Errorf("leaves %v, want %v", paths, want)
	}
	if k := l.Shapes[l.Params[0].Shape].Kind; k != rt.ShapeReader {
		t.Errorf("io.Reader has shape %s", k)
	}
	bytes := pkg.Scope().Lookup("Bytes").(*types.Func).Type().(*types.Signature).Params().At(0)
	if _, err := LayoutOf("Bytes", []*types.Var{bytes}, pkg); err == nil {
		t.Error("io.ByteReader got a layout")
	}
}

// A channel the target receives from is a length and MaxLen elements; a
// send-only one has no leaves; a channel of an unsupported element type is
// refused.
func TestChanLayout(t *testing.T) {
	pkg := checkPackage(t, `package p

type Jobs <-chan *int

func Use(in <-chan int, both chan string, out chan<- int, jobs Jobs) {}

func Floats(c chan complex128) {}
`)
	l, paths := leafPaths(t, pkg, "Use")
	want := []string{"len(in):int64", "in[0]:int64", "in[1]:int64", "len(both):int64", "both[0]:string", "both[1]:string",
		"len(jobs):int64", "jobs[0] != nil:bool", "*jobs[0]:int64", "jobs[1] != nil:bool", "*jobs[1]:int64"}
	if !slices.Equal(paths, want) {
		t.Errorf("leaves %v\nwant %v", paths, want)
	}
	for i, send := range []bool{false, false, true, false} {
		if s := l.Shapes[l.Params[i].Shape]; s.Kind != rt.ShapeChan || s.Send != send {
			t.Errorf("parameter %d has shape %s (send-only %v)", i, s.Kind, s.Send)
		}
	}
	if !l.Choices()[l.Params[3].Shape] || l.Choices()[l.Params[2].Shape] {
		t.Error("a channel of pointers must hold choices, a send-only one none")
	}
	floats := pkg.Scope().Lookup("Floats").(*types.Func).Type().(*types.Signature).Params().At(0)
	if _, err := LayoutOf("Floats", []*types.Var{floats}, pkg); err == nil {
		t.Error("chan complex128 got a layout")
	}
}

// A layout that no unfolding depth keeps within rt.MaxLeaves is cut:
// collections inside collections get fewer slots, their length leaves
// marked Cut, while the same type at the top of a parameter keeps all
// its slots; SetBounds undoes the cut for a bound at which the layout
// fits, and a layout that fits is left as it was.
func TestSetBoundsCutsNestedCollections(t *testing.T) {
	pkg := checkPackage(t, `package p

type Limit struct {
	Key string
	Max int
}

type Server struct {
	Name   string
	Ports  []int
	Labels map[string]string
	Limits []Limit
}

type Env struct {
	Name    string
	Servers []Server
}

type Config struct {
	Title string
	Envs  []Env
}

func Use(cfg *Config, ports []int) {}
`)
	sig := pkg.Scope().Lookup("Use").(*types.Func).Type().(*types.Signature)
	l, err := LayoutOf("Use", []*types.Var{sig.Params().At(0), sig.Params().At(1)}, pkg)
	if err != nil {
		t.Fatal(err)
	}
	own := len(l.Shapes)
	tests := []struct {
		maxLen int
		cut    bool // nested collections have fewer slots than maxLen
	}{
		{2, false},
		{10, true},
		{16, true},
		{3, false}, // the cut of 16 undone
	}
	for _, tt := range tests {
		SetBounds(l, tt.maxLen)
		if err := l.Check(); err != nil {
			t.Fatalf("max-len %d: %v", tt.maxLen, err)
		}
		leaves, err := l.Leaves()
		if err != nil {
			t.Fatalf("max-len %d: %v", tt.maxLen, err)
		}
		if tt.cut != (len(l.Shapes) > own) {
			t.Errorf("max-len %d: %d shapes, %d without copies: cut %v, want %v", tt.maxLen, len(l.Shapes), own, len(l.Shapes) > own, tt.cut)
		}
		var cut []string
		for _, lf := range leaves {
			if lf.Cut {
				cut = append(cut, lf.Path)
				if lf.Max >= tt.maxLen || lf.Max < 1 {
					t.Errorf("max-len %d: cut leaf %s allows %d elements", tt.maxLen, lf.Path, lf.Max)
				}
			}
			switch lf.Path {
			case "len(ports)", "len(cfg.Envs)":
				if lf.Cut || lf.Max != tt.maxLen {
					t.Errorf("max-len %d: the top collection %s has %d slots (cut %v)", tt.maxLen, lf.Path, lf.Max, lf.Cut)
				}
			}
		}
		if tt.cut != (len(cut) > 0) {
			t.Errorf("max-len %d: cut leaves %v", tt.maxLen, cut)
		}
		if tt.cut && !slices.Contains(cut, "len(cfg.Envs[0].Servers[0].Ports)") {
			t.Errorf("max-len %d: the ports of a server are not cut: %v", tt.maxLen, cut)
		}
	}
}

// SetBounds pools the alternatives of interfaces when they do not fit
// side by side, before it cuts anything, and leaves a layout that fits
// side by side as it is.
func TestSetBoundsPoolsAlternatives(t *testing.T) {
	layout := func(n int) *rt.Layout {
		return &rt.Layout{
			Params: []rt.Param{{Name: "v", Shape: 0}},
			Shapes: []rt.Shape{
				{Kind: rt.ShapeIface, Type: "Record", Outs: []int{1, 3}},
				{Kind: rt.ShapeArray, Type: "Key", Len: n, Elem: 2},
				{Kind: rt.ShapeScalar, Type: "byte", K: rt.KUint8},
				{Kind: rt.ShapeStruct, Type: "Frame", Fields: []rt.Field{{Name: "Data", Index: 0, Shape: 4}, {Name: "Tags", Index: 1, Shape: 5}}},
				{Kind: rt.ShapeArray, Type: "[3000]byte", Len: n, Elem: 2},
				{Kind: rt.ShapeSlice, Type: "[]string", Elem: 6},
				{Kind: rt.ShapeScalar, Type: "string", K: rt.KString},
			},
		}
	}
	tests := []struct {
		n      int // bytes in each alternative
		pooled bool
		leaves int
	}{
		{100, false, 1 + 100 + 100 + 1 + 10},
		{3000, true, 1 + 3000 + 1 + 10},
	}
	for _, tt := range tests {
		l := layout(tt.n)
		SetBounds(l, 10)
		leaves, err := l.Leaves()
		if err != nil {
			t.Fatalf("%d bytes: %v", tt.n, err)
		}
		if l.Shapes[0].Pool != tt.pooled || len(leaves) != tt.leaves {
			t.Errorf("%d bytes: pooled %v, %d leaves; want pooled %v, %d leaves", tt.n, l.Shapes[0].Pool, len(leaves), tt.pooled, tt.leaves)
		}
		for _, lf := range leaves {
			if lf.Cut {
				t.Errorf("%d bytes: %s cut", tt.n, lf.Path)
			}
		}
	}
}

// A value that cannot be built field by field says which type's
// unexported field stands in the way: another package's, not the
// target's (simplelru's LRU holds an internal.LruList).
func TestUnexportedFieldNamesItsType(t *testing.T) {
	const src = `package p

import "text/template/parse"

type Cache struct {
	Size int
	Tree parse.ListNode
}

func Use(c Cache) {}
`
	pkg := checkPackage(t, src)
	use := pkg.Scope().Lookup("Use").(*types.Func)
	_, err := LayoutOf("Use", []*types.Var{use.Type().(*types.Signature).Params().At(0)}, pkg)
	want := "unexported field tr of parse.ListNode cannot be set from package p"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("LayoutOf: %v; want an error saying %q", err, want)
	}
}
