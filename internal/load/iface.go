package load

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/mock"
	"github.com/dowse-go/dowse/rt"
)

// Values of interface type (docs/mocks.md).
//
// The dynamic type of an interface input is a choice among nil, the
// package's own types that implement the interface, and mock types
// generated for it. Which mocks are worth generating follows from what
// the package's code does with interface values, found here by a scan of
// its syntax: the interfaces it asserts them to (comma-ok or not, and
// type switch cases) give the method sets (a mock implements the input's
// interface and any compatible union of asserted ones), reflection on
// their type (Kind, Elem, NumField) gives the forms (pointer or value,
// struct or not, empty struct), and struct tags it reads and compares
// with constants give the tags of the first field.

// maxAsserted bounds the asserted interfaces combined per input type,
// and maxMethodSets the method sets generated from them.
const (
	// DefaultMockCalls is the number of scripted calls per mock method
	// unless -mock-calls says otherwise.
	DefaultMockCalls = 3
	maxAsserted      = 6
	maxMethodSets    = 16
)

// ifaceFacts is what the code of one package variant does with interface
// values, and the mock types made for its targets.
type ifaceFacts struct {
	pkg   *types.Package
	mocks bool // generate mock types (-mocks)
	calls int  // scripted calls per mock method (-mock-calls)
	// plainError is set while the errors.New shape of an error choice is
	// made.
	plainError int
	// asserted are the interface types values are asserted to, with the
	// static type of the value asserted.
	asserted []assertion
	// concreteAsserts are the assertions to concrete types (v.(*T)).
	concreteAsserts []assertion
	kinds           bool // reflect Kind or Elem is called
	values          bool // reflect NumMethod is called
	// reflected are the arguments of reflect's Implements and
	// AssignableTo calls; the interfaces they name (reflectIface) are
	// what reflection on a value's type asks for, like an assertion,
	// and implementing lists them per target (scope).
	reflected    []reflectArg
	implementing []types.Type
	// inits are the initializers of the package-level variables.
	inits    map[*types.Var]ast.Expr
	numField bool       // reflect NumField is called
	tags     []tagValue // tags read and compared with constants
	// sentinels are the package-level error variables errors are
	// compared with (err == io.EOF, errors.Is(err, ErrX)): the errors
	// mock methods return are chosen among nil, errors.New and these.
	sentinels []*types.Var
	// unwrap says the target reaches a call of errors.Is or errors.As,
	// which look through wrapped errors: errors are then offered
	// wrappers too (a mock whose Unwrap returns an error of the choice
	// again). errUses are those calls in the package, graph what its
	// functions name (reach.go), and baseAsserted and baseConcrete the
	// numbers of asserted and concreteAsserts that the package's
	// assertions give (those of errors.As come after them, per target).
	unwrap  bool
	errUses []errUse
	graph   *callGraph
	// uses are the assertions and comparisons with sentinels the
	// package makes, each with its function: scope keeps, in asserted,
	// concreteAsserts and sentinels, those a target reaches.
	uses []factUse
	// cur is the function being scanned (nil: a package-level
	// declaration).
	cur types.Object
	// fieldNames are the names looked up by reflection (FieldByName
	// with a constant), tagKeys the keys of tags read (Get or Lookup
	// with a constant), and tagSeen the values the package's own struct
	// types give those keys; all types are the package's named types,
	// its test files' included, for reflect.Type inputs.
	fieldNames []string
	tagKeys    []string
	tagSeen    map[string][]string
	all        []*types.TypeName
	concrete   []*types.TypeName
	decls      *mockDecls
}

// mockDecls are the mock types made for one package variant, by
// definition key, and the names given in it: the PUTs and the automatic
// targets of a variant share them, as the worker harness and the file of
// mock types declare the types of both.
type mockDecls struct {
	made  map[string]*mock.Type
	names *mock.Names
}

type assertion struct{ from, to types.Type }

type tagValue struct{ key, value string }

// newIfaceFacts scans the syntax of package variant p (its files except
// those dowse generated).
// decls, if not nil, are the mock types made for the variant so far.
func newIfaceFacts(p *packages.Package, fset *token.FileSet, mocks bool, calls int, decls *mockDecls) *ifaceFacts {
	if calls <= 0 {
		calls = DefaultMockCalls
	}
	f := &ifaceFacts{pkg: p.Types, mocks: mocks, calls: calls, decls: decls, graph: newCallGraph(), inits: map[*types.Var]ast.Expr{}}
	generated := map[string]bool{}
	for _, file := range p.Syntax {
		name := fset.File(file.Pos()).Name()
		if IsGenerated(file) {
			generated[name] = true
			continue
		}
		f.scan(file, p.TypesInfo)
	}
	for _, r := range f.reflected {
		if it := f.reflectIface(r.e, r.info, 0); it != nil {
			f.uses = append(f.uses, factUse{fn: r.fn, implements: it})
		}
	}
	if f.decls == nil {
		f.decls = &mockDecls{made: map[string]*mock.Type{}}
	}
	if f.decls.names == nil {
		f.decls.names = mock.NewNames(declaredIn(p, fset, generated))
	}
	scope := p.Types.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || tn.IsAlias() || generated[fset.Position(tn.Pos()).Filename] || strings.HasSuffix(fset.Position(tn.Pos()).Filename, "_test.go") {
			continue
		}
		if named, ok := tn.Type().(*types.Named); ok && named.TypeParams().Len() == 0 && !types.IsInterface(named) {
			f.concrete = append(f.concrete, tn)
		}
	}
	f.tagSeen = map[string][]string{}
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || tn.IsAlias() || generated[fset.Position(tn.Pos()).Filename] {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
			continue
		}
		f.all = append(f.all, tn)
		if st, ok := named.Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				for _, k := range f.tagKeys {
					if v, ok := reflect.StructTag(st.Tag(i)).Lookup(k); ok && !slices.Contains(f.tagSeen[k], v) {
						f.tagSeen[k] = append(f.tagSeen[k], v)
					}
				}
			}
		}
	}
	return f
}

// tagProbes are the values tried for a tag whose values the code does
// not compare with constants: empty, numbers (zero, small, negative,
// too large for small integer types) and a word.
var tagProbes = []string{"", "0", "1", "-1", "99999", "x"}

// maxTagCombos bounds the tag combinations of the types generated for
// reflect.Type inputs.
const maxTagCombos = 64

// typeChoice builds the shape of a reflect.Type input: nil, or the type
// of a named type of the package (value or pointer), or a generated
// struct type embedding a type the code looks up by name (FieldByName),
// with tags the code reads: one key at a time takes the values compared
// with, those the package's own types use and the probes.
func (b *layoutBuilder) typeChoice(t types.Type) int {
	i := b.done(t, rt.Shape{Kind: rt.ShapeIface, Type: typeString(t, b.pkg)})
	var outs []int
	offer := func(tt types.Type) {
		name := typeString(tt, b.pkg)
		outs = append(outs, b.add(rt.Shape{Kind: rt.ShapeTypeOf, Type: name}))
		b.dyn[name] = tt
	}
	f := b.ifaces
	// A type of another kind than the package's: int and *int.
	offer(types.Typ[types.Int])
	offer(types.NewPointer(types.Typ[types.Int]))
	for _, tn := range f.all {
		offer(tn.Type())
		offer(types.NewPointer(tn.Type()))
	}
	if f.mocks {
		for _, m := range f.annotated() {
			offer(m.Named)
			offer(types.NewPointer(m.Named))
			b.usedMocks[m.Name] = m
		}
	}
	b.l.Shapes[i].Outs = outs
	return i
}

// annotated are the generated struct types offered as reflect.Types.
func (f *ifaceFacts) annotated() []*mock.Type {
	var out []*mock.Type
	for _, n := range f.fieldNames {
		tn, ok := f.pkg.Scope().Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		add := func(embedded bool, tag, sfx string, ptr bool) {
			key := "annotated|" + n + "|" + strconv.FormatBool(embedded) + "|" + strconv.FormatBool(ptr) + "|" + tag
			if m, ok := f.decls.made[key]; ok {
				out = append(out, m)
				return
			}
			m := f.decls.names.NewAnnotated(f.pkg, "dowse"+upperFirst(n)+sfx, named, embedded, ptr, tag)
			f.decls.made[key] = m
			out = append(out, m)
		}
		add(false, "", "Field", false)
		add(true, "", "Ptr", true)
		add(true, "", "", false)
		// The tags: every combination of the keys' values if there are
		// at most maxTagCombos, else one key at a time.
		values := make([][]string, len(f.tagKeys))
		combos := 1
		for j, k := range f.tagKeys {
			values[j] = slices.Clone(tagProbes)
			for _, tv := range f.tags {
				if tv.key == k && !slices.Contains(values[j], tv.value) {
					values[j] = append(values[j], tv.value)
				}
			}
			for _, v := range f.tagSeen[k] {
				if !slices.Contains(values[j], v) {
					values[j] = append(values[j], v)
				}
			}
			combos *= len(values[j])
		}
		var tagSets [][]string // per set, a value per key
		if combos <= maxTagCombos {
			tagSets = [][]string{make([]string, len(f.tagKeys))}
			for j := range f.tagKeys {
				var next [][]string
				for _, set := range tagSets {
					for _, v := range values[j] {
						s := slices.Clone(set)
						s[j] = v
						next = append(next, s)
					}
				}
				tagSets = next
			}
		} else {
			for j := range f.tagKeys {
				for _, v := range values[j] {
					s := make([]string, len(f.tagKeys))
					s[j] = v
					tagSets = append(tagSets, s)
				}
			}
		}
		for _, set := range tagSets {
			var tag []string
			sfx := ""
			for j, v := range set {
				if v == "" {
					continue
				}
				k := f.tagKeys[j]
				tag = append(tag, k+":"+strconv.Quote(v))
				part := upperFirst(identPart(v))
				if strings.HasPrefix(v, "-") {
					part = "Neg" + part
				}
				sfx += upperFirst(identPart(k)) + part
			}
			if len(tag) > 0 {
				add(true, strings.Join(tag, " "), sfx, false)
			}
		}
	}
	return out
}

// IsGenerated reports whether f is a test file dowse wrote.
func IsGenerated(f *ast.File) bool {
	return len(f.Comments) > 0 && f.Comments[0].Pos() < f.Package && f.Comments[0].List[0].Text == GeneratedHeader
}

// errorType is the predeclared error.
var errorType = types.Universe.Lookup("error").Type()

// wrapper is the interface of errors that wrap another (errors.Unwrap's
// contract): the method set a mock adds to reach what errors.Is and
// errors.As find in a chain.
var wrapper = func() types.Type {
	res := types.NewTuple(types.NewVar(token.NoPos, nil, "", errorType))
	m := types.NewFunc(token.NoPos, nil, "Unwrap", types.NewSignatureType(nil, nil, nil, nil, res, false))
	it := types.NewInterfaceType([]*types.Func{m}, nil).Complete()
	return types.NewNamed(types.NewTypeName(token.NoPos, nil, "Wrapper", nil), it, nil)
}()

// assertTo records an assertion of values of static type from to type
// to (an interface or a concrete type).
func (f *ifaceFacts) assertTo(from, to types.Type) {
	if b, ok := to.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return // case nil
	}
	if hasTypeParam(from, nil) || hasTypeParam(to, nil) {
		// Generic code's assertions (v.(T), i.([]T), i.(Getter[T])):
		// neither the worker's harness nor the generated tests can name
		// such a type, and which instance a target reaches is not known.
		return
	}
	if !types.IsInterface(to) {
		f.concreteAsserts = append(f.concreteAsserts, assertion{from, to})
		return
	}
	if it, ok := to.Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
		f.asserted = append(f.asserted, assertion{from, to})
	}
}

func (f *ifaceFacts) scan(file *ast.File, info *types.Info) {
	assert := func(x ast.Expr, to ast.Expr) {
		if to == nil {
			return
		}
		from, target := info.TypeOf(x), info.TypeOf(to)
		if from == nil || target == nil {
			return
		}
		f.uses = append(f.uses, factUse{fn: f.cur, assert: &assertion{from, target}})
	}
	for _, d := range file.Decls {
		f.cur = nil
		if fd, ok := d.(*ast.FuncDecl); ok {
			f.cur = info.Defs[fd.Name]
		}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if v, ok := info.Defs[n].(*types.Var); ok && i < len(vs.Values) && len(vs.Names) == len(vs.Values) {
						f.inits[v] = vs.Values[i]
					}
				}
			}
		}
		f.graph.add(d, f.cur, info, f.pkg)
		f.scanDecl(d, f.cur, info, assert)
	}
	f.cur = nil
}

// scanDecl scans declaration d, of function cur (nil for a package-level
// declaration).
func (f *ifaceFacts) scanDecl(d ast.Decl, cur types.Object, info *types.Info, assert func(x, to ast.Expr)) {
	ast.Inspect(d, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.TypeAssertExpr:
			assert(x.X, x.Type)
		case *ast.TypeSwitchStmt:
			var ta *ast.TypeAssertExpr
			switch a := x.Assign.(type) {
			case *ast.AssignStmt:
				ta, _ = a.Rhs[0].(*ast.TypeAssertExpr)
			case *ast.ExprStmt:
				ta, _ = a.X.(*ast.TypeAssertExpr)
			}
			if ta == nil {
				break
			}
			for _, c := range x.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					assert(ta.X, e)
				}
			}
			return true
		case *ast.CallExpr:
			if key, ok := tagCall(x, info); ok && !slices.Contains(f.tagKeys, key) {
				f.tagKeys = append(f.tagKeys, key)
			}
			sel, ok := x.Fun.(*ast.SelectorExpr)
			if fn, isFn := info.Uses[selIdent(x.Fun)].(*types.Func); isFn && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && len(x.Args) == 2 {
				switch fn.Name() {
				case "Is":
					f.sentinel(x.Args[1], info)
					f.errUses = append(f.errUses, errUse{fn: cur})
				case "As":
					// errors.As(err, &target) asks whether err, or an
					// error it wraps, is a target: an assertion of
					// errors to the target's type (scopeErrors).
					u := errUse{fn: cur}
					if p, ok := types.Unalias(info.TypeOf(x.Args[1])).(*types.Pointer); ok && !hasTypeParam(p.Elem(), nil) {
						u.as = p.Elem()
					}
					f.errUses = append(f.errUses, u)
				}
			}
			if !ok || !isReflectType(info.TypeOf(sel.X)) {
				break
			}
			switch sel.Sel.Name {
			case "Kind", "Elem":
				f.uses = append(f.uses, factUse{fn: cur, reflect: reflectKinds})
			case "NumField":
				f.uses = append(f.uses, factUse{fn: cur, reflect: reflectNumField})
			case "NumMethod":
				// A pointer and a value of a mock type have different
				// method sets (pointer receivers).
				f.uses = append(f.uses, factUse{fn: cur, reflect: reflectValues})
			case "Implements", "AssignableTo":
				if len(x.Args) == 1 {
					f.reflected = append(f.reflected, reflectArg{fn: cur, e: x.Args[0], info: info})
				}
			case "FieldByName":
				if len(x.Args) == 1 {
					if tv, ok := info.Types[x.Args[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String && !slices.Contains(f.fieldNames, constant.StringVal(tv.Value)) {
						f.fieldNames = append(f.fieldNames, constant.StringVal(tv.Value))
					}
				}
			}
		case *ast.BinaryExpr:
			if x.Op != token.EQL && x.Op != token.NEQ {
				break
			}
			f.sentinel(x.X, info)
			f.sentinel(x.Y, info)
			for _, pair := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
				key, ok := tagRead(pair[0], info)
				tv, isConst := info.Types[pair[1]]
				if ok && isConst && tv.Value != nil && tv.Value.Kind() == constant.String {
					t := tagValue{key, constant.StringVal(tv.Value)}
					f.uses = append(f.uses, factUse{fn: cur, tag: &t})
				}
			}
		}
		return true
	})
}

// reflectArg is the argument of a reflect Implements or AssignableTo
// call in function fn.
type reflectArg struct {
	fn   types.Object
	e    ast.Expr
	info *types.Info
}

// reflectIface returns the non-empty interface type that e, a
// reflect.Type, stands for: reflect.TypeOf((*I)(nil)).Elem(),
// reflect.TypeFor[I](), or a package-level variable initialized with
// one of them; nil if it is none of these.
func (f *ifaceFacts) reflectIface(e ast.Expr, info *types.Info, depth int) types.Type {
	var t types.Type
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := info.Uses[x].(*types.Var); ok && depth == 0 {
			if init, ok := f.inits[v]; ok {
				return f.reflectIface(init, info, depth+1)
			}
		}
	case *ast.CallExpr:
		fun := ast.Unparen(x.Fun)
		if ix, ok := fun.(*ast.IndexExpr); ok {
			// reflect.TypeFor[I]()
			if fn, ok := info.Uses[selIdent(ix.X)].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "reflect" && fn.Name() == "TypeFor" {
				t = info.TypeOf(ix.Index)
			}
			break
		}
		sel, ok := fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Elem" || len(x.Args) != 0 {
			break
		}
		// reflect.TypeOf((*I)(nil)).Elem()
		inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
		if !ok || len(inner.Args) != 1 {
			break
		}
		if fn, ok := info.Uses[selIdent(inner.Fun)].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "reflect" && fn.Name() == "TypeOf" {
			if p, ok := types.Unalias(info.TypeOf(inner.Args[0])).(*types.Pointer); ok {
				t = p.Elem()
			}
		}
	}
	if t == nil || hasTypeParam(t, nil) {
		return nil
	}
	if it, ok := t.Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
		return t
	}
	return nil
}

// selIdent is the identifier naming the function of a call: f or p.f.
func selIdent(e ast.Expr) *ast.Ident {
	switch x := e.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// sentinel records e if it names a package-level variable of type error.
func (f *ifaceFacts) sentinel(e ast.Expr, info *types.Info) {
	v, ok := info.Uses[selIdent(ast.Unparen(e))].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !isNamed(v.Type(), "", "error") {
		return
	}
	if v.Pkg() != f.pkg && !v.Exported() {
		return
	}
	f.uses = append(f.uses, factUse{fn: f.cur, sentinel: v})
}

// tagCall reports whether call is tag.Get(key) or tag.Lookup(key) of a
// reflect.StructTag with a constant key, and the key.
func tagCall(call *ast.CallExpr, info *types.Info) (string, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) != 1 || sel.Sel.Name != "Get" && sel.Sel.Name != "Lookup" || !isNamed(info.TypeOf(sel.X), "reflect", "StructTag") {
		return "", false
	}
	tv, ok := info.Types[call.Args[0]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// tagRead reports whether e is tag.Get(key) of a reflect.StructTag with a
// constant key, and the key.
func tagRead(e ast.Expr, info *types.Info) (string, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Get" || !isNamed(info.TypeOf(sel.X), "reflect", "StructTag") {
		return "", false
	}
	tv, ok := info.Types[call.Args[0]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

func isReflectType(t types.Type) bool {
	return t != nil && (isNamed(t, "reflect", "Type") || isNamed(t, "reflect", "Value"))
}

// ifaceShape builds the shape of interface type t: a choice among nil,
// builtin (the shapes of dowse's own values of t, if it has any: a
// buffer for an io.Writer, errors.New for an error), the package's types
// implementing it, the types of other packages the code asserts such
// values to, and mock types.
func (b *layoutBuilder) ifaceShape(t types.Type, it *types.Interface, builtin ...int) int {
	name := typeString(t, b.pkg)
	i := b.done(t, rt.Shape{Kind: rt.ShapeIface, Type: name})
	outs := builtin
	for _, o := range builtin {
		b.dyn[b.l.Shapes[o].Type] = t
	}
	f := b.ifaces
	for _, tn := range f.concrete {
		for _, ct := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if !types.Implements(ct, it) {
				continue
			}
			if o, _, ok := b.shape(ct); ok {
				outs = append(outs, o)
				b.dyn[typeString(ct, b.pkg)] = ct
			}
			break // T, else *T
		}
	}
	// The types of other packages the code asserts such values to
	// (err.(*fs.PathError), errors.As(err, &pathErr)): the package's own
	// are offered above.
	seen := map[string]bool{}
	for _, a := range f.concreteAsserts {
		ct := a.to
		fromI, ok := a.from.Underlying().(*types.Interface)
		name := typeString(ct, b.pkg)
		if !ok || !types.Implements(t, fromI) || localType(ct, b.pkg) || seen[name] ||
			!types.Implements(ct, it) || !nameable(ct, b.pkg, map[types.Type]bool{}) {
			continue
		}
		seen[name] = true
		if o, _, ok := b.shape(ct); ok {
			outs = append(outs, o)
			b.dyn[name] = ct
		}
	}
	if f.mocks && implementable(it, b.pkg) && (!isNamed(t, "", "error") || f.errorMocks()) {
		for _, m := range f.mocksFor(t, it) {
			if o, ok := b.mockShape(m); ok {
				outs = append(outs, o)
			}
		}
	}
	b.l.Shapes[i].Outs = outs
	return i
}

// implementable reports whether package pkg can declare a type that
// implements it: its methods are exported or pkg's, and their signatures
// name only types pkg can name (reflect.Type cannot be implemented
// outside reflect).
func implementable(it *types.Interface, pkg *types.Package) bool {
	for i := 0; i < it.NumMethods(); i++ {
		m := it.Method(i)
		if !m.Exported() && m.Pkg() != pkg || !nameable(m.Type(), pkg, map[types.Type]bool{}) {
			return false
		}
	}
	return true
}

// nameable reports whether pkg can write type t.
func nameable(t types.Type, pkg *types.Package, seen map[types.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		obj := u.Obj()
		if obj.Pkg() != nil && obj.Pkg() != pkg && (!obj.Exported() || !importable(obj.Pkg().Path(), pkg.Path())) {
			return false
		}
		for i := 0; i < u.TypeArgs().Len(); i++ {
			if !nameable(u.TypeArgs().At(i), pkg, seen) {
				return false
			}
		}
		return true
	case *types.Pointer:
		return nameable(u.Elem(), pkg, seen)
	case *types.Slice:
		return nameable(u.Elem(), pkg, seen)
	case *types.Array:
		return nameable(u.Elem(), pkg, seen)
	case *types.Map:
		return nameable(u.Key(), pkg, seen) && nameable(u.Elem(), pkg, seen)
	case *types.Chan:
		return nameable(u.Elem(), pkg, seen)
	case *types.Signature:
		for _, tup := range []*types.Tuple{u.Params(), u.Results()} {
			for i := 0; i < tup.Len(); i++ {
				if !nameable(tup.At(i).Type(), pkg, seen) {
					return false
				}
			}
		}
		return true
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !u.Field(i).Exported() && u.Field(i).Pkg() != pkg || !nameable(u.Field(i).Type(), pkg, seen) {
				return false
			}
		}
		return true
	case *types.Interface:
		return implementable(u, pkg)
	}
	return true
}

// hasTypeParam reports whether t mentions a type parameter: only code
// inside a generic declaration can write such a type.
func hasTypeParam(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	if seen == nil {
		seen = map[types.Type]bool{}
	}
	seen[t] = true
	switch u := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		for i := 0; i < u.TypeArgs().Len(); i++ {
			if hasTypeParam(u.TypeArgs().At(i), seen) {
				return true
			}
		}
		// A generic type inside its own declaration (its methods'
		// receivers) has its type parameters as type arguments; a
		// non-generic type's underlying type mentions none.
		return false
	case *types.Pointer:
		return hasTypeParam(u.Elem(), seen)
	case *types.Slice:
		return hasTypeParam(u.Elem(), seen)
	case *types.Array:
		return hasTypeParam(u.Elem(), seen)
	case *types.Map:
		return hasTypeParam(u.Key(), seen) || hasTypeParam(u.Elem(), seen)
	case *types.Chan:
		return hasTypeParam(u.Elem(), seen)
	case *types.Signature:
		for _, tup := range []*types.Tuple{u.Params(), u.Results()} {
			for i := 0; i < tup.Len(); i++ {
				if hasTypeParam(tup.At(i).Type(), seen) {
					return true
				}
			}
		}
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if hasTypeParam(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Interface:
		for i := 0; i < u.NumMethods(); i++ {
			if hasTypeParam(u.Method(i).Type(), seen) {
				return true
			}
		}
		for i := 0; i < u.NumEmbeddeds(); i++ {
			if hasTypeParam(u.EmbeddedType(i), seen) {
				return true
			}
		}
	}
	return false
}

// importable reports whether the package at path from may import the
// one at path (Go's rule for internal directories).
func importable(path, from string) bool {
	parent := ""
	switch {
	case strings.HasPrefix(path, "internal/") || path == "internal":
		parent = ""
	case strings.Contains(path, "/internal/"):
		parent = path[:strings.LastIndex(path, "/internal/")]
	case strings.HasSuffix(path, "/internal"):
		parent = strings.TrimSuffix(path, "/internal")
	default:
		return true
	}
	return parent != "" && (from == parent || strings.HasPrefix(from, parent+"/"))
}

// anyChoice builds the shape of an empty interface the package asserts
// to other types: a choice among nil, int, string, bool, the concrete
// types the package asserts such values to (those dowse can build and
// the package can name: its own, and exported ones of packages it may
// import), and mock types of the interfaces it asserts them to.
func (b *layoutBuilder) anyChoice(t types.Type, it *types.Interface) int {
	i := b.done(t, rt.Shape{Kind: rt.ShapeIface, Type: typeString(t, b.pkg)})
	var outs []int
	seen := map[string]bool{}
	offer := func(ct types.Type) {
		name := typeString(ct, b.pkg)
		if seen[name] || !nameable(ct, b.pkg, map[types.Type]bool{}) || types.IsInterface(ct) {
			return
		}
		seen[name] = true
		if o, _, ok := b.shape(ct); ok {
			outs = append(outs, o)
			b.dyn[name] = ct
		}
	}
	for _, bt := range []types.Type{types.Typ[types.Int], types.Typ[types.String], types.Typ[types.Bool]} {
		offer(bt)
	}
	// The package's types: those that implement an interface the code
	// asserts such values to (a String method for case fmt.Stringer),
	// and, when the code reflects over types, every one of them (their
	// kinds, fields and tags are what reflection reads); the value
	// first, else the pointer.
	asserted := b.ifaces.assertedFrom(t)
	for _, tn := range b.ifaces.concrete {
		for _, ct := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if b.ifaces.reflects() && ct == tn.Type() || slices.ContainsFunc(asserted, func(a types.Type) bool {
				return types.Implements(ct, a.Underlying().(*types.Interface))
			}) {
				offer(ct)
				break
			}
		}
	}
	for _, a := range b.ifaces.concreteAsserts {
		if fromI, ok := a.from.Underlying().(*types.Interface); ok && types.Implements(t, fromI) {
			offer(a.to)
		}
	}
	// A pointer to a variable of an interface that reflection asks
	// about (errors.As's target: reflect.TypeOf(v).Elem() is then that
	// interface).
	for _, it := range b.ifaces.implementing {
		offer(types.NewPointer(it))
		// and to a variable of a mock type that implements it, which
		// values of other types are not assignable to.
		if b.ifaces.mocks && implementable(it.Underlying().(*types.Interface), b.pkg) {
			if ms := b.ifaces.methodSetMocks(it, nil); len(ms) > 0 {
				offer(types.NewPointer(ms[0].ValueType()))
				b.usedMocks[ms[0].Name] = ms[0]
			}
		}
	}
	if b.ifaces.mocks {
		for _, m := range b.ifaces.mocksFor(t, it) {
			if o, ok := b.mockShape(m); ok {
				outs = append(outs, o)
			}
		}
	}
	b.l.Shapes[i].Outs = outs
	return i
}

// localType reports whether t names no package but pkg.
func localType(t types.Type, pkg *types.Package) bool {
	ok := true
	types.TypeString(t, func(p *types.Package) string {
		if p != pkg {
			ok = false
		}
		return ""
	})
	return ok
}

// errorShape builds the shape of an error the package does more with
// than print it (ifaceFacts.errorChoice): nil, errors.New (with its own
// choice and message), the package-level error variables it compares
// errors with (shape var: the harness serves the variable's value, rows
// name it, io.EOF), the package's types implementing error, and mock
// types (those of the interfaces errors are asserted to, and wrappers).
func (b *layoutBuilder) errorShape(t types.Type) int {
	b.ifaces.plainError++
	e, _, _ := b.shape(t) // errors.New alone
	b.ifaces.plainError--
	b.index.Delete(t)
	outs := []int{e}
	b.dyn["error"] = t
	for _, v := range b.ifaces.sentinels {
		name := v.Name()
		if v.Pkg() != b.pkg {
			name = v.Pkg().Name() + "." + v.Name()
		}
		outs = append(outs, b.add(rt.Shape{Kind: rt.ShapeVar, Type: name}))
		b.vars[name] = v
		b.dyn[name] = v.Type()
	}
	return b.ifaceShape(t, t.Underlying().(*types.Interface), outs...)
}

// mockShape returns the shape of the values of mock m.
func (b *layoutBuilder) mockShape(m *mock.Type) (int, bool) {
	vt := m.ValueType()
	name := typeString(vt, b.pkg)
	if i, ok := b.mockIndex[name]; ok {
		return i, true
	}
	rm := &rt.Mock{Ptr: m.Ptr, Scripts: m.Scripted(), NumMethods: len(m.Methods), Calls: b.ifaces.calls}
	if m.Scripted() {
		for k, fn := range m.Methods {
			if m.Fields[k] == "" {
				continue
			}
			sig := fn.Type().(*types.Signature)
			md := rt.MockMethod{Name: fn.Name(), Field: m.Fields[k], Multi: m.Results[k] != nil, Once: mock.Unwraps(fn.Name(), sig)}
			for r := 0; r < sig.Results().Len(); r++ {
				rt := sig.Results().At(r).Type()
				o, _, ok := b.shape(rt)
				if !ok {
					return 0, false
				}
				md.Outs = append(md.Outs, o)
			}
			if m.Fills[k] {
				// The bytes a Read copies into its argument.
				o, _, ok := b.shape(sig.Params().At(0).Type())
				if !ok {
					return 0, false
				}
				md.Outs = append(md.Outs, o)
			}
			rm.Methods = append(rm.Methods, md)
		}
	}
	i := b.add(rt.Shape{Kind: rt.ShapeMock, Type: name, Mock: rm})
	b.mockIndex[name] = i
	b.dyn[name] = vt
	b.usedMocks[m.Name] = m
	return i, true
}

// mocksFor returns the mock types offered for values of interface type t.
func (f *ifaceFacts) mocksFor(t types.Type, it *types.Interface) []*mock.Type {
	others := f.assertedFrom(t)
	if f.unwrap && isNamed(t, "", "error") {
		others = append(others, wrapper)
	}
	return f.methodSetMocks(t, others)
}

// reflects reports whether the reached code reflects over types: it
// asks a reflect.Type or reflect.Value for its kind, its element, its
// fields or its methods.
func (f *ifaceFacts) reflects() bool {
	return f.kinds || f.numField || f.values
}

// errorChoice reports whether error values are a choice of dynamic type
// rather than errors.New(message): the package asserts errors to other
// types (err.(causer), errors.As), compares them with package-level
// error variables (err == io.EOF, errors.Is) or looks through wrapped
// ones (errors.Is).
func (f *ifaceFacts) errorChoice() bool {
	return f.dispatches(errorType) || len(f.sentinels) > 0 || f.unwrap
}

// errorMocks reports whether the choice of an error offers mock types:
// the package asserts errors to other types or unwraps them (comparing
// with sentinels alone is met by the sentinels).
func (f *ifaceFacts) errorMocks() bool {
	return f.dispatches(errorType) || f.unwrap
}

// dispatches reports whether the package asserts values of interface
// type t (or of one t converts to) to another type: then an error or
// io.Reader input becomes a choice of dynamic type.
func (f *ifaceFacts) dispatches(t types.Type) bool {
	if len(f.assertedFrom(t)) > 0 {
		return true
	}
	for _, a := range f.concreteAsserts {
		if fromI, ok := a.from.Underlying().(*types.Interface); ok && types.Implements(t, fromI) && types.AssignableTo(a.to, t) {
			return true
		}
	}
	return false
}

// assertedFrom are the interfaces values of t may be asserted to: those
// asserted from a static type that t's values can be converted to.
func (f *ifaceFacts) assertedFrom(t types.Type) []types.Type {
	var others []types.Type
	for _, a := range f.asserted {
		if len(others) == maxAsserted {
			break
		}
		fromI, ok := a.from.Underlying().(*types.Interface)
		if !ok || !types.Implements(t, fromI) || types.Identical(a.to, t) {
			continue
		}
		if slices.ContainsFunc(others, func(o types.Type) bool { return types.Identical(o, a.to) }) {
			continue
		}
		others = append(others, a.to)
	}
	return others
}

// methodSetMocks are the mock types of t's method set united with each
// subset of others.
func (f *ifaceFacts) methodSetMocks(t types.Type, others []types.Type) []*mock.Type {
	// Method sets: t's, with the union of every subset of the others
	// (smaller subsets first), without clashes, each once.
	var subsets []int
	for mask := 0; mask < 1<<len(others); mask++ {
		subsets = append(subsets, mask)
	}
	sort.SliceStable(subsets, func(i, j int) bool { return bitCount(subsets[i]) < bitCount(subsets[j]) })
	var out []*mock.Type
	seen := map[string]bool{}
	sets := 0
	for _, mask := range subsets {
		if sets == maxMethodSets {
			break
		}
		ifaces := []types.Type{t}
		for k, o := range others {
			if mask&(1<<k) != 0 {
				ifaces = append(ifaces, o)
			}
		}
		methods, ok := unionMethods(ifaces)
		if !ok {
			continue // two methods of one name with different signatures
		}
		key := methodSetKey(methods)
		if seen[key] {
			continue
		}
		seen[key] = true
		sets++
		impl := implemented(append([]types.Type{t}, others...), methods)
		out = append(out, f.variants(impl, methods)...)
	}
	return out
}

// variants are the mock types of one method set: the forms and tags the
// package's reflection can tell apart.
func (f *ifaceFacts) variants(impl []types.Type, methods []*types.Func) []*mock.Type {
	var base strings.Builder
	var names []string
	for _, t := range impl {
		n := "Mock"
		if named, ok := types.Unalias(t).(*types.Named); ok {
			n = named.Obj().Name()
		} else if it, ok := t.Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
			// interface{ Unwrap() error }: named after its methods.
			n = ""
			for i := 0; i < it.NumMethods(); i++ {
				n += upperFirst(it.Method(i).Name())
			}
		}
		names = append(names, n)
		base.WriteString(upperFirst(n))
	}
	ptrs := []bool{true}
	if f.kinds || f.values {
		ptrs = append(ptrs, false)
	}
	type variant struct {
		form mock.Form
		tag  string
		sfx  string
	}
	vs := []variant{{form: mock.Struct}}
	for _, tv := range f.tags {
		vs = append(vs, variant{form: mock.Struct, tag: tv.key + ":" + strconv.Quote(tv.value), sfx: upperFirst(identPart(tv.key)) + upperFirst(identPart(tv.value))})
	}
	if f.numField {
		vs = append(vs, variant{form: mock.Empty, sfx: "Empty"})
	}
	if f.kinds {
		vs = append(vs, variant{form: mock.NonStruct, sfx: "Int"})
	}
	var out []*mock.Type
	for _, v := range vs {
		for _, ptr := range ptrs {
			sfx := v.sfx
			if !ptr {
				sfx += "Value"
			}
			key := methodSetKey(methods) + "|" + v.tag + "|" + strconv.Itoa(int(v.form)) + "|" + strconv.FormatBool(ptr)
			if m, ok := f.decls.made[key]; ok {
				out = append(out, m)
				continue
			}
			m := f.decls.names.New(f.pkg, "dowse"+base.String()+sfx, names, methods, ptr, v.form, v.tag)
			f.decls.made[key] = m
			out = append(out, m)
		}
	}
	return out
}

// declaredIn returns the function reporting the names that the mock
// types of variant p may not take: those its files (other than the
// generated ones, which are rewritten or left out) declare at package
// level or import into a file (a package-level declaration may not share
// a name with a file's import), and those declared at package level by
// any Go file of its directory, whatever its package clause and build
// constraints: the generated tests are kept with the package, and must
// compile in every build of it.
func declaredIn(p *packages.Package, fset *token.FileSet, generated map[string]bool) func(string) bool {
	names := map[string]bool{}
	for _, file := range p.Syntax {
		if generated[fset.File(file.Pos()).Name()] {
			continue
		}
		for _, d := range file.Decls {
			declNames(d, names)
		}
		for _, im := range file.Imports {
			switch {
			case im.Name != nil:
				names[im.Name.Name] = true
			case p.TypesInfo != nil && p.TypesInfo.Implicits[im] != nil:
				names[p.TypesInfo.Implicits[im].Name()] = true
			}
		}
	}
	if dir := packageDir(p); dir != "" {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, path := range paths {
			src, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil || IsGenerated(file) {
				continue
			}
			for _, d := range file.Decls {
				declNames(d, names)
			}
		}
	}
	return func(name string) bool { return names[name] }
}

// declNames adds the package-level names d declares to names.
func declNames(d ast.Decl, names map[string]bool) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			names[d.Name.Name] = true
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				names[sp.Name.Name] = true
			case *ast.ValueSpec:
				for _, id := range sp.Names {
					names[id.Name] = true
				}
			}
		}
	}
}

// unionMethods is the method set of the interfaces, sorted by name; ok is
// false if two methods of one name differ in signature.
func unionMethods(ifaces []types.Type) ([]*types.Func, bool) {
	byName := map[string]*types.Func{}
	for _, t := range ifaces {
		it := t.Underlying().(*types.Interface)
		for i := 0; i < it.NumMethods(); i++ {
			m := it.Method(i)
			if prev, ok := byName[m.Name()]; ok {
				if !types.Identical(prev.Type(), m.Type()) {
					return nil, false
				}
				continue
			}
			byName[m.Name()] = m
		}
	}
	var out []*types.Func
	for _, m := range byName {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, true
}

// implemented are the interfaces among ifaces that methods implement,
// leaving out those another one of the list implies.
func implemented(ifaces []types.Type, methods []*types.Func) []types.Type {
	has := map[string]*types.Func{}
	for _, m := range methods {
		has[m.Name()] = m
	}
	var in []types.Type
	for _, t := range ifaces {
		it := t.Underlying().(*types.Interface)
		all := true
		for i := 0; i < it.NumMethods(); i++ {
			m := has[it.Method(i).Name()]
			all = all && m != nil && types.Identical(m.Type(), it.Method(i).Type())
		}
		if all && !slices.ContainsFunc(in, func(o types.Type) bool { return types.Identical(o, t) }) {
			in = append(in, t)
		}
	}
	var out []types.Type
	for _, t := range in {
		implied := false
		for _, o := range in {
			if o != t && types.Implements(o, t.Underlying().(*types.Interface)) && !types.Implements(t, o.Underlying().(*types.Interface)) {
				implied = true
			}
		}
		if !implied {
			out = append(out, t)
		}
	}
	return out
}

func methodSetKey(methods []*types.Func) string {
	var b strings.Builder
	for _, m := range methods {
		b.WriteString(m.Name() + types.TypeString(m.Type(), nil) + ";")
	}
	return b.String()
}

func bitCount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// identPart keeps the letters and digits of s.
func identPart(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}
