package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// rangeStmt rewrites range loops over slices, arrays, strings and integers
// into counting loops whose continuation check is a recorded branch; other
// range loops keep their form and only their bodies are instrumented.
func (f *fn) rangeStmt(s *ast.RangeStmt, label *ast.Ident) []ast.Stmt {
	var pre []ast.Stmt
	xt := f.typeOf(s.X)
	if xt == nil {
		s.Body.List = f.block(s.Body.List)
		return []ast.Stmt{labeled(label, s)}
	}
	keep := func() []ast.Stmt {
		s.X = f.pure(s.X, &pre, true)
		if _, isMap := xt.Underlying().(*types.Map); isMap {
			// The iteration (its order, its keys and values) is concrete.
			pre = append(pre, f.mapLost(s.For, s.X, "map ranged over"))
		}
		s.Body.List = f.block(s.Body.List)
		return f.wrap(append(pre, labeled(label, s)), false)
	}
	var kind string
	switch u := xt.Underlying().(type) {
	case *types.Slice:
		kind = "slice"
	case *types.Array:
		kind = "array"
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Array); !ok {
			return keep()
		}
		kind = "ptrarray"
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			kind = "string"
		case u.Info()&types.IsInteger != 0:
			kind = "int"
		default:
			return keep()
		}
	case *types.Map:
		if !tableKey(u.Key()) && !compositeKey(u.Key()) {
			return keep()
		}
		if s.Tok == token.ASSIGN && (!isIdentOrNil(s.Key) || !isIdentOrNil(s.Value)) {
			return keep()
		}
		return f.rangeMap(s, u, label)
	case *types.Chan:
		if s.Tok == token.ASSIGN && !isIdentOrNil(s.Key) {
			return keep()
		}
		return f.rangeChan(s, u, label)
	default:
		return keep()
	}
	site := f.fl.site(s.For, "range")
	x := f.pure(s.X, &pre, true)
	r := f.newTemp()
	pre = append(pre, define(r, x))
	f.temps[r] = temp{t: xt}
	if kind == "array" && f.addressable(x) && hasCells(xt) {
		pre = append(pre, f.fl.escape(r), &ast.ExprStmt{X: f.fl.rtCall("Copy", f.fl.addr(r), f.fl.addr(x), f.fl.sizeof(r))})
	}
	var lenShadow ast.Expr
	switch kind {
	case "slice":
		lenShadow = f.sh(x)
	case "string":
		if s := f.sh(x); s != nil {
			lenShadow = f.fl.rtCall("StrLen", s)
		}
	case "int":
		lenShadow = f.sh(x)
	}
	rs := ast.Expr(zeroS())
	if lenShadow != nil {
		id := f.newTemp()
		pre = append(pre, define(id, lenShadow), use(id))
		rs = id
	}
	f.temps[r] = temp{t: xt, sh: nil}
	if kind == "string" && lenShadow != nil {
		f.temps[r] = temp{t: xt, sh: f.sh(x)}
	}

	if f.shared(s) {
		var zeroV ast.Expr
		switch kind {
		case "slice":
			zeroV = f.fl.rtCall("ElemZero", r)
		case "array":
			zeroV = f.fl.rtCall("ElemZero", &ast.SliceExpr{X: r})
		case "ptrarray":
			a := f.newTemp()
			pre = append(pre, define(a, f.fl.rtCall("PointeeZero", r)))
			zeroV = f.fl.rtCall("ElemZero", &ast.SliceExpr{X: a})
		case "string":
			zeroV = &ast.BasicLit{Kind: token.CHAR, Value: `'\x00'`}
		}
		var vt types.Type = types.Typ[types.Rune]
		if kind != "string" {
			vt = elemOf(xt)
		}
		pre = append(pre, f.sharedVars(s,
			f.zeroTemp(intLit(0), types.Typ[types.Int], &pre),
			f.zeroTemp(zeroV, vt, &pre))...)
	}

	i := f.newTemp()
	var limit ast.Expr = f.lenOf(r)
	var initVal ast.Expr = intLit(0)
	kindK := f.fl.rtSel("KInt")
	if kind == "int" {
		limit = r
		initVal = &ast.BinaryExpr{X: r, Op: token.SUB, Y: r}
		kindK = f.rtK(xt)
	}
	f.temps[i] = temp{t: xt}
	if kind != "int" {
		f.temps[i] = temp{t: types.Typ[types.Int]}
	}
	iv := &ast.CallExpr{Fun: f.fl.pre("uint64"), Args: []ast.Expr{i}}
	lv := &ast.CallExpr{Fun: f.fl.pre("uint64"), Args: []ast.Expr{limit}}
	cond := f.fl.rtCall("Br", intLit(uint64(site)), &ast.BinaryExpr{X: i, Op: token.LSS, Y: limit},
		f.fl.rtCall("Cmp", f.fl.rtSel("OpLt"), kindK, zeroS(), iv, rs, lv))

	var head []ast.Stmt
	var valExpr ast.Expr
	var valSh ast.Expr
	var post ast.Stmt = &ast.IncDecStmt{X: i, Tok: token.INC}
	var initStmt ast.Stmt = define(i, initVal)
	switch kind {
	case "slice", "array", "ptrarray":
		if s.Value != nil {
			ix := &ast.IndexExpr{X: r, Index: i}
			elem := elemOf(xt)
			f.temps[ix] = temp{t: elem}
			if c := classOf(elem); c == scalar || c == str || c == slice {
				f.temps[ix] = temp{t: elem, sh: f.shIndex(ix, elem)}
			}
			valExpr = ix
		}
	case "string":
		f.fl.need8 = true
		w := f.newTemp()
		initStmt = &ast.AssignStmt{Lhs: []ast.Expr{i, w}, Tok: token.DEFINE, Rhs: []ast.Expr{intLit(0), intLit(0)}}
		post = &ast.AssignStmt{Lhs: []ast.Expr{i}, Tok: token.ADD_ASSIGN, Rhs: []ast.Expr{w}}
		c, cw := f.newTemp(), f.newTemp()
		u8 := func(name string) ast.Expr {
			return &ast.SelectorExpr{X: ast.NewIdent(f.fl.utf8), Sel: ast.NewIdent(name)}
		}
		head = append(head,
			&ast.AssignStmt{Lhs: []ast.Expr{c, cw}, Tok: token.DEFINE, Rhs: []ast.Expr{
				&ast.CallExpr{Fun: f.fl.pre("rune"), Args: []ast.Expr{&ast.IndexExpr{X: r, Index: i}}}, intLit(1)}},
			&ast.IfStmt{Cond: &ast.BinaryExpr{X: c, Op: token.GEQ, Y: u8("RuneSelf")}, Body: blockOf([]ast.Stmt{
				&ast.AssignStmt{Lhs: []ast.Expr{c, cw}, Tok: token.ASSIGN, Rhs: []ast.Expr{
					&ast.CallExpr{Fun: u8("DecodeRuneInString"), Args: []ast.Expr{&ast.SliceExpr{X: r, Low: i}}}}}})},
			assign(w, cw),
		)
		if sx := f.temps[r].sh; sx != nil {
			rsite := f.fl.site(s.For, "rune")
			valSh = f.fl.rtCall("RuneAt", intLit(uint64(rsite)), sx, r, i)
		}
		f.temps[c] = temp{t: types.Typ[types.Rune], sh: valSh}
		valExpr = c
	}
	f.temps[r] = temp{t: xt}
	head = append(head, f.iterationVars(s, i, valExpr)...)
	// The original body is a block of its own: it may redeclare the
	// iteration variables (tc := tc).
	body := append(head, blockOf(f.block(s.Body.List)))
	loop := &ast.ForStmt{For: s.For, Init: initStmt, Cond: cond, Post: post, Body: blockOf(body)}
	out := append(pre, labeled(label, loop))
	return []ast.Stmt{blockOf(out)}
}

// elemOf is the element type of a slice, an array or a pointer to an
// array.
func elemOf(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Pointer:
		return u.Elem().Underlying().(*types.Array).Elem()
	}
	return nil
}

// shared reports whether range loop s declares variables that its
// iterations share and can tell apart: a := loop of a file before Go 1.22
// whose body has a function literal or takes an address.
func (f *fn) shared(s *ast.RangeStmt) bool {
	return s.Tok == token.DEFINE && f.fl.sharedLoopVars && f.capturesOrAddresses(s.Body)
}

// zeroTemp defines a temporary of type t holding e (a zero value).
func (f *fn) zeroTemp(e ast.Expr, t types.Type, pre *[]ast.Stmt) ast.Expr {
	id := f.newTemp()
	*pre = append(*pre, define(id, e), use(id))
	f.temps[id] = temp{t: t}
	return id
}

// sharedVars declares the iteration variables of range loop s once, from
// the zero values zeroK and zeroV, and makes the loop assign them: before
// Go 1.22 a range loop's variables are shared by all its iterations, so
// closures created in the loop see the last values, and addresses taken
// are the same in every iteration. The rewritten loop keeps that, and its
// variables keep their shadows (a loop left in its range form lost them
// without a trace: closures collected in it returned concrete values).
func (f *fn) sharedVars(s *ast.RangeStmt, zeroK, zeroV ast.Expr) []ast.Stmt {
	decl := &ast.AssignStmt{Tok: token.DEFINE}
	redo := func(e ast.Expr, zero ast.Expr) ast.Expr {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" {
			return e
		}
		obj := f.fl.info.Defs[id]
		if obj == nil {
			return e
		}
		decl.Lhs = append(decl.Lhs, id)
		decl.Rhs = append(decl.Rhs, zero)
		use := ast.NewIdent(id.Name)
		use.NamePos = id.NamePos
		f.fl.info.Uses[use] = obj
		return use
	}
	if s.Key != nil {
		s.Key = redo(s.Key, zeroK)
	}
	if s.Value != nil {
		s.Value = redo(s.Value, zeroV)
	}
	s.Tok = token.ASSIGN
	if len(decl.Lhs) == 0 {
		return nil
	}
	return f.assign(decl)
}

func isIdentOrNil(e ast.Expr) bool {
	if e == nil {
		return true
	}
	_, ok := e.(*ast.Ident)
	return ok
}

func isBlankList(l []ast.Expr) bool {
	for _, e := range l {
		if id, ok := e.(*ast.Ident); !ok || id.Name != "_" {
			return false
		}
	}
	return true
}

// capturesOrAddresses reports whether body contains a function literal or
// takes an address (explicitly, or by calling a pointer method on an
// addressable value): the ways code can observe whether a variable is
// shared by iterations.
func (f *fn) capturesOrAddresses(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			found = true
		case *ast.UnaryExpr:
			found = n.Op == token.AND
		case *ast.SelectorExpr:
			if sel, ok := f.fl.info.Selections[n]; ok && sel.Kind() == types.MethodVal && !sel.Indirect() {
				if m, ok := sel.Obj().(*types.Func); ok {
					if r := m.Type().(*types.Signature).Recv(); r != nil {
						_, ptr := r.Type().Underlying().(*types.Pointer)
						found = ptr && !types.IsInterface(r.Type())
					}
				}
			}
		}
		return !found
	})
	return found
}

// rangeMap rewrites a range loop over a map with keys of a tracked kind
// into a loop over its keys in a fixed order (rt.MapKeys: the order the
// run stored them, then by value), so that runs with the same path visit
// the entries the same way, and the key and value variables get the
// shadows of the map's table. An entry deleted before the loop reaches
// it is skipped, and the value is read when the loop reaches the entry,
// as range does; entries added during the loop are not visited, which
// range allows.
func (f *fn) rangeMap(s *ast.RangeStmt, mt *types.Map, label *ast.Ident) []ast.Stmt {
	var pre []ast.Stmt
	x := f.pure(s.X, &pre, true)
	r, keys, i, k := f.newTemp(), f.newTemp(), f.newTemp(), f.newTemp()
	pre = append(pre, define(r, x), define(keys, f.fl.rtCall("MapKeys", r)))
	f.temps[r] = temp{t: f.typeOf(s.X)}
	if f.shared(s) {
		zk, zv := f.newTemp(), f.newTemp()
		pre = append(pre, &ast.AssignStmt{Lhs: []ast.Expr{zk, zv}, Tok: token.DEFINE, Rhs: []ast.Expr{f.fl.rtCall("MapZero", r)}}, use(zk, zv))
		f.temps[zk], f.temps[zv] = temp{t: mt.Key()}, temp{t: mt.Elem()}
		pre = append(pre, f.sharedVars(s, zk, zv)...)
	}
	f.temps[keys] = temp{t: types.NewSlice(mt.Key())}
	f.temps[i] = temp{t: types.Typ[types.Int]}
	head := []ast.Stmt{
		define(k, &ast.IndexExpr{X: keys, Index: i}),
		// Deleted since the loop began: not visited.
		&ast.IfStmt{
			Init: &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_"), ast.NewIdent("ok")}, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.IndexExpr{X: r, Index: k}}},
			Cond: &ast.UnaryExpr{Op: token.NOT, X: ast.NewIdent("ok")},
			Body: blockOf([]ast.Stmt{&ast.BranchStmt{Tok: token.CONTINUE}}),
		},
	}
	if compositeKey(mt.Key()) {
		// A struct or array key: its leaves' cells get the table's
		// shadows (none: cleared, the temporary may be reused).
		f.temps[k] = temp{t: mt.Key()}
		if hasCells(mt.Key()) {
			head = append(head, f.fl.escape(k),
				&ast.ExprStmt{X: f.fl.rtCall("KeySt", &ast.UnaryExpr{Op: token.AND, X: k}, f.fl.rtCall("MapKeyKS", r, k))})
		}
	} else {
		f.temps[k] = temp{t: mt.Key(), sh: f.fl.rtCall("MapKeySh", r, k)}
	}
	var valExpr ast.Expr
	if s.Value != nil {
		v := &ast.IndexExpr{X: r, Index: k}
		if f.mapKeys == nil {
			f.mapKeys = map[*ast.IndexExpr]ast.Expr{}
		}
		f.mapKeys[v] = k // the entry is known: no choice to record
		vt := mt.Elem()
		f.temps[v] = temp{t: vt}
		if c := classOf(vt); c == scalar || c == str {
			lookup := &ast.IndexExpr{X: r, Index: k}
			f.temps[v] = temp{t: vt, sh: &ast.CallExpr{
				Fun:  &ast.SelectorExpr{X: f.fl.rtCall("MapLdSh", r, k), Sel: ast.NewIdent("At")},
				Args: []ast.Expr{f.fl.fp(lookup, vt)}}}
		}
		valExpr = v
	}
	head = append(head, f.iterationVars(s, k, valExpr)...)
	body := append(head, blockOf(f.block(s.Body.List)))
	loop := &ast.ForStmt{
		For:  s.For,
		Init: define(i, intLit(0)),
		Cond: &ast.BinaryExpr{X: i, Op: token.LSS, Y: f.lenOf(keys)},
		Post: &ast.IncDecStmt{X: i, Tok: token.INC},
		Body: blockOf(body),
	}
	out := append(pre, labeled(label, loop))
	return []ast.Stmt{blockOf(out)}
}

// rangeChan rewrites a range loop over a channel into a loop of receives,
//
//	for {
//		v, ok := <-c
//		if !rt.Br(site, ok, rt.RecvOk(c, ok)) {
//			break
//		}
//		x := v // the iteration variable, with v's shadow (rt.RecvSh)
//		{ body }
//	}
//
// which does what the range does (a receive per iteration until the
// channel is closed and drained), and records the loop's continuation
// with the shadow of "this receive got an element" for an input channel.
func (f *fn) rangeChan(s *ast.RangeStmt, ct *types.Chan, label *ast.Ident) []ast.Stmt {
	var pre []ast.Stmt
	x := f.pure(s.X, &pre, true)
	c, v, ok := f.newTemp(), f.newTemp(), f.newTemp()
	pre = append(pre, define(c, x))
	f.temps[c] = temp{t: f.typeOf(s.X)}
	if f.shared(s) {
		pre = append(pre, f.sharedVars(s, f.zeroTemp(f.fl.rtCall("RecvZero", c), ct.Elem(), &pre), nil)...)
	}
	site := f.fl.site(s.For, "range")
	head := []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{v, ok}, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.UnaryExpr{Op: token.ARROW, X: c}}},
		&ast.IfStmt{
			Cond: &ast.UnaryExpr{Op: token.NOT, X: f.fl.rtCall("Br", intLit(uint64(site)), ok, f.fl.rtCall("RecvOk", c, ok))},
			Body: blockOf([]ast.Stmt{&ast.BranchStmt{Tok: token.BREAK}}),
		},
	}
	elem := ct.Elem()
	tv := temp{t: elem}
	if cls := classOf(elem); cls == scalar || cls == str || cls == slice {
		tv.sh = f.fl.rtCall("RecvSh", f.fl.fp(v, elem))
	}
	f.temps[v] = tv
	f.temps[ok] = temp{t: types.Typ[types.Bool]}
	if s.Key == nil {
		head = append(head, use(v))
	} else {
		head = append(head, f.iterationVars(s, v, nil)...)
	}
	body := append(head, blockOf(f.block(s.Body.List)))
	loop := &ast.ForStmt{For: s.For, Body: blockOf(body)}
	out := append(pre, labeled(label, loop))
	return []ast.Stmt{blockOf(out)}
}

// iterationVars assigns (or declares) the iteration variables of range
// loop s from key and val (nil: no value) at the start of an iteration,
// with their shadows.
func (f *fn) iterationVars(s *ast.RangeStmt, key, val ast.Expr) []ast.Stmt {
	if s.Key == nil && s.Value == nil {
		return nil
	}
	as := &ast.AssignStmt{Tok: s.Tok}
	if s.Key != nil {
		as.Lhs = append(as.Lhs, s.Key)
		as.Rhs = append(as.Rhs, key)
	}
	if s.Value != nil && val != nil {
		if s.Key == nil {
			as.Lhs = append(as.Lhs, ast.NewIdent("_"))
			as.Rhs = append(as.Rhs, key)
		}
		as.Lhs = append(as.Lhs, s.Value)
		as.Rhs = append(as.Rhs, val)
	}
	if as.Tok == token.ILLEGAL {
		as.Tok = token.DEFINE
	}
	if isBlankList(as.Lhs) {
		as.Tok = token.ASSIGN
	}
	return f.assign(as)
}
