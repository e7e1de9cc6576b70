package load

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"testing"
)

// TestReadOnlyMethods checks which methods the builds of values leave out
// as unable to change their receiver.
func TestReadOnlyMethods(t *testing.T) {
	const src = `package p

import "sort"

type entry struct {
	key, value int
	next       *entry
}

type Table struct {
	buckets []*entry
	count   int
	keys    []int
	names   map[string]int
}

func (h *Table) Len() int { return h.count }

func (h *Table) find(key int) *entry {
	for e := h.buckets[key%len(h.buckets)]; e != nil; e = e.next {
		if e.key == key {
			return e
		}
	}
	return nil
}

func (h *Table) Get(key int) (int, bool) {
	if e := h.find(key); e != nil {
		return e.value, true
	}
	return 0, false
}

func (h *Table) Sum() int {
	s := 0
	for _, k := range h.keys {
		s += k
	}
	return s + len(h.names)
}

func (h *Table) Update(key, value int) {
	if e := h.find(key); e != nil {
		e.value = value // through a pointer the receiver reaches
	}
}

func (h *Table) Clear() { h.count = 0 }

func (h *Table) Reset() { h.Clear() }

func (h *Table) Sort() { sort.Ints(h.keys) }

func (h *Table) Drop(name string) { delete(h.names, name) }

func (h *Table) Alias() {
	ks := h.keys
	ks[0] = 1
}

func (h *Table) Address() *int { return &h.count }

func (h *Table) Bump() { h.count++ }

func (h *Table) Replace(o *Table) { *h = *o }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	var got []string
	for fn, ro := range readOnlyMethods(info, []*ast.File{f}) {
		if ro {
			got = append(got, fn.Name())
		}
	}
	sort.Strings(got)
	if want := "Get Len Sum find"; strings.Join(got, " ") != want {
		t.Errorf("read-only methods: %s, want %s", strings.Join(got, " "), want)
	}
}
