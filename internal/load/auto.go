package load

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/rt"
)

// Automatic targets are the exported functions and methods of a package,
// explored directly (no PUT needed): their parameters (and the receiver,
// built field by field) are the inputs, and the worker reports their
// results, which the generated tests then assert. They are read from the
// package's own (non-test) files, in the order of declaration, leaving
// out generated files (ast.IsGenerated: a "// Code generated ... DO NOT
// EDIT." line before the package clause) — a mock generator's fakes,
// protobuf or stringer output: their authors are tools, and their
// preconditions (a fake's ArgsForCall(i) panics past the calls made)
// would be reported as failures. A PUT or fuzz target may still call
// them (docs/architecture.md, -auto).

// findAutoTargets returns the automatic targets of v, the package (with
// its in-package tests, if it has any) whose internal test file will
// serve and check them. Their values of interface type are chosen among
// nil, the package's types and mock types as a PUT's are (docs/mocks.md).
func findAutoTargets(v *packages.Package, fset *token.FileSet, cfg Config) []*Target {
	if v.Types == nil || v.Name == "main" {
		return nil
	}
	var targets []*Target
	var files []*ast.File
	var code []*ast.File // the files whose functions are targets
	for _, f := range v.Syntax {
		if !strings.HasSuffix(fset.File(f.Pos()).Name(), "_test.go") {
			files = append(files, f)
			if !ast.IsGenerated(f) {
				code = append(code, f)
			}
		}
	}
	readOnly := readOnlyMethods(v.TypesInfo, files)
	zeroMade := zeroMadeTypes(v.TypesInfo, files)
	ifaces := newIfaceFacts(v, fset, !cfg.NoMocks, cfg.MockCalls)
	writes := packageWrites(v.TypesInfo, v.Types, files)
	for _, f := range code {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			fn, ok := v.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if t := autoTarget(fn, v.Types, readOnly, zeroMade, ifaces); t != nil {
				t.Pos = fset.Position(fd.Name.Pos())
				t.Decl = fd
				t.PanicsDocumented = strings.HasPrefix(fn.Name(), "Must") ||
					fd.Doc != nil && strings.Contains(strings.ToLower(fd.Doc.Text()), "panic")
				t.Writes = stateWritten(writes, fn, t.Funcs)
				t.AssertSites = assertSites(fd, v.TypesInfo, fset, fn.Type().(*types.Signature))
				targets = append(targets, t)
			}
		}
	}
	return targets
}

// autoTarget describes the target for fn, or returns nil for a method of
// an unexported type (reached through exported functions instead).
func autoTarget(fn *types.Func, pkg *types.Package, readOnly map[*types.Func]bool, zeroMade map[*types.TypeName]bool, ifaces *ifaceFacts) *Target {
	sig := fn.Type().(*types.Signature)
	t := &Target{Name: fn.Name(), Kind: KindFunc, Expr: fn.Name()}
	var params []*types.Var
	if recv := sig.Recv(); recv != nil {
		rtyp := recv.Type()
		ptr, isPtr := types.Unalias(rtyp).(*types.Pointer)
		if isPtr {
			rtyp = ptr.Elem()
		}
		named, ok := types.Unalias(rtyp).(*types.Named)
		if !ok || !named.Obj().Exported() {
			return nil
		}
		t.Kind = KindMethod
		t.Name = named.Obj().Name() + "." + fn.Name()
		t.Expr = named.Obj().Name() + "." + fn.Name()
		if isPtr {
			t.Expr = "(*" + named.Obj().Name() + ")." + fn.Name()
		}
		if named.TypeParams().Len() > 0 {
			t.Err = fmt.Errorf("%s: methods of generic types are not explored automatically", t.Name)
			return t
		}
		name := recv.Name()
		if name == "" || name == "_" {
			name = "recv"
		}
		params = append(params, types.NewParam(recv.Pos(), pkg, name, recv.Type()))
	}
	if sig.TypeParams().Len() > 0 {
		t.Err = fmt.Errorf("%s: generic functions are not explored automatically", t.Name)
		return t
	}
	for i := 0; i < sig.Params().Len(); i++ {
		params = append(params, sig.Params().At(i))
	}
	t.Params = params
	if sig.Variadic() {
		last := params[len(params)-1]
		t.Err = &UnsupportedError{Target: t.Name, Param: paramName(last, len(params)-1), Type: typeString(last.Type(), pkg), Why: "variadic"}
		return t
	}
	ifaces.scope([]types.Object{fn})
	b := newLayoutBuilder(pkg, true, readOnly, ifaces)
	b.zeroMade = zeroMade
	layout, err := b.params(t.Name, params)
	if err != nil {
		t.Err = err
		return t
	}
	t.Funcs = b.funcs
	b.record(t)
	for i := 0; i < sig.Results().Len(); i++ {
		t.Results = append(t.Results, sig.Results().At(i))
	}
	if resultsLayout(layout, t.Results, pkg) {
		for i, p := range params {
			switch types.Unalias(p.Type()).Underlying().(type) {
			case *types.Pointer, *types.Slice:
				shape := layout.Params[i].Shape
				if layout.Shapes[shape].Kind == rt.ShapeBuilt {
					// Reported field by field, if its type can be.
					b := &layoutBuilder{pkg: pkg, l: layout}
					n := len(layout.Shapes)
					var ok bool
					if shape, _, ok = b.shape(p.Type()); !ok {
						layout.Shapes = layout.Shapes[:n]
						continue
					}
				}
				layout.After = append(layout.After, i)
				layout.AfterShapes = append(layout.AfterShapes, shape)
			}
		}
	}
	t.Layout = layout
	return t
}

// notReported reports whether results of shape kind k are left out of
// what an automatic target reports: values that are not data (a context,
// a writer, a reader, a channel), which the generated tests could not
// compare.
func notReported(k rt.ShapeKind) bool {
	return k == rt.ShapeContext || k == rt.ShapeWriter || k == rt.ShapeReader || k == rt.ShapeChan
}

// resultsLayout adds the results to l if every one of them has a layout
// (see rt.Layout.Results) and reports whether they are described;
// otherwise results are not reported and the generated tests do not
// compare them.
func resultsLayout(l *rt.Layout, results []*types.Var, pkg *types.Package) bool {
	if len(results) == 0 {
		return true
	}
	b := &layoutBuilder{pkg: pkg, l: l}
	n := len(l.Shapes)
	var rs []rt.Param
	for _, r := range results {
		shape, _, ok := b.shape(r.Type())
		if !ok || notReported(l.Shapes[shape].Kind) {
			l.Shapes = l.Shapes[:n]
			return false
		}
		rs = append(rs, rt.Param{Name: r.Name(), Shape: shape})
	}
	l.Results = rs
	return true
}

// stateWritten lists, by name, the package-level variables that the
// target fn and the functions building its inputs (funcs) assign.
func stateWritten(writes map[*types.Func][]*types.Var, fn *types.Func, funcs map[string]*types.Func) []string {
	seen := map[*types.Var]bool{}
	var names []string
	add := func(f *types.Func) {
		if f == nil {
			return
		}
		f = f.Origin()
		for _, v := range writes[f] {
			if !seen[v] && !holdsLock(v.Type(), map[types.Type]bool{}) {
				seen[v] = true
				names = append(names, v.Name())
			}
		}
	}
	add(fn)
	for _, f := range funcs {
		add(f)
	}
	sort.Strings(names)
	return names
}

// holdsLock reports whether a value of type t contains, by value, a type
// of package sync or sync/atomic: a copy of it (saving the variable to
// restore it) is what go vet's copylocks check reports, so such variables
// are not restored.
func holdsLock(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		if p := n.Obj().Pkg().Path(); p == "sync" || p == "sync/atomic" {
			return true
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsLock(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Array:
		return holdsLock(u.Elem(), seen)
	}
	return false
}
