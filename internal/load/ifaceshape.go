package load

import (
	"go/types"
	"slices"
	"strings"

	"github.com/dowse-go/dowse/internal/mock"
	"github.com/dowse-go/dowse/rt"
)

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
				outs = append(outs, b.nonNil(o))
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
			outs = append(outs, b.nonNil(o))
			b.dyn[name] = ct
		}
	}
	if f.mocks && !b.errorsOnly && implementable(it, b.pkg) && (!isNamed(t, "", "error") || f.errorMocks()) {
		for _, m := range f.mocksFor(t, it) {
			if o, ok := b.mockShape(m); ok {
				outs = append(outs, o)
			}
		}
	}
	b.l.Shapes[i].Outs = outs
	return i
}

// nonNil returns shape o, or for the errors of an isolated call's result
// (errorsOnly) a pointer shape o as a copy that is never nil: no callee
// returns a typed nil *fs.PathError as its error, and code that asks
// errors.As for one dereferences what it finds.
func (b *layoutBuilder) nonNil(o int) int {
	if !b.errorsOnly || b.l.Shapes[o].Kind != rt.ShapePointer {
		return o
	}
	s := b.l.Shapes[o]
	s.NonNil = true
	return b.add(s)
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
// name it, io.EOF) and, when it looks through wrapped errors
// (errors.Is, errors.As), each of them wrapped by fmt.Errorf (which
// errors.Is tells from another error and == does not), the package's
// types implementing error, the types of other packages it asks
// errors.As for, and mock types (those of the interfaces errors are
// asserted to, and wrappers; none for the results of isolated calls).
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
	if b.ifaces.unwrap {
		for _, v := range b.ifaces.sentinels {
			name := v.Name()
			if v.Pkg() != b.pkg {
				name = v.Pkg().Name() + "." + v.Name()
			}
			outs = append(outs, b.add(rt.Shape{Kind: rt.ShapeVar, Type: name, Wrap: true}))
		}
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
