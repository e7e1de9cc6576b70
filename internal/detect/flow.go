package detect

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/ssa"

	"github.com/dowse-go/dowse/internal/detect/sources"
)

// This file is the may-analysis. Every SSA value that can carry a mock has
// a node with one bit, "may be a mock"; the bit flows forward along copies
// (phi, interface conversions, assertions, extractions, closure bindings
// and, interprocedurally, arguments and results). Memory is a set of
// places: the pointee of a pointer, the elements of a slice, array or
// channel, the values of a map, and one place per struct field (field
// facts are per field, not per object). Places are merged by unification
// when a value flows to another (aliases share their contents), and record
// at which constant keys (indices, map keys) a mock was stored, so that
// stores[0] and stores[1] of a [2]Store literal, or byKind["moq"] and
// byKind["real"], are told apart. A value is a mock-holding slice/array or
// map/collection when its contents place holds a mock: these are the three
// facts per value of the analysis.

// vkey names a value, or one component of a tuple-valued value (i >= 0).
type vkey struct {
	v ssa.Value
	i int
}

type vnode struct {
	mock     bool
	succs    []*vnode
	stores   []*storeEdge
	contents *place
	key      vkey
}

// A place is an abstract memory location (union-find node).
type place struct {
	parent  *place
	any     bool            // a mock was stored at an unknown key
	keys    map[string]bool // constant keys at which a mock was stored
	shifted bool            // keys may be offset (append, copy, slicing)
	elem    *place          // contents of the values held here
}

type storeEdge struct {
	to    *place
	key   string // "" for an unknown key
	field *types.Var
	owner types.Type // struct type (or pointer) the field belongs to
	fn    *ssa.Function
}

type loadEdge struct {
	from *place
	key  string
	dst  *vnode
}

func (p *place) find() *place {
	for p.parent != nil {
		if p.parent.parent != nil {
			p.parent = p.parent.parent
		}
		p = p.parent
	}
	return p
}

// holdsMock reports whether a mock may be read at key ("" = any key).
func (p *place) holdsMock(key string) bool {
	p = p.find()
	if p.any {
		return true
	}
	if key == "" || p.shifted {
		return len(p.keys) > 0
	}
	return p.keys[key]
}

// addMock records a mock stored at key; it reports whether that changed
// the place.
func (p *place) addMock(key string) bool {
	p = p.find()
	if key == "" {
		if p.any {
			return false
		}
		p.any = true
		return true
	}
	if p.any || p.keys[key] {
		return false
	}
	if p.keys == nil {
		p.keys = map[string]bool{}
	}
	p.keys[key] = true
	return true
}

// engine holds the constraints and the solution of one analysis.
type engine struct {
	cls      *sources.Classifier
	nodes    map[vkey]*vnode
	fields   map[*types.Var]*place
	loads    []*loadEdge
	returns  map[*ssa.Function][]*ssa.Return
	added    map[*ssa.Function]bool
	work     []*vnode
	holdable map[types.Type]bool
	// fieldStores records, per field, the functions whose stores put a
	// mock into it (filled while solving).
	fieldStores map[*types.Var][]*storeEdge
	// creations are the mock creation sites seen (allocations of mock
	// types, calls of mock constructors and configured sources).
	creations []ssa.Instruction
	solved    bool
}

func newEngine(cls *sources.Classifier) *engine {
	return &engine{
		cls:         cls,
		nodes:       map[vkey]*vnode{},
		fields:      map[*types.Var]*place{},
		returns:     map[*ssa.Function][]*ssa.Return{},
		added:       map[*ssa.Function]bool{},
		holdable:    map[types.Type]bool{},
		fieldStores: map[*types.Var][]*storeEdge{},
	}
}

// canHold reports whether a value of type t can be, hold or point to a mock.
func (e *engine) canHold(t types.Type) bool {
	if h, ok := e.holdable[t]; ok {
		return h
	}
	h := true
	switch u := t.Underlying().(type) {
	case *types.Basic:
		h = u.Kind() == types.UnsafePointer
	case *types.Signature:
		h = false
	}
	e.holdable[t] = h
	return h
}

// isMockType reports whether t is (a pointer to) a mock type.
func (e *engine) isMockType(t types.Type) bool { return e.cls.MockType(t) != nil }

func (e *engine) node(k vkey) *vnode {
	if n, ok := e.nodes[k]; ok {
		return n
	}
	n := &vnode{key: k}
	e.nodes[k] = n
	if t := keyType(k); t != nil && e.isMockType(t) {
		e.setMock(n)
	}
	return n
}

func keyType(k vkey) types.Type {
	t := k.v.Type()
	if k.i >= 0 {
		tup, ok := t.(*types.Tuple)
		if !ok || k.i >= tup.Len() {
			return nil
		}
		return tup.At(k.i).Type()
	}
	return t
}

func (e *engine) setMock(n *vnode) {
	if !n.mock {
		n.mock = true
		e.work = append(e.work, n)
	}
}

func (e *engine) contents(k vkey) *place {
	n := e.node(k)
	if n.contents == nil {
		n.contents = &place{}
	}
	return n.contents.find()
}

func (e *engine) elem(p *place) *place {
	p = p.find()
	if p.elem == nil {
		p.elem = &place{}
	}
	return p.elem.find()
}

func (e *engine) field(f *types.Var) *place {
	p, ok := e.fields[f]
	if !ok {
		p = &place{}
		e.fields[f] = p
	}
	return p.find()
}

// unify merges two places and, recursively, their contents.
func (e *engine) unify(a, b *place) {
	pairs := [][2]*place{{a, b}}
	for len(pairs) > 0 {
		a, b := pairs[len(pairs)-1][0].find(), pairs[len(pairs)-1][1].find()
		pairs = pairs[:len(pairs)-1]
		if a == b {
			continue
		}
		b.parent = a
		a.any = a.any || b.any
		a.shifted = a.shifted || b.shifted
		for k := range b.keys {
			if a.keys == nil {
				a.keys = map[string]bool{}
			}
			a.keys[k] = true
		}
		switch {
		case a.elem == nil:
			a.elem = b.elem
		case b.elem != nil:
			pairs = append(pairs, [2]*place{a.elem, b.elem})
		}
	}
}

func val(v ssa.Value) vkey { return vkey{v, -1} }

// copyEdge: whatever src may be, dst may be too; they share contents.
func (e *engine) copyEdge(src, dst vkey) {
	if !e.canHold(keyType(src)) || keyType(dst) == nil || !e.canHold(keyType(dst)) {
		return
	}
	s, d := e.node(src), e.node(dst)
	s.succs = append(s.succs, d)
	e.unify(e.contents(src), e.contents(dst))
}

// store: the value may be put into place p at key.
func (e *engine) store(v ssa.Value, p *place, key string, se *storeEdge) {
	if v == nil || !e.canHold(v.Type()) {
		return
	}
	if se == nil {
		se = &storeEdge{}
	}
	se.to, se.key = p, key
	n := e.node(val(v))
	n.stores = append(n.stores, se)
	e.unify(e.elem(p), e.contents(val(v)))
}

// load: dst is read from place p at key.
func (e *engine) load(p *place, key string, dst vkey) {
	t := keyType(dst)
	if t == nil || !e.canHold(t) {
		return
	}
	d := e.node(dst)
	e.loads = append(e.loads, &loadEdge{from: p, key: key, dst: d})
	e.unify(e.elem(p), e.contents(dst))
}

// constKey returns the constant's exact text, or "" for a non-constant.
func constKey(v ssa.Value) string {
	if c, ok := v.(*ssa.Const); ok && c.Value != nil {
		if c.Value.Kind() == constant.Unknown {
			return ""
		}
		return c.Value.ExactString()
	}
	return ""
}

// elemPlace is the place of the elements of a slice, or of an array
// pointed to by x.
func (e *engine) elemPlace(x ssa.Value) *place {
	if p, ok := x.Type().Underlying().(*types.Pointer); ok {
		if _, ok := p.Elem().Underlying().(*types.Array); ok {
			return e.elem(e.contents(val(x)))
		}
	}
	return e.contents(val(x))
}

// addrKey returns the key an address refers to within its container.
func addrKey(addr ssa.Value) string {
	if ia, ok := addr.(*ssa.IndexAddr); ok {
		return constKey(ia.Index)
	}
	return ""
}

// addFunc adds the constraints of one function.
func (e *engine) addFunc(fn *ssa.Function) {
	if e.added[fn] {
		return
	}
	e.added[fn] = true
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			e.addInstr(fn, instr)
		}
	}
}

func (e *engine) addInstr(fn *ssa.Function, instr ssa.Instruction) {
	switch in := instr.(type) {
	case *ssa.Alloc:
		if e.isMockType(in.Type()) {
			e.node(val(in))
			e.creations = append(e.creations, in)
		}
	case *ssa.Phi:
		for _, ed := range in.Edges {
			e.copyEdge(val(ed), val(in))
		}
	case *ssa.MakeInterface:
		e.copyEdge(val(in.X), val(in))
	case *ssa.ChangeInterface:
		e.copyEdge(val(in.X), val(in))
	case *ssa.ChangeType:
		e.copyEdge(val(in.X), val(in))
	case *ssa.Convert:
		e.copyEdge(val(in.X), val(in))
	case *ssa.MultiConvert:
		e.copyEdge(val(in.X), val(in))
	case *ssa.TypeAssert:
		if in.CommaOk {
			e.copyEdge(val(in.X), vkey{in, 0})
		} else {
			e.copyEdge(val(in.X), val(in))
		}
	case *ssa.Extract:
		e.copyEdge(vkey{in.Tuple, in.Index}, val(in))
	case *ssa.Slice:
		if !e.canHold(in.Type()) {
			return
		}
		if p, ok := in.X.Type().Underlying().(*types.Pointer); ok {
			if _, ok := p.Elem().Underlying().(*types.Array); ok {
				e.unify(e.contents(val(in)), e.elemPlace(in.X))
			}
		} else {
			e.copyEdge(val(in.X), val(in))
		}
		if in.Low != nil && constKey(in.Low) != "0" {
			e.contents(val(in)).shifted = true
		}
	case *ssa.SliceToArrayPointer:
		if e.canHold(in.Type()) {
			e.unify(e.elem(e.contents(val(in))), e.contents(val(in.X)))
		}
	case *ssa.FieldAddr:
		if f := fieldOf(in.X.Type(), in.Field); f != nil && e.canHold(in.Type()) {
			e.unify(e.contents(val(in)), e.field(f))
		}
	case *ssa.Field:
		if f := fieldOf(in.X.Type(), in.Field); f != nil {
			e.load(e.field(f), "", val(in))
		}
	case *ssa.IndexAddr:
		if e.canHold(in.Type()) {
			e.unify(e.contents(val(in)), e.elemPlace(in.X))
		}
	case *ssa.Index:
		if _, ok := in.X.Type().Underlying().(*types.Array); ok {
			e.load(e.contents(val(in.X)), constKey(in.Index), val(in))
		}
	case *ssa.UnOp:
		switch in.Op.String() {
		case "*":
			if e.canHold(in.Type()) {
				e.load(e.contents(val(in.X)), addrKey(in.X), val(in))
			}
		case "<-":
			if in.CommaOk {
				e.load(e.contents(val(in.X)), "", vkey{in, 0})
			} else {
				e.load(e.contents(val(in.X)), "", val(in))
			}
		}
	case *ssa.Store:
		se := &storeEdge{fn: fn}
		if fa, ok := in.Addr.(*ssa.FieldAddr); ok {
			se.field = fieldOf(fa.X.Type(), fa.Field)
			se.owner = fa.X.Type()
		}
		e.store(in.Val, e.contents(val(in.Addr)), addrKey(in.Addr), se)
	case *ssa.MapUpdate:
		e.store(in.Value, e.contents(val(in.Map)), constKey(in.Key), nil)
	case *ssa.Lookup:
		if _, ok := in.X.Type().Underlying().(*types.Map); ok {
			if in.CommaOk {
				e.load(e.contents(val(in.X)), constKey(in.Index), vkey{in, 0})
			} else {
				e.load(e.contents(val(in.X)), constKey(in.Index), val(in))
			}
		}
	case *ssa.Range:
		if e.canHold(in.X.Type()) {
			e.unify(e.contents(val(in.X)), e.contents(val(in)))
		}
	case *ssa.Next:
		if !in.IsString {
			e.load(e.contents(val(in.Iter)), "", vkey{in, 2})
		}
	case *ssa.Send:
		e.store(in.X, e.contents(val(in.Chan)), "", nil)
	case *ssa.MakeClosure:
		if cl, ok := in.Fn.(*ssa.Function); ok {
			for i, b := range in.Bindings {
				if i < len(cl.FreeVars) {
					e.copyEdge(val(b), val(cl.FreeVars[i]))
				}
			}
		}
	case *ssa.Return:
		e.returns[fn] = append(e.returns[fn], in)
	case ssa.CallInstruction:
		e.addCall(in)
	}
}

func (e *engine) addCall(call ssa.CallInstruction) {
	c := call.Common()
	v := call.Value()
	if b, ok := c.Value.(*ssa.Builtin); ok {
		if v == nil {
			return
		}
		switch b.Name() {
		case "append":
			if !e.canHold(v.Type()) {
				return
			}
			p := e.contents(val(v))
			for _, a := range c.Args {
				e.unify(p, e.contents(val(a)))
			}
			e.contents(val(v)).shifted = true
		case "copy":
			if len(c.Args) == 2 && e.canHold(c.Args[0].Type()) {
				e.unify(e.contents(val(c.Args[0])), e.contents(val(c.Args[1])))
				e.contents(val(c.Args[0])).shifted = true
			}
		}
		return
	}
	if v == nil {
		return
	}
	callee := c.StaticCallee()
	if callee == nil {
		return
	}
	obj, _ := callee.Object().(*types.Func)
	if obj == nil && callee.Origin() != nil {
		obj, _ = callee.Origin().Object().(*types.Func)
	}
	if obj != nil && e.cls.MockFunc(obj) != "" {
		e.creations = append(e.creations, call)
		if tup, ok := v.Type().(*types.Tuple); ok {
			for i := 0; i < tup.Len(); i++ {
				if isSourceResult(tup.At(i).Type()) {
					e.setMock(e.node(vkey{v, i}))
				}
			}
		} else if isSourceResult(v.Type()) {
			e.setMock(e.node(val(v)))
		}
		return
	}
	if e.isMockType(resultType(v.Type())) {
		e.creations = append(e.creations, call)
	}
}

// resultType is the type of a call's only or first result.
func resultType(t types.Type) types.Type {
	if tup, ok := t.(*types.Tuple); ok {
		if tup.Len() == 0 {
			return types.Typ[types.Invalid]
		}
		return tup.At(0).Type()
	}
	return t
}

// isSourceResult reports whether a result of a configured source function
// is the mock (errors and plain values are not).
func isSourceResult(t types.Type) bool {
	if types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Struct:
		return true
	}
	return false
}

// fieldOf returns field i of the struct t points to or is.
func fieldOf(t types.Type, i int) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil
	}
	return st.Field(i)
}

// addCallGraph adds argument-to-parameter and result-to-call edges for the
// calls of cg from and to functions in scope.
func (e *engine) addCallGraph(cg *callgraph.Graph, inScope func(*ssa.Function) bool) {
	for fn, node := range cg.Nodes {
		if fn == nil || !e.added[fn] {
			continue
		}
		for _, out := range node.Out {
			callee := out.Callee.Func
			if callee == nil || !inScope(callee) || out.Site == nil {
				continue
			}
			e.bind(out.Site, callee)
		}
	}
}

func (e *engine) bind(site ssa.CallInstruction, callee *ssa.Function) {
	c := site.Common()
	var args []ssa.Value
	if c.IsInvoke() {
		args = append([]ssa.Value{c.Value}, c.Args...)
	} else {
		args = c.Args
	}
	if len(args) == len(callee.Params) {
		for i, a := range args {
			e.copyEdge(val(a), val(callee.Params[i]))
		}
	}
	v := site.Value()
	if v == nil {
		return
	}
	results := callee.Signature.Results().Len()
	for _, ret := range e.returns[callee] {
		for j, r := range ret.Results {
			if results == 1 {
				e.copyEdge(val(r), val(v))
			} else {
				e.copyEdge(val(r), vkey{v, j})
			}
		}
	}
}

// solve propagates the mock bits to a fixed point.
func (e *engine) solve() {
	byPlace := map[*place][]*loadEdge{}
	for _, l := range e.loads {
		r := l.from.find()
		byPlace[r] = append(byPlace[r], l)
	}
	// Loads from places that already hold mocks (merged by unification).
	for r, ls := range byPlace {
		for _, l := range ls {
			if r.holdsMock(l.key) {
				e.setMock(l.dst)
			}
		}
	}
	for len(e.work) > 0 {
		n := e.work[len(e.work)-1]
		e.work = e.work[:len(e.work)-1]
		for _, s := range n.succs {
			e.setMock(s)
		}
		for _, st := range n.stores {
			if st.field != nil {
				e.fieldStores[st.field] = append(e.fieldStores[st.field], st)
			}
			r := st.to.find()
			if !r.addMock(st.key) {
				continue
			}
			for _, l := range byPlace[r] {
				if r.holdsMock(l.key) {
					e.setMock(l.dst)
				}
			}
		}
	}
	e.solved = true
}

// mayMock reports whether v may be a mock object.
func (e *engine) mayMock(v ssa.Value) bool {
	if v == nil {
		return false
	}
	if e.isMockType(v.Type()) {
		return true
	}
	n, ok := e.nodes[val(v)]
	return ok && n.mock
}

// holdsMocks reports whether the contents of v (elements of a slice, array
// or channel, values of a map, pointee of a pointer) may be mocks.
func (e *engine) holdsMocks(v ssa.Value) bool {
	n, ok := e.nodes[val(v)]
	if !ok || n.contents == nil {
		return false
	}
	p := n.contents.find()
	if ptr, ok := v.Type().Underlying().(*types.Pointer); ok {
		if _, ok := ptr.Elem().Underlying().(*types.Array); ok {
			p = e.elem(p)
		}
	}
	return p.holdsMock("")
}
