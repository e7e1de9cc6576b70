package instrument

import (
	"go/types"
	"testing"
)

func TestDefaultPolicy(t *testing.T) {
	mk := func(pkgPath, name string, generic bool) *types.Func {
		pkg := types.NewPackage(pkgPath, pkgPath[len(pkgPath)-1:])
		var tparams []*types.TypeParam
		if generic {
			tparams = []*types.TypeParam{types.NewTypeParam(types.NewTypeName(0, pkg, "T", nil), types.NewInterfaceType(nil, nil))}
		}
		sig := types.NewSignatureType(nil, nil, tparams, types.NewTuple(), types.NewTuple(), false)
		return types.NewFunc(0, pkg, name, sig)
	}
	policy := DefaultPolicy(func(path string) bool { return path == "example.com/a" })
	for _, c := range []struct {
		fn   *types.Func
		want Treatment
	}{
		{mk("strings", "HasPrefix", false), Modelled},
		{mk("strings", "Map", false), Concrete},
		{mk("example.com/a", "F", false), Instrumented},
		{mk("example.com/a", "G", true), Concrete},
		{mk("example.com/b", "F", false), Concrete},
	} {
		if got := policy(c.fn); got != c.want {
			t.Errorf("%s: %v, want %v", c.fn.FullName(), got, c.want)
		}
	}
	if got := DefaultPolicy(nil)(mk("example.com/a", "F", false)); got != Concrete {
		t.Errorf("no instrumented packages: %v, want concrete", got)
	}
}
