package load

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/mock"
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
		if WrittenByDowse(file) {
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
		if !ok || tn.IsAlias() || generated[fset.PositionFor(tn.Pos(), false).Filename] || strings.HasSuffix(fset.Position(tn.Pos()).Filename, "_test.go") {
			continue
		}
		if named, ok := tn.Type().(*types.Named); ok && named.TypeParams().Len() == 0 && !types.IsInterface(named) {
			f.concrete = append(f.concrete, tn)
		}
	}
	f.tagSeen = map[string][]string{}
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || tn.IsAlias() || generated[fset.PositionFor(tn.Pos(), false).Filename] {
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

// WrittenByDowse reports whether f is a test file dowse wrote.
func WrittenByDowse(f *ast.File) bool {
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
		case *ast.SwitchStmt:
			// switch err { case io.EOF: }
			if x.Tag == nil {
				break
			}
			for _, c := range x.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					f.sentinel(e, info)
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
