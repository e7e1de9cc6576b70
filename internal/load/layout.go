package load

import (
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/dowse-go/dowse/internal/mock"
	"github.com/dowse-go/dowse/rt"
)

// layoutBuilder builds the input model of a target (rt.Layout) from the
// go/types types of its parameters: the only place a layout is derived
// from a type.
type layoutBuilder struct {
	pkg   *types.Package // the package of the target: what it may set
	l     *rt.Layout
	index typeutil.Map // type → shape index
	open  typeutil.Map // type → pointer depth when its shape was begun (in progress)
	ptrs  int          // pointers on the way to the shape being built
	// ctors builds values of the package's types with constructors and
	// methods where it can (see build.go); funcs collects the functions
	// such builds call, by expression; building holds the types whose
	// build is being described (their constructors' parameters of the
	// same type are built field by field).
	ctors    bool
	funcs    map[string]*types.Func
	building map[*types.TypeName]bool
	made     []types.Type // the types given a shape, in order (see shape)
	// opaque makes a struct of another package with unexported fields a
	// struct without fields (its zero value) instead of an error: the
	// results of isolated calls (sandbox.go), where an external object
	// is made uninitialized, as "Automated Isolation for White-box Test
	// Generation" does.
	opaque bool
	// readOnly holds the methods that never change their receiver, which
	// builds do not call (see readOnlyMethods).
	readOnly map[*types.Func]bool
	// zeroMade holds the types whose zero value the package makes
	// usable (zeroMadeTypes); nil if not known: then no value built from
	// a zero value is marked rt.Build.Unmade.
	zeroMade map[*types.TypeName]bool
	// ifaces says what the package does with interface values (nil: only
	// any, error, context.Context, io.Writer and io.Reader are inputs);
	// dyn are the dynamic types interface inputs are offered, by their
	// shapes' Type; mockIndex the shapes of mock values by Type, and
	// usedMocks the mock types the layout uses, by name.
	ifaces    *ifaceFacts
	dyn       map[string]types.Type
	mockIndex map[string]int
	usedMocks map[string]*mock.Type
	// vars are the package-level variables offered as values (ShapeVar),
	// by their shapes' Type.
	vars map[string]*types.Var
	// errorsOnly limits ifaces to errors: other interfaces are built as
	// without facts (the results of isolated calls, sandbox.go, whose
	// errors are a choice like a parameter's but whose other interface
	// values get no mock types).
	errorsOnly bool
}

// LayoutOf returns the layout of params, the parameters of a target
// declared in pkg, or why one of them cannot be built: its Why names the
// part of the type that is not allowed ("" when the type itself is not).
func LayoutOf(target string, params []*types.Var, pkg *types.Package) (*rt.Layout, error) {
	l, _, err := layoutFor(target, params, pkg, false, nil)
	return l, err
}

// layoutFor is LayoutOf; with ctors, values of the package's types are
// built by their constructors where they have one, and funcs are the
// functions those builds call, by expression.
func layoutFor(target string, params []*types.Var, pkg *types.Package, ctors bool, readOnly map[*types.Func]bool) (*rt.Layout, map[string]*types.Func, error) {
	b := newLayoutBuilder(pkg, ctors, readOnly, nil)
	l, err := b.params(target, params)
	return l, b.funcs, err
}

func newLayoutBuilder(pkg *types.Package, ctors bool, readOnly map[*types.Func]bool, ifaces *ifaceFacts) *layoutBuilder {
	return &layoutBuilder{pkg: pkg, l: &rt.Layout{}, ctors: ctors, funcs: map[string]*types.Func{}, building: map[*types.TypeName]bool{}, readOnly: readOnly,
		ifaces: ifaces, dyn: map[string]types.Type{}, mockIndex: map[string]int{}, usedMocks: map[string]*mock.Type{}, vars: map[string]*types.Var{}}
}

func (b *layoutBuilder) params(target string, params []*types.Var) (*rt.Layout, error) {
	pkg := b.pkg
	for i, p := range params {
		shape, why, ok := b.shape(p.Type())
		if !ok {
			return nil, &UnsupportedError{Target: target, Param: paramName(p, i), Type: typeString(p.Type(), pkg), Why: why}
		}
		b.l.Params = append(b.l.Params, rt.Param{Name: p.Name(), Shape: shape})
	}
	return b.l, nil
}

// SetBounds sets the length bound of l and the deepest unfolding of
// recursive types that keeps l within rt.MaxLeaves (at most maxLen, at
// least 1). If none does, it cuts: the collections inside the elements of
// other collections get fewer slots (see rt.Layout, "Cutting"), as many
// as fit, with the deepest unfolding that fits then; if one slot each is
// still too many, the outermost collections get fewer slots too. If no
// cut fits, it pools the alternatives of interfaces and cuts again (see
// fitCut). A layout that fits nothing is left at its smallest, and
// Leaves says so.
// SetBounds may be called again with another bound: it undoes an
// earlier cut first.
func SetBounds(l *rt.Layout, maxLen int) {
	uncut(l)
	l.MaxLen = maxLen
	for i, s := range l.Shapes {
		if s.Build != nil {
			s.Build.Steps = min(maxCalls, maxLen)
		}
		if s.Kind == rt.ShapeFunc {
			l.Shapes[i].Len = min(maxCalls, maxLen)
		}
	}
	if fitCut(l, maxLen, false) {
		return
	}
	fitCut(l, maxLen, true)
}

// fitCut sets the deepest unfolding that keeps l within rt.MaxLeaves
// with the alternatives of its interfaces pooled or not (rt.Shape.Pool,
// see rt/pool.go), cutting as little as it must, and reports whether one
// fits. Pools lose nothing a run reads, but their leaves' paths name
// places in a pool instead of an alternative's parts, and a layout that
// fits cut side by side has fewer leaves than the same layout pooled with
// more slots (a slower search: on testdata/general/decode, Decode found
// 5 paths in 20s pooled, and its Config row no longer), so SetBounds
// pools only layouts that no cut fits.
func fitCut(l *rt.Layout, maxLen int, pooled bool) bool {
	uncut(l)
	pool(l, pooled)
	if fitDepth(l) {
		return true
	}
	if pooled && !pool(l, true) {
		return false
	}
	for inner := maxLen - 1; inner >= 1; inner-- {
		uncut(l)
		cut(l, inner, 0)
		pool(l, pooled)
		if fitDepth(l) {
			return true
		}
	}
	for outer := maxLen - 1; outer >= 1; outer-- {
		uncut(l)
		cut(l, 1, outer)
		pool(l, pooled)
		if fitDepth(l) {
			return true
		}
	}
	return false
}

// fitDepth sets the deepest unfolding of l, at most l.MaxLen, that keeps
// it within rt.MaxLeaves, and reports whether one does (else Depth is 1).
func fitDepth(l *rt.Layout) bool {
	for l.Depth = max(1, l.MaxLen); ; l.Depth-- {
		if l.CountLeaves(rt.MaxLeaves) <= rt.MaxLeaves {
			return true
		}
		if l.Depth <= 1 {
			return false
		}
	}
}

// pool sets whether the interfaces of l are pooled, and reports whether
// l has any.
func pool(l *rt.Layout, on bool) bool {
	has := false
	for i := range l.Shapes {
		if l.Shapes[i].Kind == rt.ShapeIface {
			l.Shapes[i].Pool, has = on, true
		}
	}
	return has
}

// isCollection reports whether values of shape s have element slots.
func isCollection(s *rt.Shape) bool {
	switch s.Kind {
	case rt.ShapeSlice, rt.ShapeMap, rt.ShapeReader:
		return true
	case rt.ShapeChan:
		return !s.Send
	}
	return false
}

// cut gives the collections inside the elements of collections inner
// slots, and, if outer is not 0, the others outer slots: it copies the
// shapes reachable from a collection's element (rt.Shape.Of), so that a
// type used both at the top of a parameter and inside a collection keeps
// its slots at the top.
func cut(l *rt.Layout, inner, outer int) {
	own := len(l.Shapes)
	copies := map[int]int{}
	var nested func(i int) int
	nested = func(i int) int {
		if c, ok := copies[i]; ok {
			return c
		}
		c := len(l.Shapes)
		copies[i] = c
		s := l.Shapes[i]
		s.Of = i + 1
		if isCollection(&s) {
			s.Max = inner
		}
		l.Shapes = append(l.Shapes, s)
		// The parts: copied slices, each part the nested copy.
		s.Fields = slices.Clone(s.Fields)
		for k := range s.Fields {
			s.Fields[k].Shape = nested(s.Fields[k].Shape)
		}
		s.Outs = slices.Clone(s.Outs)
		for k := range s.Outs {
			s.Outs[k] = nested(s.Outs[k])
		}
		switch s.Kind {
		case rt.ShapeArray, rt.ShapeSlice, rt.ShapePointer, rt.ShapeChan, rt.ShapeMap:
			s.Elem = nested(s.Elem)
			if s.Kind == rt.ShapeMap {
				s.Key = nested(s.Key)
			}
		case rt.ShapeBuilt:
			bd := *s.Build
			bd.Ctor = nestedFunc(bd.Ctor, nested)
			bd.Methods = slices.Clone(bd.Methods)
			for k := range bd.Methods {
				bd.Methods[k] = nestedFunc(bd.Methods[k], nested)
			}
			s.Build = &bd
		case rt.ShapeMock:
			m := *s.Mock
			m.Methods = slices.Clone(m.Methods)
			for k := range m.Methods {
				m.Methods[k].Outs = slices.Clone(m.Methods[k].Outs)
				for j := range m.Methods[k].Outs {
					m.Methods[k].Outs[j] = nested(m.Methods[k].Outs[j])
				}
			}
			s.Mock = &m
		}
		l.Shapes[c] = s
		return c
	}
	for i := 0; i < own; i++ {
		s := &l.Shapes[i]
		if !isCollection(s) {
			continue
		}
		if outer > 0 {
			s.Max = outer
		}
		if s.Kind != rt.ShapeReader {
			e := nested(l.Shapes[i].Elem)
			l.Shapes[i].Elem = e
		}
	}
}

// nestedFunc is fn with its parameters' shapes replaced by nested ones.
func nestedFunc(fn rt.Func, nested func(int) int) rt.Func {
	fn.Params = slices.Clone(fn.Params)
	for k := range fn.Params {
		fn.Params[k] = nested(fn.Params[k])
	}
	return fn
}

// uncut undoes cut: the shapes that are not copies point to shapes that
// are not copies again, and the copies are dropped.
func uncut(l *rt.Layout) {
	own := len(l.Shapes)
	for i, s := range l.Shapes {
		if s.Of > 0 {
			own = i
			break
		}
	}
	if own == len(l.Shapes) {
		return
	}
	orig := func(i int) int {
		if i >= own {
			return l.Shapes[i].Of - 1
		}
		return i
	}
	for i := 0; i < own; i++ {
		s := &l.Shapes[i]
		s.Max = 0
		s.Elem, s.Key = orig(s.Elem), orig(s.Key)
	}
	l.Shapes = l.Shapes[:own]
}

func (b *layoutBuilder) add(s rt.Shape) int {
	b.l.Shapes = append(b.l.Shapes, s)
	return len(b.l.Shapes) - 1
}

// shape returns the index of t's shape, building it if needed. If t cannot
// be an input, ok is false and why says which part of it is not allowed.
func (b *layoutBuilder) shape(t types.Type) (index int, why string, ok bool) {
	t = types.Unalias(t)
	mark := len(b.made)
	index, why, ok = b.shapeOf(t)
	if !ok {
		// The shapes begun on the way (t's own, a struct whose field
		// failed, a pointer back to it) are not ones: later uses of those
		// types must be built again, not find them. Their table entries
		// stay, unreferenced.
		for _, m := range b.made[mark:] {
			b.index.Delete(m)
			b.open.Delete(m)
		}
		b.made = b.made[:mark]
	}
	return index, why, ok
}

// memo records that t has shape i.
func (b *layoutBuilder) memo(t types.Type, i int) {
	b.index.Set(t, i)
	b.made = append(b.made, t)
}

// shapeOf is shape for t without the clean-up of a failure.
func (b *layoutBuilder) shapeOf(t types.Type) (index int, why string, ok bool) {
	if depth, building := b.open.At(t).(int); building && depth == b.ptrs {
		return 0, "recursive type " + typeString(t, b.pkg) + " not through a pointer", false
	}
	if i, done := b.index.At(t).(int); done {
		return i, "", true // built, or reserved and reached again through a pointer
	}
	if b.errorsOnly && b.ifaces != nil && types.IsInterface(t) && !isNamed(t, "", "error") {
		facts := b.ifaces
		b.ifaces = nil
		defer func() { b.ifaces = facts }()
	}
	if b.ctors {
		if i, ok := b.builtShape(t); ok {
			b.memo(t, i)
			return i, "", true
		}
	}
	name := typeString(t, b.pkg)
	switch {
	case isNamed(t, "", "error"):
		// errors.New(message); if the package asserts errors to other
		// interfaces (err.(causer)), one of the dynamic types of a
		// choice (docs/mocks.md).
		if b.ifaces != nil && b.ifaces.errorChoice() && b.ifaces.plainError == 0 {
			return b.errorShape(t), "", true
		}
		return b.done(t, rt.Shape{Kind: rt.ShapeError, Type: name}), "", true
	case isNamed(t, "context", "Context"):
		return b.ownShape(t, rt.Shape{Kind: rt.ShapeContext, Type: name}), "", true
	case isNamed(t, "io", "Writer"):
		// A fresh bytes.Buffer, or one of the choices.
		return b.ownShape(t, rt.Shape{Kind: rt.ShapeWriter, Type: name}), "", true
	case isNamed(t, "reflect", "Type") && b.ifaces != nil:
		return b.typeChoice(t), "", true
	case isNamed(t, "io", "Reader"):
		// A reader over solved bytes (length and bytes are leaves), or
		// one of the choices.
		return b.ownShape(t, rt.Shape{Kind: rt.ShapeReader, Type: name}), "", true
	}
	part := func(elem types.Type) (int, string, bool) {
		i, why, ok := b.shape(elem)
		if !ok && why == "" {
			why = "contains " + typeString(elem, b.pkg)
		}
		return i, why, ok
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch u.Kind() {
		case types.Float32:
			return b.done(t, rt.Shape{Kind: rt.ShapeScalar, Type: name, K: rt.KUint32, Float: true}), "", true
		case types.Float64:
			return b.done(t, rt.Shape{Kind: rt.ShapeScalar, Type: name, K: rt.KUint64, Float: true}), "", true
		}
		k := basicKind(u)
		if k == rt.KInvalid {
			return 0, "", false
		}
		return b.done(t, rt.Shape{Kind: rt.ShapeScalar, Type: name, K: k}), "", true
	case *types.Array:
		return b.composite(t, rt.Shape{Kind: rt.ShapeArray, Type: name, Len: int(u.Len())}, u.Elem(), part)
	case *types.Slice:
		return b.composite(t, rt.Shape{Kind: rt.ShapeSlice, Type: name}, u.Elem(), part)
	case *types.Map:
		// Keys of integer, bool and string types, and structs and arrays
		// of them: the map model compares them (rt.MapKeyI, leaf by leaf
		// for structs and arrays, rt/mapkeys.go). Values of any shape:
		// scalars keep their shadows in the map's table, pointees and
		// slice elements in memory; the fields of a struct value held by
		// the map do not, which the worker records as a concretization
		// (rt/inputbuilder.go).
		if n, ok := inputKey(u.Key(), 0); !ok || n > maxKeyLeaves {
			return 0, "map keys of integer, bool and string types, and structs and arrays of them, only", false
		}
		i := b.begin(t, rt.Shape{Kind: rt.ShapeMap, Type: name})
		k, why, ok := part(u.Key())
		if !ok {
			return 0, why, false
		}
		e, why, ok := part(u.Elem())
		if !ok {
			return 0, why, false
		}
		b.l.Shapes[i].Key, b.l.Shapes[i].Elem = k, e
		b.open.Delete(t)
		return i, "", true
	case *types.Pointer:
		i := b.begin(t, rt.Shape{Kind: rt.ShapePointer, Type: name})
		b.ptrs++
		e, why, ok := part(u.Elem())
		b.ptrs--
		if !ok {
			return 0, why, false
		}
		b.l.Shapes[i].Elem = e
		b.open.Delete(t)
		return i, "", true
	case *types.Struct:
		i := b.begin(t, rt.Shape{Kind: rt.ShapeStruct, Type: name})
		var fields []rt.Field
		for j := 0; j < u.NumFields(); j++ {
			f := u.Field(j)
			if f.Name() == "_" {
				continue
			}
			if !f.Exported() && f.Pkg() != nil && f.Pkg().Path() != b.pkg.Path() {
				if b.opaque {
					fields = nil // the zero value, which another package can write ({})
					break
				}
				return 0, fmt.Sprintf("unexported field %s of %s cannot be set from package %s", f.Name(), types.TypeString(t, (*types.Package).Name), b.pkg.Name()), false
			}
			fs, why, ok := part(f.Type())
			if !ok {
				return 0, why, false
			}
			fields = append(fields, rt.Field{Name: f.Name(), Index: j, Shape: fs})
		}
		b.l.Shapes[i].Fields = fields
		b.open.Delete(t)
		return i, "", true
	case *types.Chan:
		// Buffered and closed, with solved elements; a send-only one
		// empty, with room for -max-len values (see rt.Layout).
		return b.composite(t, rt.Shape{Kind: rt.ShapeChan, Type: name, Send: u.Dir() == types.SendOnly}, u.Elem(), part)
	case *types.Signature:
		// A stub: its results are inputs, its arguments are ignored.
		i := b.begin(t, rt.Shape{Kind: rt.ShapeFunc, Type: name})
		var outs []int
		for k := 0; k < u.Results().Len(); k++ {
			o, why, ok := part(u.Results().At(k).Type())
			if !ok {
				return 0, why, false
			}
			outs = append(outs, o)
		}
		b.l.Shapes[i].Outs = outs
		b.open.Delete(t)
		return i, "", true
	case *types.TypeParam:
		return 0, "type parameter", false
	case *types.Interface:
		if u.Empty() && b.ifaces != nil && (b.ifaces.dispatches(t) || b.ifaces.reflects()) {
			// any that the package asserts to other types or reflects
			// over: a choice among the common types, the package's
			// types, the types asserted to and mocks.
			return b.anyChoice(t, u), "", true
		}
		if u.Empty() {
			// any: nil or one of the common dynamic types.
			i := b.done(t, rt.Shape{Kind: rt.ShapeAny, Type: name})
			var outs []int
			for _, bt := range []*types.Basic{types.Typ[types.Int], types.Typ[types.String], types.Typ[types.Bool]} {
				o, _, _ := b.shape(bt)
				outs = append(outs, o)
			}
			b.l.Shapes[i].Outs = outs
			return i, "", true
		}
		if b.ifaces != nil {
			return b.ifaceShape(t, u), "", true
		}
		return 0, "interface types other than any, error, context.Context, io.Writer and io.Reader need generated mocks", false
	}
	return 0, "", false
}

// ownShape returns the shape of t, an interface that has a shape of its
// own (s: dowse's context, writer or reader): s itself, or, when the
// package asserts such values to other types (w.(io.StringWriter),
// r.(io.WriterTo)), a choice whose first alternative is s and whose
// others are those of any interface: the package's types, the asserted
// types of other packages and mock types (docs/mocks.md).
func (b *layoutBuilder) ownShape(t types.Type, s rt.Shape) int {
	if b.ifaces == nil || !b.ifaces.dispatches(t) {
		return b.done(t, s)
	}
	own := b.add(s)
	return b.ifaceShape(t, t.Underlying().(*types.Interface), own)
}

// composite builds the shape s of t whose element type is elem.
func (b *layoutBuilder) composite(t types.Type, s rt.Shape, elem types.Type, part func(types.Type) (int, string, bool)) (int, string, bool) {
	i := b.begin(t, s)
	e, why, ok := part(elem)
	if !ok {
		return 0, why, false
	}
	b.l.Shapes[i].Elem = e
	b.open.Delete(t)
	return i, "", true
}

// begin reserves the shape of t, so that a pointer inside t leads back to
// it; it is in progress (open) until its parts are built.
func (b *layoutBuilder) begin(t types.Type, s rt.Shape) int {
	i := b.add(s)
	b.open.Set(t, b.ptrs)
	b.memo(t, i)
	return i
}

func (b *layoutBuilder) done(t types.Type, s rt.Shape) int {
	i := b.add(s)
	b.memo(t, i)
	return i
}

// isNamed reports whether t is the named type pkg.name ("" for the
// universe, e.g. error).
func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Name() != name || n.TypeArgs().Len() > 0 {
		return false
	}
	if n.Obj().Pkg() == nil {
		return pkg == ""
	}
	return n.Obj().Pkg().Path() == pkg
}

// basicKind is the leaf kind of a basic type, KInvalid if it cannot be an
// input (floats, complex numbers, unsafe.Pointer, untyped kinds).
func basicKind(b *types.Basic) rt.Kind {
	switch b.Kind() {
	case types.Bool:
		return rt.KBool
	case types.Int:
		return rt.KInt
	case types.Int8:
		return rt.KInt8
	case types.Int16:
		return rt.KInt16
	case types.Int32:
		return rt.KInt32
	case types.Int64:
		return rt.KInt64
	case types.Uint:
		return rt.KUint
	case types.Uint8:
		return rt.KUint8
	case types.Uint16:
		return rt.KUint16
	case types.Uint32:
		return rt.KUint32
	case types.Uint64:
		return rt.KUint64
	case types.Uintptr:
		return rt.KUintptr
	case types.String:
		return rt.KString
	}
	return rt.KInvalid
}

// maxKeyLeaves is the runtime's bound on the leaves of a struct or array
// map key (rt/mapkeys.go).
const maxKeyLeaves = 32

// inputKey reports whether a map input can have keys of type t: an
// integer, bool or string type, or a struct or array of such (blank
// fields aside), with n leaves so far; it returns the count of leaves.
func inputKey(t types.Type, n int) (int, bool) {
	if n > maxKeyLeaves {
		return n, false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return n + 1, basicKind(u) != rt.KInvalid
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if u.Field(i).Name() == "_" {
				continue
			}
			var ok bool
			if n, ok = inputKey(u.Field(i).Type(), n); !ok {
				return n, false
			}
		}
		return n, true
	case *types.Array:
		for i := int64(0); i < u.Len(); i++ {
			var ok bool
			if n, ok = inputKey(u.Elem(), n); !ok {
				return n, false
			}
		}
		return n, true
	}
	return n, false
}
