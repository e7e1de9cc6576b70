package load

import (
	"fmt"
	"go/types"

	"github.com/dowse-go/dowse/internal/mock"
	"github.com/dowse-go/dowse/rt"
)

// SandboxParam is an isolated call site whose results are inputs of a
// target (docs/isolate.md): a ShapeFunc with Sandbox set, appended to
// the target's layout after its own parameters.
type SandboxParam struct {
	Key    string         // the site's key in its package ("TransferMoney.RunQuery.1")
	Var    string         // the site's variable in the sandbox file
	Pkg    *types.Package // the package of the site
	Stub   *types.Signature
	Writes []int // the stub's parameters whose pointees each call sets
	// Callee names the isolated function as people write it:
	// "os.ReadFile", "(*sql.DB).Query".
	Callee string
}

// AddSandbox appends to t's layout the parameter of an isolated call site
// of package pkg: per scripted call, the stub's results, then the
// pointees it writes. Results of other packages' types with unexported
// fields are their zero values. A pointee that cannot be built is not
// written (dropped from sp.Writes). An error means a result has no input
// model: the site then returns zero values.
func AddSandbox(t *Target, sp SandboxParam) error {
	if t.Layout == nil {
		return fmt.Errorf("%s: no layout", t.Name)
	}
	b := &layoutBuilder{pkg: sp.Pkg, l: t.Layout, funcs: map[string]*types.Func{}, building: map[*types.TypeName]bool{}, opaque: true}
	if t.Pkg != nil {
		b.pkg = t.Pkg
	}
	if t.facts != nil && t.facts.pkg == b.pkg {
		// Errors are chosen among what the target's code compares them
		// with and asks errors.As for, as a parameter's are: nil, the
		// sentinels (wrapped too), the types, errors.New.
		t.facts.scope(t.factRoots)
		b.ifaces, b.errorsOnly = t.facts, true
		b.dyn, b.vars, b.mockIndex, b.usedMocks = t.Dyn, t.Vars, map[string]int{}, map[string]*mock.Type{}
		if b.dyn == nil {
			b.dyn = map[string]types.Type{}
		}
		if b.vars == nil {
			b.vars = map[string]*types.Var{}
		}
		defer func() { t.Dyn, t.Vars = b.dyn, b.vars }()
	}
	var outs []int
	res := sp.Stub.Results()
	for k := 0; k < res.Len(); k++ {
		o, why, ok := b.shape(res.At(k).Type())
		if !ok {
			if why == "" {
				why = typeString(res.At(k).Type(), b.pkg)
			}
			return fmt.Errorf("result %d: %s", k, why)
		}
		outs = append(outs, o)
	}
	var writes []int
	for _, w := range sp.Writes {
		ptr, ok := sp.Stub.Params().At(w).Type().Underlying().(*types.Pointer)
		if !ok {
			continue
		}
		o, _, ok := b.shape(ptr.Elem())
		if !ok {
			continue
		}
		outs = append(outs, o)
		writes = append(writes, w)
	}
	sp.Writes = writes
	i := b.add(rt.Shape{Kind: rt.ShapeFunc, Type: typeString(sp.Stub, b.pkg), Outs: outs, Sandbox: true, Writes: writes})
	t.Layout.Params = append(t.Layout.Params, rt.Param{Name: "iso:" + sp.Key, Shape: i, Sandbox: sp.Pkg.Path() + "." + sp.Key})
	t.Sandbox = append(t.Sandbox, sp)
	return nil
}
