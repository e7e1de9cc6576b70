package load

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/rt"
)

// findTargets returns the targets declared in the _test.go files of p,
// and a warning for each function or method named like a PUT whose
// signature is not one.
// decls are the mock types made for p so far.
func findTargets(p *packages.Package, fset *token.FileSet, external bool, cfg Config, decls *mockDecls) (targets []*Target, warnings []string) {
	ifaces := newIfaceFacts(p, fset, !cfg.NoMocks, cfg.MockCalls, decls)
	for _, f := range p.Syntax {
		// dowse's own files declare no targets: the fuzz target holding
		// a fuzz target's failing inputs (FuzzDowseXxxFailures) calls
		// the user's one, which is explored itself.
		if !strings.HasSuffix(fset.File(f.Pos()).Name(), "_test.go") || WrittenByDowse(f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if w := notPUT(fd, p.TypesInfo); w != "" {
				warnings = append(warnings, fmt.Sprintf("%s: %s", relPos(fset.Position(fd.Name.Pos()).String(), cfg.Dir), w))
			}
			if fd.Recv != nil {
				continue
			}
			fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			sig := fn.Type().(*types.Signature)
			var t *Target
			switch {
			case hasPrefix(fd.Name.Name, "Put") && firstParamIs(sig, "T"):
				t = &Target{Name: fd.Name.Name, Kind: KindPUT}
				ifaces.scope([]types.Object{fn})
				t.facts, t.factRoots = ifaces, []types.Object{fn}
				t.Params, t.Layout, t.Err = inputsWith(t, sig, p.Types, ifaces)
			case hasPrefix(fd.Name.Name, "Fuzz") && firstParamIs(sig, "F") && sig.Params().Len() == 1:
				t = &Target{Name: fd.Name.Name, Kind: KindFuzz}
				fuzzTarget(t, fd, p)
			default:
				continue
			}
			t.External = external
			t.Pos = filePosition(p, fset, fd.Name.Pos())
			t.Decl = fd
			if t.Err == nil && fd.Type.TypeParams != nil {
				t.Err = fmt.Errorf("%s: generic functions cannot be targets", t.Name)
			}
			targets = append(targets, t)
		}
	}
	return targets, warnings
}

// notPUT says why fd, named like a PUT (PutXxx), is not one, and what
// its signature must be; "" if it is one or is not named like one.
func notPUT(fd *ast.FuncDecl, info *types.Info) string {
	name := fd.Name.Name
	if !hasPrefix(name, "Put") {
		return ""
	}
	var why string
	if fd.Recv != nil {
		why = "it is a method"
	} else if fn, ok := info.Defs[fd.Name].(*types.Func); ok && !firstParamIs(fn.Type().(*types.Signature), "T") {
		why = "its first parameter is not *testing.T"
	}
	if why == "" {
		return ""
	}
	return fmt.Sprintf("%s is not explored: %s; a parameterized unit test is a function func %s(t *testing.T, inputs...)", name, why, name)
}

// hasPrefix reports whether name is prefix followed by nothing or by a
// character that is not a lower-case letter, the rule go test applies to
// TestXxx.
func hasPrefix(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

// firstParamIs reports whether sig's first parameter is *testing.<name>.
func firstParamIs(sig *types.Signature, name string) bool {
	if sig.Params().Len() == 0 {
		return false
	}
	return isTesting(sig.Params().At(0).Type(), name)
}

func isTesting(t types.Type, name string) bool {
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok {
		return false
	}
	obj := named.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == "testing" && obj.Name() == name
}

// inputs returns the parameters of sig after the *testing.T and the
// layout of their values, or why dowse cannot generate one of them.
func inputs(target string, sig *types.Signature, pkg *types.Package) ([]*types.Var, *rt.Layout, error) {
	var params []*types.Var
	for i := 1; i < sig.Params().Len(); i++ {
		params = append(params, sig.Params().At(i))
	}
	if sig.Variadic() {
		last := params[len(params)-1]
		return params, nil, &UnsupportedError{Target: target, Param: paramName(last, len(params)-1), Type: typeString(last.Type(), pkg), Why: "variadic"}
	}
	layout, err := LayoutOf(target, params, pkg)
	return params, layout, err
}

// inputsWith is inputs for a PUT, with values of interface type chosen
// among the types ifaces offers (nil or the package's types and
// generated mocks); it records on t the dynamic types and mock types
// the layout uses.
func inputsWith(t *Target, sig *types.Signature, pkg *types.Package, ifaces *ifaceFacts) ([]*types.Var, *rt.Layout, error) {
	var params []*types.Var
	for i := 1; i < sig.Params().Len(); i++ {
		params = append(params, sig.Params().At(i))
	}
	// A variadic parameter ...T is a []T input, passed spread.
	t.Variadic = sig.Variadic()
	b := newLayoutBuilder(pkg, false, nil, ifaces)
	l, err := b.params(t.Name, params)
	if err != nil {
		return params, nil, err
	}
	b.record(t)
	return params, l, nil
}

// record sets on t the dynamic types, variables and mock types the
// layout b built offers interface inputs.
func (b *layoutBuilder) record(t *Target) {
	t.Dyn, t.Vars = b.dyn, b.vars
	for _, n := range slices.Sorted(maps.Keys(b.usedMocks)) {
		t.Mocks = append(t.Mocks, b.usedMocks[n])
	}
}

// typeString writes t as source in pkg would: other packages by name.
func typeString(t types.Type, pkg *types.Package) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p.Path() == pkg.Path() {
			return ""
		}
		return p.Name()
	})
}

func paramName(v *types.Var, i int) string {
	if v.Name() != "" && v.Name() != "_" {
		return v.Name()
	}
	return fmt.Sprintf("#%d", i+1)
}

// fuzzTarget finds the function passed to f.Fuzz in fd and the constant
// seeds added with f.Add.
func fuzzTarget(t *Target, fd *ast.FuncDecl, p *packages.Package) {
	info := p.TypesInfo
	var fuzzArg ast.Expr
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch testingFMethod(call, info) {
		case "Fuzz":
			if fuzzArg == nil && len(call.Args) == 1 {
				fuzzArg = call.Args[0]
			}
		case "Add":
			if seed, ok := constantArgs(call.Args, info); ok {
				t.Seeds = append(t.Seeds, seed)
			}
		}
		return true
	})
	if fuzzArg == nil {
		t.Err = fmt.Errorf("%s: no call of f.Fuzz found", t.Name)
		return
	}
	var sig *types.Signature
	switch a := ast.Unparen(fuzzArg).(type) {
	case *ast.FuncLit:
		t.Func = a
		sig, _ = info.TypeOf(a).(*types.Signature)
	case *ast.Ident:
		fn, ok := info.Uses[a].(*types.Func)
		if ok {
			t.FuncDecl = findFuncDecl(p, fn)
		}
		if t.FuncDecl == nil {
			t.Err = fmt.Errorf("%s: the function passed to f.Fuzz is not a function literal or a function declared in the package", t.Name)
			return
		}
		sig = fn.Type().(*types.Signature)
	default:
		t.Err = fmt.Errorf("%s: the function passed to f.Fuzz is not a function literal or a function declared in the package", t.Name)
		return
	}
	if sig == nil || !firstParamIs(sig, "T") {
		t.Err = fmt.Errorf("%s: the function passed to f.Fuzz does not take *testing.T first", t.Name)
		return
	}
	t.Params, t.Layout, t.Err = inputs(t.Name, sig, p.Types)
}

// testingFMethod returns the name of the method of *testing.F that call
// calls, or "".
func testingFMethod(call *ast.CallExpr, info *types.Info) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return ""
	}
	recv := s.Recv()
	if _, ok := types.Unalias(recv).(*types.Pointer); !ok {
		recv = types.NewPointer(recv)
	}
	if !isTesting(recv, "F") {
		return ""
	}
	return sel.Sel.Name
}

// constantArgs converts the arguments of an f.Add call to Go values if all
// are constants (or []byte conversions of constant strings).
func constantArgs(args []ast.Expr, info *types.Info) ([]any, bool) {
	var out []any
	for _, a := range args {
		tv, ok := info.Types[a]
		if !ok {
			return nil, false
		}
		if tv.Value == nil {
			// []byte("...")
			call, ok := ast.Unparen(a).(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || !isByteSlice(tv.Type) {
				return nil, false
			}
			if inner, ok := info.Types[call.Args[0]]; ok && inner.Value != nil && inner.Value.Kind() == constant.String {
				if fun, ok := info.Types[call.Fun]; ok && fun.IsType() {
					out = append(out, []byte(constant.StringVal(inner.Value)))
					continue
				}
			}
			return nil, false
		}
		b, ok := tv.Type.Underlying().(*types.Basic)
		if !ok {
			return nil, false
		}
		switch {
		case b.Info()&types.IsBoolean != 0:
			out = append(out, constant.BoolVal(tv.Value))
		case b.Info()&types.IsString != 0:
			out = append(out, constant.StringVal(tv.Value))
		case b.Info()&types.IsUnsigned != 0:
			v, exact := constant.Uint64Val(tv.Value)
			if !exact {
				return nil, false
			}
			out = append(out, v)
		case b.Info()&types.IsInteger != 0:
			v, exact := constant.Int64Val(tv.Value)
			if !exact {
				return nil, false
			}
			out = append(out, v)
		case b.Info()&types.IsFloat != 0:
			v, _ := constant.Float64Val(tv.Value)
			out = append(out, v)
		default:
			return nil, false
		}
	}
	return out, true
}

func isByteSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

func findFuncDecl(p *packages.Package, fn *types.Func) *ast.FuncDecl {
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && p.TypesInfo.Defs[fd.Name] == fn {
				return fd
			}
		}
	}
	return nil
}

// Unsupported reports whether err is an *UnsupportedError.
func Unsupported(err error) bool {
	var u *UnsupportedError
	return errors.As(err, &u)
}
