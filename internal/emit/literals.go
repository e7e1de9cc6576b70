package emit

import (
	"fmt"
	"go/types"
)

// Literals renders the inputs of each of t's rows as the Go expressions
// the generated test passes for its parameters, written in package pkg
// (other packages' names qualified by their names), e.g.
// `[]byte("B\x00!")`. A row whose inputs cannot be rendered gets nil.
func Literals(pkg *types.Package, t *Target) [][]string {
	if pkg == nil {
		return nil
	}
	r := newRenderer(pkg.Path(), newImportSet(pkg.Path(), nil))
	r.generics = langAtLeast(pkg, "go1.22")
	out := make([][]string, len(t.Rows))
	for i := range t.Rows {
		vals, err := decodeValues(t.Params, t.Layout, t.Funcs, t.Rows[i].Inputs, false, dynTypes{t.Dyn, t.Mocks, t.Vars})
		if err != nil {
			continue
		}
		out[i], _ = render(r, vals)
	}
	return out
}

// render renders vals with r; a value r cannot render is an error, not
// a panic.
func render(r *renderer, vals []*value) (lits []string, err error) {
	defer func() {
		if v := recover(); v != nil {
			lits, err = nil, fmt.Errorf("rendering a literal: %v", v)
		}
	}()
	for _, v := range vals {
		lits = append(lits, r.lit(v, false))
	}
	return lits, nil
}
