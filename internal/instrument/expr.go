package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

func (f *fn) typeOf(e ast.Expr) types.Type {
	if t, ok := f.temps[e]; ok {
		return t.t
	}
	if t, ok := f.types[e]; ok {
		return t
	}
	return f.fl.typeOf(e)
}

func (f *fn) isType(e ast.Expr) bool {
	tv, ok := f.fl.info.Types[e]
	return ok && tv.IsType()
}

func (f *fn) builtin(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if b, ok := f.fl.info.Uses[e].(*types.Builtin); ok {
			return b.Name()
		}
	case *ast.SelectorExpr:
		if b, ok := f.fl.info.Uses[e.Sel].(*types.Builtin); ok {
			return b.Name() // unsafe.Sizeof and friends
		}
	}
	return ""
}

// callee returns the statically known function of a call, or nil.
func (f *fn) callee(call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
		if sel, ok := f.fl.info.Selections[fun]; ok {
			if sel.Kind() != types.MethodVal {
				return nil
			}
			if types.IsInterface(sel.Recv()) {
				return nil
			}
		}
	case *ast.IndexExpr:
		return f.callee(&ast.CallExpr{Fun: fun.X})
	case *ast.IndexListExpr:
		return f.callee(&ast.CallExpr{Fun: fun.X})
	default:
		return nil
	}
	fn, _ := f.fl.info.Uses[id].(*types.Func)
	return fn
}

// hoistable reports whether e's value is the result of a call that the
// rewrite can move before the statement.
func (f *fn) isCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && !f.isType(call.Fun) && f.builtin(call.Fun) == ""
}

// pure rewrites e so that it has no side effects left: calls, receives,
// appends and composite literals move into temporaries declared by
// statements appended to pre (when hoist is true). Function literals in e
// are instrumented. The result may share nodes with e.
func (f *fn) pure(e ast.Expr, pre *[]ast.Stmt, hoist bool) ast.Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *ast.FuncLit:
		f.fl.funcLit(x, f)
		return x
	case *ast.ParenExpr:
		x.X = f.pure(x.X, pre, hoist)
		return x
	case *ast.SelectorExpr:
		if sel, ok := f.fl.info.Selections[x]; ok {
			x.X = f.pure(x.X, pre, hoist)
			if sel.Kind() == types.MethodVal {
				f.methodValue(x, sel, pre)
			}
		}
		return x
	case *ast.IndexExpr:
		x.X = f.pure(x.X, pre, hoist)
		x.Index = f.pure(x.Index, pre, hoist)
		f.pickIndex(x, false)
		f.mapKey(x, false, hoisting(pre, hoist))
		return x
	case *ast.IndexListExpr:
		return x
	case *ast.SliceExpr:
		x.X = f.pure(x.X, pre, hoist)
		x.Low = f.pure(x.Low, pre, hoist)
		x.High = f.pure(x.High, pre, hoist)
		x.Max = f.pure(x.Max, pre, hoist)
		return x
	case *ast.StarExpr:
		if !f.isType(x) {
			x.X = f.pure(x.X, pre, hoist)
		}
		return x
	case *ast.TypeAssertExpr:
		x.X = f.pure(x.X, pre, hoist)
		return x
	case *ast.KeyValueExpr:
		// A map literal's keys are expressions, evaluated before their
		// values; struct keys are field names.
		if _, isField := x.Key.(*ast.Ident); !isField {
			x.Key = f.pure(x.Key, pre, hoist)
		}
		x.Value = f.pure(x.Value, pre, hoist)
		return x
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			if lit, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok {
				f.pureElems(lit, pre, hoist)
				if hoist && lit.Type != nil {
					return f.hoistLit(x, lit, true, pre)
				}
				return x
			}
		}
		x.X = f.pure(x.X, pre, hoist)
		if ix, ok := ast.Unparen(x.X).(*ast.IndexExpr); ok && x.Op == token.AND {
			f.pickIndex(ix, true)
		}
		if x.Op == token.ARROW && hoist {
			return f.hoistValue(x, pre)
		}
		return x
	case *ast.BinaryExpr:
		x.X = f.pure(x.X, pre, hoist)
		if x.Op == token.LAND || x.Op == token.LOR {
			x.Y = f.pure(x.Y, pre, false)
			x.X = f.cond(x.X)
			x.Y = f.cond(x.Y)
			return x
		}
		x.Y = f.pure(x.Y, pre, hoist)
		if hoist && x.Op == token.ADD && classOf(f.typeOf(x)) == str && f.fl.constOf(x) == nil {
			// a + b allocates, as string(b) does (see pureCall).
			return f.hoistString(x, pre)
		}
		return x
	case *ast.CompositeLit:
		f.pureElems(x, pre, hoist)
		if hoist && x.Type != nil {
			return f.hoistLit(x, x, false, pre)
		}
		return x
	case *ast.CallExpr:
		return f.pureCall(x, pre, hoist)
	}
	return e
}

// hoisting is pre where statements may run before the expression being
// rewritten (hoist), else nil: an operand of && or || may not be
// evaluated at all.
func hoisting(pre *[]ast.Stmt, hoist bool) *[]ast.Stmt {
	if !hoist {
		return nil
	}
	return pre
}

// hoistString moves an expression that builds a new string (a
// conversion, a concatenation) into a temporary, with its shadow computed
// once beside it: a string's fingerprint is its data pointer, so the
// value and the fingerprint of its shadow must come from one evaluation.
func (f *fn) hoistString(x ast.Expr, pre *[]ast.Stmt) ast.Expr {
	t := f.typeOf(x)
	sh := f.sh(x)
	id := f.newTemp()
	if sh != nil {
		sid := f.newTemp()
		*pre = append(*pre, define(sid, sh), use(sid))
		f.temps[id] = temp{t: t, sh: sid}
	} else {
		f.temps[id] = temp{t: t}
	}
	*pre = append(*pre, define(id, x))
	return id
}

func (f *fn) pureElems(lit *ast.CompositeLit, pre *[]ast.Stmt, hoist bool) {
	for i, el := range lit.Elts {
		lit.Elts[i] = f.pure(el, pre, hoist)
	}
}

// pureArgs makes the function expression and the arguments of call pure.
func (f *fn) pureArgs(call *ast.CallExpr, pre *[]ast.Stmt, hoist bool) {
	if !f.isType(call.Fun) {
		switch fun := call.Fun.(type) {
		case *ast.SelectorExpr:
			if _, ok := f.fl.info.Selections[fun]; ok {
				fun.X = f.pure(fun.X, pre, hoist)
			}
		case *ast.FuncLit:
			f.fl.funcLit(fun, f)
		case *ast.Ident:
		default:
			call.Fun = f.pure(call.Fun, pre, hoist)
		}
	}
	// f(g()) where g returns several values: spread into temporaries.
	if len(call.Args) == 1 && hoist && f.isCall(call.Args[0]) {
		if tup, ok := f.typeOf(call.Args[0]).(*types.Tuple); ok && tup.Len() > 1 {
			inner := ast.Unparen(call.Args[0]).(*ast.CallExpr)
			f.pureArgs(inner, pre, hoist)
			call.Args = f.hoistMulti(inner, tup, pre)
			return
		}
	}
	for i, a := range call.Args {
		call.Args[i] = f.pure(a, pre, hoist)
	}
}

func (f *fn) pureCall(x *ast.CallExpr, pre *[]ast.Stmt, hoist bool) ast.Expr {
	if f.isType(x.Fun) {
		for i, a := range x.Args {
			x.Args[i] = f.pure(a, pre, hoist)
		}
		if len(x.Args) == 1 && hoist {
			f.boxed(x.Args[0], f.typeOf(x), pre) // any(v)
			if b, ok := f.typeOf(x).Underlying().(*types.Basic); ok && b.Info()&types.IsComplex != 0 {
				// complex128(n): complex numbers keep no shadows (the
				// conversion once lost n's without a trace, and a branch
				// on the result was called exhaustive).
				*pre = append(*pre, f.lostValue(x.Args[0], f.typeOf(x.Args[0]), func() uint32 { return f.fl.site(x.Lparen, "conv") }, "converted to a float")...)
			}
		}
		// []byte(s): new memory whose elements get shadows.
		if hoist && len(x.Args) == 1 && isByteSlice(f.typeOf(x)) && classOf(f.typeOf(x.Args[0])) == str {
			sh := f.sh(x.Args[0])
			id := f.newTemp()
			*pre = append(*pre, define(id, x))
			if sh != nil {
				sid := f.newTemp()
				*pre = append(*pre, define(sid, f.fl.rtCall("BytesFromStr", id, sh)), use(sid))
				f.temps[id] = temp{t: f.typeOf(x), sh: sid}
			} else {
				f.temps[id] = temp{t: f.typeOf(x)}
			}
			return id
		}
		// string(b), string(runes), string(r): new memory too. Its
		// fingerprint is its data pointer, so the value and its shadow
		// must come from one conversion (evaluated twice, the result of
		// `return string(b)` never matched its fingerprint and lost its
		// shadow).
		if hoist && len(x.Args) == 1 && classOf(f.typeOf(x)) == str && classOf(f.typeOf(x.Args[0])) != str {
			return f.hoistString(x, pre)
		}
		return x
	}
	switch f.builtin(x.Fun) {
	case "":
	case "recover":
		return f.fl.rtCall("Recovered", x)
	case "append":
		f.pureArgs(x, pre, hoist)
		if hoist {
			return f.hoistAppend(x, pre)
		}
		return x
	case "make":
		f.pureArgs(x, pre, hoist)
		if hoist {
			return f.hoistMake(x, pre)
		}
		return x
	case "delete":
		f.pureArgs(x, pre, hoist)
		f.deleteKey(x, hoisting(pre, hoist))
		return x
	case "clear":
		f.pureArgs(x, pre, hoist)
		if hoist {
			f.clearCells(x, pre)
		}
		return x
	case "copy":
		// n := copy(dst, src): the cells move as for a copy statement.
		f.pureArgs(x, pre, hoist)
		if hoist {
			f.copyShadows(x, pre)
		}
		return x
	default:
		f.pureArgs(x, pre, hoist)
		return x
	}
	f.pureArgs(x, pre, hoist)
	f.special(x)
	if !hoist {
		return x
	}
	t := f.typeOf(x)
	if t == nil {
		return x
	}
	if _, ok := t.(*types.Tuple); ok {
		return x // several results: only an assignment or a spread takes them
	}
	return f.hoistMulti(x, types.NewTuple(types.NewVar(token.NoPos, nil, "", t)), pre)[0]
}

// hoistMulti moves a call into temporaries, one per result, announcing
// argument shadows before and picking up result shadows after.
func (f *fn) hoistMulti(call *ast.CallExpr, results *types.Tuple, pre *[]ast.Stmt) []ast.Expr {
	id, announced := f.announce(call, pre)
	var lhs []ast.Expr
	for i := 0; i < results.Len(); i++ {
		lhs = append(lhs, f.newTemp())
	}
	*pre = append(*pre, &ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: []ast.Expr{call}})
	for i, l := range lhs {
		rt := results.At(i).Type()
		tmp := temp{t: rt}
		if announced {
			if c := classOf(rt); c == scalar || c == str || c == slice {
				sid := f.newTemp()
				*pre = append(*pre, define(sid, f.fl.rtCall("Res", intLit(uint64(id)), intLit(uint64(i)), f.fl.fp(l, rt))), use(sid))
				tmp.sh = sid
			} else if c == aggregate {
				if hasCells(rt) {
					*pre = append(*pre, f.fl.escape(l))
				}
				*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("ResAgg", intLit(uint64(id)), intLit(uint64(i)), f.fl.addr(l), f.fl.sizeof(l))})
			}
		}
		f.temps[l] = tmp
	}
	return lhs
}

// hoistValue moves a side-effecting expression (a receive) into a
// temporary. A receive from a channel reports itself (see recv).
func (f *fn) hoistValue(e ast.Expr, pre *[]ast.Stmt) ast.Expr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		if v, _, ok := f.recv(u, pre); ok {
			return v
		}
	}
	t := f.typeOf(e)
	id := f.newTemp()
	*pre = append(*pre, define(id, e))
	f.temps[id] = temp{t: t}
	return id
}

// recv moves the receive u (whose operand is pure) into temporaries v, ok
// := <-c and reports it to rt.Recv, which records, for an input channel,
// whether it got an element (an implicit branch); v gets the element's
// shadow (rt.RecvSh) and ok the shadow of that condition.
func (f *fn) recv(u *ast.UnaryExpr, pre *[]ast.Stmt) (v, ok ast.Expr, done bool) {
	ct, isChan := f.typeOf(u.X).Underlying().(*types.Chan)
	if !isChan {
		return nil, nil, false
	}
	c := f.chanOperand(u, pre)
	vid, okid, okS := f.newTemp(), f.newTemp(), f.newTemp()
	*pre = append(*pre, &ast.AssignStmt{Lhs: []ast.Expr{vid, okid}, Tok: token.DEFINE, Rhs: []ast.Expr{u}})
	site := f.fl.site(u.OpPos, "recv")
	*pre = append(*pre, define(okS, f.fl.rtCall("Recv", intLit(uint64(site)), c, okid)), use(okS))
	elem := ct.Elem()
	tv := temp{t: elem}
	if cls := classOf(elem); cls == scalar || cls == str || cls == slice {
		sid := f.newTemp()
		*pre = append(*pre, define(sid, f.fl.rtCall("RecvSh", f.fl.fp(vid, elem))), use(sid))
		tv.sh = sid
	}
	f.temps[vid] = tv
	f.temps[okid] = temp{t: types.Typ[types.Bool], sh: okS}
	return vid, okid, true
}

// chanOperand binds the channel operand of receive u to a temporary
// (unless it is one) and returns it: the channel is named again after the
// receive.
func (f *fn) chanOperand(u *ast.UnaryExpr, pre *[]ast.Stmt) ast.Expr {
	if id, ok := u.X.(*ast.Ident); ok {
		if _, isTemp := f.temps[id]; isTemp {
			return id
		}
	}
	c := f.newTemp()
	*pre = append(*pre, define(c, u.X))
	f.temps[c] = temp{t: f.typeOf(u.X)}
	u.X = c
	return c
}

// announce emits rt.Call for a call to an instrumented function (or a
// dynamic call) and returns the callee id used for its results.
func (f *fn) announce(call *ast.CallExpr, pre *[]ast.Stmt) (uint32, bool) {
	fn := f.callee(call)
	var id uint32
	var sig *types.Signature
	recv := false
	// The arguments of an isolated call go nowhere: converting them to
	// interfaces loses nothing.
	isolated := fn != nil && f.fl.opts.Sandbox != nil && f.fl.opts.Sandbox.Isolated(call)
	switch {
	case isolated:
		// An isolated call: its arguments are announced as for a dynamic
		// call (the sandbox takes them without a prologue) and its results
		// are the sandbox's, with their shadows (id 0: the stub's rt.Ret).
		sig, _ = f.typeOf(call.Fun).(*types.Signature)
		if sig == nil {
			return 0, false
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if s, ok := f.fl.info.Selections[sel]; ok && s.Kind() == types.MethodVal {
				recv = true
			}
		}
	case fn != nil:
		switch f.fl.treatment(fn) {
		case Modelled:
			// A model of a standard-library function: called like an
			// instrumented function, it returns the original's result
			// with a shadow.
			model := f.fl.rtSel(models[fn.FullName()])
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && f.fl.info.Selections[sel] != nil && f.fl.info.Selections[sel].Kind() == types.MethodVal {
				// A method's model takes the receiver first: x.M(a)
				// becomes rt.Model(x, a), once the arguments (the
				// receiver first) are announced; for a pointer method
				// called on an addressable value (var b
				// strings.Builder; b.WriteString(s)) the implied &x is
				// made explicit: rt.Model(&x, a). A promoted method or
				// another receiver is left to the original.
				recvType := fn.Type().(*types.Signature).Recv().Type()
				recvArg := sel.X
				if ptr, ok := recvType.(*types.Pointer); ok && types.Identical(f.typeOf(sel.X), ptr.Elem()) && f.addressable(sel.X) {
					recvArg = &ast.UnaryExpr{Op: token.AND, X: sel.X}
				} else if !types.Identical(f.typeOf(sel.X), recvType) {
					recvArg = nil
				}
				if len(f.fl.info.Selections[sel].Index()) != 1 || recvArg == nil {
					f.lostArgs(call, fn, pre)
					return 0, false
				}
				defer func() {
					call.Fun = model
					call.Args = append([]ast.Expr{recvArg}, call.Args...)
				}()
			} else {
				// The import the callee was named through may be left
				// without uses: it becomes a blank import then.
				f.fl.replaced.Add(f.fl.ast, f.fl.info, call.Fun)
				call.Fun = model
			}
		case Concrete:
			f.lostArgs(call, fn, pre)
			return 0, false
		}
		id = FuncID(fn)
		sig = fn.Type().(*types.Signature)
		recv = sig.Recv() != nil
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if s, ok := f.fl.info.Selections[sel]; ok && s.Kind() == types.MethodExpr {
				recv = false // T.M(x, ...): the receiver is the first argument
			}
		}
	default:
		t := f.typeOf(call.Fun)
		if t == nil {
			return 0, false
		}
		s, ok := t.Underlying().(*types.Signature)
		if !ok {
			return 0, false
		}
		sig = s
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if s, ok := f.fl.info.Selections[sel]; ok && s.Kind() == types.MethodVal {
				recv = true // interface method
			}
		}
	}
	var args []ast.Expr
	if recv {
		a := ast.Expr(f.fl.lit("Arg"))
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn != nil {
			a = f.argOf(sel.X, f.typeOf(sel.X))
		} else if ok && types.IsInterface(f.typeOf(sel.X)) && f.addressable(sel.X) {
			// A method called through an interface: a value receiver
			// takes the cells of the copy the interface holds (rt.Box).
			a = f.fl.rtCall("BoxArg", sel.X)
		}
		args = append(args, a)
	}
	params := sig.Params()
	for i, a := range call.Args {
		// Arguments that become interface values lose their shadows.
		if pt := paramType(sig, i, call.Ellipsis != token.NoPos); pt != nil && !isolated {
			f.boxed(a, pt, pre)
		}
		if sig.Variadic() && i >= params.Len()-1 && call.Ellipsis == token.NoPos {
			args = append(args, f.fl.lit("Arg"))
			break
		}
		args = append(args, f.argOf(a, f.typeOf(a)))
	}
	if sig.Variadic() && call.Ellipsis == token.NoPos && len(call.Args) < params.Len() {
		args = append(args, f.fl.lit("Arg"))
	}
	if len(args) == 0 {
		return id, true
	}
	// Variadic arguments past those the loop above saw.
	for i := len(args); i < len(call.Args); i++ {
		if pt := paramType(sig, i, false); pt != nil && !isolated {
			f.boxed(call.Args[i], pt, pre)
		}
	}
	*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("Call", append([]ast.Expr{intLit(uint64(id))}, args...)...)})
	return id, true
}

// argOf is the rt.Arg expression for argument a of type t.
func (f *fn) argOf(a ast.Expr, t types.Type) ast.Expr {
	switch classOf(t) {
	case scalar, str, slice:
		if sh := f.sh(a); sh != nil {
			return f.fl.lit("Arg", sh, f.fl.fp(a, t))
		}
	case aggregate:
		if f.addressable(a) {
			return f.fl.lit("Arg", f.fl.rtSel("Agg"), &ast.CallExpr{Fun: f.fl.pre("uint64"), Args: []ast.Expr{f.fl.addr(a)}}, f.fl.sizeof(a))
		}
	}
	return f.fl.lit("Arg")
}

// addressable reports whether &e is valid (and side-effect free).
func (f *fn) addressable(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if _, ok := f.temps[x]; ok {
			return true
		}
		_, ok := f.fl.info.ObjectOf(x).(*types.Var)
		return ok
	case *ast.IndexExpr:
		t := f.typeOf(x.X)
		if t == nil {
			return false
		}
		switch u := t.Underlying().(type) {
		case *types.Slice:
			return true
		case *types.Array:
			return f.addressable(x.X)
		case *types.Pointer:
			_, ok := u.Elem().Underlying().(*types.Array)
			return ok
		}
		return false
	case *ast.SelectorExpr:
		sel, ok := f.fl.info.Selections[x]
		if !ok {
			_, isVar := f.fl.info.Uses[x.Sel].(*types.Var)
			return isVar // a package-level variable of another package
		}
		if sel.Kind() != types.FieldVal {
			return false
		}
		if sel.Indirect() {
			return true
		}
		xt := f.typeOf(x.X)
		if xt == nil {
			return false
		}
		if _, ok := xt.Underlying().(*types.Pointer); ok {
			return true
		}
		return f.addressable(x.X)
	case *ast.StarExpr:
		return true
	}
	return false
}

func isByteSlice(t types.Type) bool {
	if t == nil {
		return false
	}
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// cond turns a boolean operand into a recorded branch, unless it is itself
// a && or || whose operands are recorded.
func (f *fn) cond(e ast.Expr) ast.Expr {
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			return e
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			if b, ok := ast.Unparen(x.X).(*ast.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) {
				return e
			}
		}
	}
	if f.constOf(e) {
		return e
	}
	sh := f.sh(e)
	if sh == nil {
		sh = zeroS()
	}
	kind := "cond"
	site := f.fl.site(e.Pos(), kind)
	return f.fl.rtCall("Br", intLit(uint64(site)), e, sh)
}

func (f *fn) constOf(e ast.Expr) bool {
	if _, ok := f.temps[e]; ok {
		return false
	}
	if _, ok := f.types[e]; ok {
		return false
	}
	return f.fl.constOf(e) != nil
}

// impure reports whether evaluating e again could have effects: it still
// contains a call (other than conversions and pure builtins) or a receive.
func (f *fn) impure(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if f.isType(x.Fun) {
				return true
			}
			switch f.builtin(x.Fun) {
			case "len", "cap", "min", "max", "real", "imag", "complex", "Sizeof", "Offsetof", "Alignof", "String", "StringData", "Slice", "SliceData", "Add":
				return true
			}
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == f.fl.rt {
					// Our own helpers; the arguments of PickI and MapKeyI
					// are the pure index and shadow expressions pickIndex
					// and mapKey gave them.
					return sel.Sel.Name != "PickI" && sel.Sel.Name != "MapKeyI"
				}
			}
			found = true
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				found = true
			}
		}
		return true
	})
	return found
}

// lostArgs records, before a call of a function dowse does not follow, the
// concretization of the symbolic values passed to it (including the
// elements of slices and aggregates), unless the callee is the testing
// package (messages).
func (f *fn) lostArgs(call *ast.CallExpr, fn *types.Func, pre *[]ast.Stmt) {
	if fn.Pkg() == nil || fn.Pkg().Path() == "testing" || fn.Pkg().Path() == RuntimePath {
		return
	}
	why := &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote("passed to " + fn.FullName())}
	args := append([]ast.Expr(nil), call.Args...)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := f.fl.info.Selections[sel]; ok && s.Kind() == types.MethodVal {
			args = append([]ast.Expr{sel.X}, args...)
		}
	}
	var site uint32
	for _, a := range args {
		t := f.typeOf(a)
		if t == nil || f.impure(a) {
			continue
		}
		if site == 0 {
			site = f.fl.site(call.Lparen, "call")
		}
		if _, isMap := t.Underlying().(*types.Map); isMap {
			*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("MapLost", intLit(uint64(site)), a, why)})
			continue
		}
		if _, isChan := t.Underlying().(*types.Chan); isChan {
			*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("ChanLost", intLit(uint64(site)), a, why)})
			continue
		}
		switch classOf(t) {
		case scalar, str:
			if sh := f.sh(a); sh != nil {
				*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("Lost", intLit(uint64(site)), sh, why)})
			}
		case slice:
			if sh := f.sh(a); sh != nil {
				*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("Lost", intLit(uint64(site)), sh, why)})
			}
			elem := t.Underlying().(*types.Slice).Elem()
			if c := classOf(elem); c != untracked && (c != aggregate || hasCells(elem)) {
				f.fl.needU = true
				data := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(f.fl.uns), Sel: ast.NewIdent("Pointer")}, Args: []ast.Expr{
					&ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(f.fl.uns), Sel: ast.NewIdent("SliceData")}, Args: []ast.Expr{a}}}}
				size := &ast.BinaryExpr{X: &ast.CallExpr{Fun: f.fl.pre("uintptr"), Args: []ast.Expr{f.lenOf(a)}},
					Op: token.MUL, Y: f.fl.sizeof(&ast.IndexExpr{X: a, Index: intLit(0)})}
				*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("LostElems", intLit(uint64(site)), data, size, why)})
			}
		case aggregate:
			if hasCells(t) && f.addressable(a) {
				f.fl.needU = true
				p := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(f.fl.uns), Sel: ast.NewIdent("Pointer")}, Args: []ast.Expr{&ast.UnaryExpr{Op: token.AND, X: a}}}
				*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("LostElems", intLit(uint64(site)), p, f.fl.sizeof(a), why)})
			}
		}
	}
}

// paramType is the type that argument i of a call of sig is converted to
// (the element type for the variadic part, unless spread).
func paramType(sig *types.Signature, i int, spread bool) types.Type {
	params := sig.Params()
	n := params.Len()
	switch {
	case n == 0:
		return nil
	case sig.Variadic() && i >= n-1 && !spread:
		if s, ok := params.At(n - 1).Type().Underlying().(*types.Slice); ok {
			return s.Elem()
		}
		return nil
	case i < n:
		return params.At(i).Type()
	}
	return nil
}

// methodValue records, before the statement, the concretization of the
// receiver of method value x (not called here) when the method takes its
// receiver by value: the method value keeps a copy that carries no
// shadows. A pointer receiver keeps pointing at memory whose cells stay.
func (f *fn) methodValue(x *ast.SelectorExpr, sel *types.Selection, pre *[]ast.Stmt) {
	m, ok := sel.Obj().(*types.Func)
	if pre == nil || !ok || f.impure(x.X) {
		return
	}
	recv := m.Type().(*types.Signature).Recv()
	if recv == nil || types.IsInterface(recv.Type()) {
		return
	}
	if _, ptr := recv.Type().Underlying().(*types.Pointer); ptr {
		return
	}
	why := &ast.BasicLit{Kind: token.STRING, Value: `"receiver of a method value"`}
	xt := f.typeOf(x.X)
	if xt == nil {
		return
	}
	if p, ok := xt.Underlying().(*types.Pointer); ok {
		if classOf(p.Elem()) == aggregate && hasCells(p.Elem()) {
			f.fl.needU = true
			site := f.fl.site(x.Sel.Pos(), "methodvalue")
			ptr := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(f.fl.uns), Sel: ast.NewIdent("Pointer")}, Args: []ast.Expr{x.X}}
			*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("LostElems", intLit(uint64(site)), ptr,
				f.fl.sizeof(&ast.StarExpr{X: x.X}), why)})
		}
		return
	}
	switch classOf(xt) {
	case scalar, str, slice:
		if sh := f.sh(x.X); sh != nil {
			site := f.fl.site(x.Sel.Pos(), "methodvalue")
			*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("Lost", intLit(uint64(site)), sh, why)})
		}
	case aggregate:
		if hasCells(xt) && f.addressable(x.X) {
			f.fl.needU = true
			site := f.fl.site(x.Sel.Pos(), "methodvalue")
			ptr := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(f.fl.uns), Sel: ast.NewIdent("Pointer")}, Args: []ast.Expr{&ast.UnaryExpr{Op: token.AND, X: x.X}}}
			*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("LostElems", intLit(uint64(site)), ptr, f.fl.sizeof(x.X), why)})
		}
	}
}

// boxed records, before the statement, the concretization of e when it is
// converted to the interface type target: dowse keeps no shadows in
// interface values, so a branch on the boxed value is concrete.
func (f *fn) boxed(e ast.Expr, target types.Type, pre *[]ast.Stmt) {
	if pre == nil || target == nil || !types.IsInterface(target) {
		return
	}
	if _, ok := types.Unalias(target).(*types.TypeParam); ok {
		return // a type argument, not an interface value (a generic model's parameter)
	}
	t := f.typeOf(e)
	if t == nil || types.IsInterface(t) {
		return
	}
	if _, isMap := t.Underlying().(*types.Map); isMap && !f.impure(e) {
		*pre = append(*pre, f.mapLost(e.Pos(), e, "converted to an interface"))
		return
	}
	*pre = append(*pre, f.lostValue(e, t, func() uint32 { return f.fl.site(e.Pos(), "box") }, "converted to an interface")...)
}

// lostValue is the statement that records a concretization (why) at the
// site it asks for when val, of type t, has a shadow, or, for an
// addressable struct or array, cells: where val goes, they are not kept.
// It is empty when val can have none (the site is then not made).
func (f *fn) lostValue(val ast.Expr, t types.Type, site func() uint32, why string) []ast.Stmt {
	w := &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(why)}
	switch classOf(t) {
	case scalar, str, slice:
		if sh := f.sh(val); sh != nil {
			return []ast.Stmt{&ast.ExprStmt{X: f.fl.rtCall("Lost", intLit(uint64(site())), sh, w)}}
		}
	case aggregate:
		if hasCells(t) && f.addressable(val) {
			p := f.fl.unsafePointer(&ast.UnaryExpr{Op: token.AND, X: val})
			return []ast.Stmt{&ast.ExprStmt{X: f.fl.rtCall("LostElems", intLit(uint64(site())), p, f.fl.sizeof(val), w)}}
		}
	}
	return nil
}

// hoistMake moves make([]T, n[, c]) into a temporary whose shadow is the
// shadow of n: the length of a new slice may be symbolic. A negative or
// too large length panics (an implicit branch: n >= 0).
func (f *fn) hoistMake(call *ast.CallExpr, pre *[]ast.Stmt) ast.Expr {
	t := f.typeOf(call)
	if t == nil || classOf(t) != slice || len(call.Args) < 2 {
		return call
	}
	n := call.Args[1]
	nt := f.typeOf(n)
	sh := f.sh(n)
	id := f.newTemp()
	if sh == nil || nt == nil || classOf(nt) != scalar {
		*pre = append(*pre, define(id, call))
		f.temps[id] = temp{t: t}
		return id
	}
	site := f.fl.site(call.Lparen, "make")
	sid := f.newTemp()
	*pre = append(*pre,
		define(sid, f.fl.rtCall("MakeLen", intLit(uint64(site)), f.rtK(nt), sh, f.fl.val(n, nt))), use(sid),
		define(id, call))
	f.temps[id] = temp{t: t, sh: sid}
	return id
}

// models maps standard-library functions to their models in the runtime.

// deleteKey makes delete(m, k) record which entry of m k reaches.
func (f *fn) deleteKey(call *ast.CallExpr, pre *[]ast.Stmt) {
	if len(call.Args) != 2 {
		return
	}
	mt, ok := f.typeOf(call.Args[0]).Underlying().(*types.Map)
	if ok {
		f.untrackedKey(call.Lparen, mt, call.Args[1], pre)
	}
	if ok && f.sameKeyType(mt, call.Args[1]) {
		call.Args[1] = f.mapKeyCall(call.Lparen, call.Args[0], call.Args[1], mt.Key(), false)
	}
}

// clearCells makes clear(s) drop the cells of s's elements, which it
// zeroes: they go first, as nothing runs in between. Before, a cell whose
// value was already zero still matched its fingerprint after the clear,
// and a branch on the element had the old value's condition (a
// divergence: another input took the same branch). A map's table drops
// the entries whose keys are gone when it is next used.
func (f *fn) clearCells(call *ast.CallExpr, pre *[]ast.Stmt) {
	if len(call.Args) != 1 {
		return
	}
	st, ok := f.typeOf(call.Args[0]).Underlying().(*types.Slice)
	if !ok {
		return
	}
	if c := classOf(st.Elem()); c == untracked || c == aggregate && !hasCells(st.Elem()) {
		return
	}
	s := call.Args[0]
	f.fl.needU = true
	data := f.fl.unsafePointer(&ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(f.fl.uns), Sel: ast.NewIdent("SliceData")}, Args: []ast.Expr{s}})
	size := &ast.BinaryExpr{X: &ast.CallExpr{Fun: f.fl.pre("uintptr"), Args: []ast.Expr{f.lenOf(s)}}, Op: token.MUL,
		Y: f.fl.sizeof(&ast.IndexExpr{X: s, Index: intLit(0)})}
	*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("ClearCells", data, size)})
}
