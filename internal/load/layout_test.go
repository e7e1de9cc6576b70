package load

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// A type whose shape failed midway (a field dowse cannot build, behind a
// pointer back to the type) must fail again where it is used next, not
// reuse the shape begun for it.
func TestFailedShapeIsForgotten(t *testing.T) {
	const src = `package p

type Node struct {
	next *Node
	c    chan int
}

type Wrapper struct{ n *Node }

type Stack struct{ items []int }

func (s *Stack) Push(n *Node) {}
func (s *Stack) Link(n *Node) {}
func (s *Stack) Add(x int)    {}
func (s *Stack) Wrap(w *Wrapper) {}

func Use(s *Stack) {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
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
