package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// block rewrites a statement list.
func (f *fn) block(list []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for _, s := range list {
		out = append(out, f.stmt(s, nil)...)
	}
	return out
}

func blockOf(list []ast.Stmt) *ast.BlockStmt { return &ast.BlockStmt{List: list} }

// wrap puts a statement's expansion into a block when the function uses
// goto (so that temporaries are never jumped over) and the statement
// declares nothing.
func (f *fn) wrap(out []ast.Stmt, declares bool) []ast.Stmt {
	if f.hasGoto && !declares && len(out) > 1 {
		return []ast.Stmt{blockOf(out)}
	}
	return out
}

// labeled attaches label (if any) to s.
func labeled(label *ast.Ident, s ast.Stmt) ast.Stmt {
	if label == nil {
		return s
	}
	return &ast.LabeledStmt{Label: label, Stmt: s}
}

// stmt rewrites one statement into its expansion.
func (f *fn) stmt(s ast.Stmt, label *ast.Ident) []ast.Stmt {
	if p := s.Pos(); p.IsValid() {
		defer func(outer token.Pos) { f.fl.stmtPos = outer }(f.fl.stmtPos)
		f.fl.stmtPos = p
	}
	switch s := s.(type) {
	case *ast.LabeledStmt:
		return f.stmt(s.Stmt, s.Label)
	case *ast.BlockStmt:
		s.List = f.block(s.List)
		return []ast.Stmt{labeled(label, s)}
	case *ast.ExprStmt:
		var pre []ast.Stmt
		if u, ok := ast.Unparen(s.X).(*ast.UnaryExpr); ok && u.Op == token.ARROW && label == nil {
			// A receive statement: into temporaries (see recv), which
			// the statement keeps used.
			u.X = f.pure(u.X, &pre, true)
			if v, okv, done := f.recv(u, &pre); done {
				return f.wrap(append(pre, use(v, okv)), false)
			}
			return f.wrap(append(pre, s), false)
		}
		s.X = f.topExpr(s.X, &pre, label == nil)
		return f.wrap(append(pre, labeled(label, s)), false)
	case *ast.AssignStmt:
		if label != nil {
			return []ast.Stmt{labeled(label, f.assignNoHoist(s))}
		}
		return f.assign(s)
	case *ast.IncDecStmt:
		op := token.ADD_ASSIGN
		if s.Tok == token.DEC {
			op = token.SUB_ASSIGN
		}
		one := &ast.BasicLit{Kind: token.INT, Value: "1"}
		f.types[one] = f.typeOf(s.X)
		as := &ast.AssignStmt{Lhs: []ast.Expr{s.X}, Tok: op, Rhs: []ast.Expr{one}, TokPos: s.TokPos}
		if label != nil {
			return []ast.Stmt{labeled(label, s)}
		}
		out := f.assign(as)
		// Keep the original statement form.
		for i, o := range out {
			if o == as {
				out[i] = s
			}
		}
		return out
	case *ast.DeclStmt:
		return f.declStmt(s, label)
	case *ast.ReturnStmt:
		return f.returnStmt(s, label)
	case *ast.IfStmt:
		return f.ifStmt(s, label)
	case *ast.ForStmt:
		return f.forStmt(s, label)
	case *ast.RangeStmt:
		return f.rangeStmt(s, label)
	case *ast.SwitchStmt:
		return f.switchStmt(s, label)
	case *ast.TypeSwitchStmt:
		return f.typeSwitchStmt(s, label)
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			cc.Body = f.block(cc.Body)
		}
		return []ast.Stmt{labeled(label, s)}
	case *ast.GoStmt:
		var pre []ast.Stmt
		f.pureArgs(s.Call, &pre, label == nil)
		pre = append(pre, &ast.ExprStmt{X: f.fl.rtCall("Go")}, labeled(label, s))
		return f.wrap(pre, false)
	case *ast.DeferStmt:
		var pre []ast.Stmt
		if _, ok := s.Call.Fun.(*ast.FuncLit); ok {
			// The literal may set named results after rt.Ret.
			late := map[types.Object]bool{}
			for o := range f.deferredResults {
				late[o] = true
			}
			for _, r := range f.results {
				if r != nil && classOf(r.Type()) != untracked {
					late[r] = true
				}
			}
			if len(late) > 0 {
				f.fl.deferring = late
			}
		}
		f.pureArgs(s.Call, &pre, label == nil)
		f.fl.deferring = nil
		if f.builtin(s.Call.Fun) == "recover" {
			s.Call = f.fl.rtCall("Recovered", s.Call)
		}
		return f.wrap(append(pre, labeled(label, s)), false)
	case *ast.SendStmt:
		var pre []ast.Stmt
		s.Chan = f.pure(s.Chan, &pre, label == nil)
		s.Value = f.pure(s.Value, &pre, label == nil)
		if ct, ok := f.typeOf(s.Chan).Underlying().(*types.Chan); ok && label == nil {
			f.boxed(s.Value, ct.Elem(), &pre)
			pre = append(pre, f.sentLost(s, ct.Elem())...)
		}
		return f.wrap(append(pre, labeled(label, s)), false)
	}
	return []ast.Stmt{labeled(label, s)}
}

// sentLost records a concretization when the value a send statement puts
// on a channel has a shadow, or cells (rt.Sent, rt.SentElems): the
// receiver gets it without them (only the elements of input channels are
// followed, docs/inputs.md), so a branch on what was received has no
// condition and the verdict must not claim every path.
func (f *fn) sentLost(s *ast.SendStmt, elem types.Type) []ast.Stmt {
	site := f.fl.site(s.Arrow, "send")
	switch classOf(elem) {
	case scalar, str, slice:
		if sh := f.sh(s.Value); sh != nil {
			return []ast.Stmt{&ast.ExprStmt{X: f.fl.rtCall("Sent", intLit(uint64(site)), s.Chan, sh)}}
		}
	case aggregate:
		if hasCells(elem) && f.addressable(s.Value) {
			p := f.fl.unsafePointer(&ast.UnaryExpr{Op: token.AND, X: s.Value})
			return []ast.Stmt{&ast.ExprStmt{X: f.fl.rtCall("SentElems", intLit(uint64(site)), s.Chan, p, f.fl.sizeof(s.Value))}}
		}
	}
	return nil
}

// topExpr rewrites the expression of an expression statement: a call stays
// in place with its arguments' shadows announced.
func (f *fn) topExpr(e ast.Expr, pre *[]ast.Stmt, hoist bool) ast.Expr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		u.X = f.pure(u.X, pre, hoist) // a receive statement stays in place
		return e
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || f.isType(call.Fun) {
		return f.pure(e, pre, hoist)
	}
	if b := f.builtin(call.Fun); b != "" {
		f.pureArgs(call, pre, hoist)
		if b == "copy" && hoist {
			f.copyShadows(call, pre)
		}
		if b == "clear" && hoist {
			f.clearCells(call, pre)
		}
		if b == "delete" {
			f.deleteKey(call, hoisting(pre, hoist))
		}
		if b == "recover" {
			return f.fl.rtCall("Recovered", call)
		}
		return call
	}
	f.pureArgs(call, pre, hoist)
	f.special(call)
	if hoist {
		f.announce(call, pre)
	}
	return call
}

// copyShadows makes copy(dst, src) move element shadows too: the shadows
// are moved before the copy, which moves the values.
func (f *fn) copyShadows(call *ast.CallExpr, pre *[]ast.Stmt) {
	if len(call.Args) != 2 || classOf(f.typeOf(call.Args[1])) != slice {
		return
	}
	dst, src := call.Args[0], call.Args[1]
	st, ok := f.typeOf(dst).Underlying().(*types.Slice)
	if !ok || classOf(st.Elem()) == untracked {
		return
	}
	n := f.fl.rtCall("MinInt", f.lenOf(dst), f.lenOf(src))
	first := func(x ast.Expr) ast.Expr { return &ast.IndexExpr{X: x, Index: intLit(0)} }
	if ds, ss := f.sh(dst), f.sh(src); ds != nil || ss != nil {
		// Which elements of dst get src's depends on the lengths.
		site := f.fl.site(call.Lparen, "copy")
		u64 := func(x ast.Expr) ast.Expr { return &ast.CallExpr{Fun: f.fl.pre("uint64"), Args: []ast.Expr{f.lenOf(x)}} }
		*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("CopyCount", intLit(uint64(site)), orZero(ds), u64(dst), orZero(ss), u64(src))})
	}
	*pre = append(*pre, &ast.IfStmt{
		Cond: &ast.BinaryExpr{X: n, Op: token.GTR, Y: intLit(0)},
		Body: blockOf([]ast.Stmt{&ast.ExprStmt{X: f.fl.rtCall("CopyElems", f.fl.addr(first(dst)), f.fl.addr(first(src)), n, f.fl.sizeof(first(dst)))}}),
	})
}

// lhsTarget is where an assignment stores.
type lhsTarget struct {
	expr    ast.Expr
	obj     types.Object // a local variable with a companion (or to get one)
	newVar  bool         // declared by this statement
	addrTmp ast.Expr     // address temporary for a memory location
	cls     class
	blank   bool
	mapElem bool
	// For a map element: temporaries holding the map, the key and the
	// key's shadow, evaluated before the assignment (rt.MapSt after it).
	mapX, mapK, mapKS ast.Expr
	mapKT             bool // mapKS is the rt.KS of a composite key
}

func (f *fn) target(e ast.Expr, isDefine bool, pre *[]ast.Stmt, hoist bool) lhsTarget {
	t := lhsTarget{expr: e}
	if id, ok := e.(*ast.Ident); ok {
		if id.Name == "_" {
			t.blank = true
			return t
		}
		obj := f.fl.info.ObjectOf(id)
		if obj == nil {
			return t
		}
		t.cls = classOf(obj.Type())
		if isDefine && f.fl.info.Defs[id] != nil {
			t.newVar = true
		}
		if v, ok := obj.(*types.Var); ok && v.Parent() != f.fl.pkg.Types.Scope() {
			t.obj = obj
			return t
		}
		// Package-level variable: memory.
	}
	lt := f.typeOf(e)
	t.cls = classOf(lt)
	if ix, ok := e.(*ast.IndexExpr); ok {
		if xt := f.typeOf(ix.X); xt != nil {
			if mt, isMap := xt.Underlying().(*types.Map); isMap {
				t.mapElem = true
				key := ix.Index
				if orig, ok := f.mapKeys[ix]; ok {
					key = orig
				}
				if pre != nil && f.sameKeyType(mt, key) {
					var ks ast.Expr
					switch classOf(mt.Key()) {
					case scalar, str:
						ks = &ast.CallExpr{Fun: f.fl.rtSel("S"), Args: []ast.Expr{orZero(f.sh(key))}}
					default:
						if compositeKey(mt.Key()) {
							ks = &ast.CallExpr{Fun: f.fl.rtSel("KS"), Args: []ast.Expr{f.keyShadow(key, mt.Key())}}
							t.mapKT = true
						}
					}
					if ks == nil {
						ks = &ast.CallExpr{Fun: f.fl.rtSel("S"), Args: []ast.Expr{zeroS()}}
					}
					t.mapX, t.mapK, t.mapKS = f.newTemp(), key, f.newTemp()
					*pre = append(*pre, define(t.mapX, ix.X),
						define(t.mapKS, ks),
						use(t.mapX, t.mapKS))
					if f.fl.constOf(key) == nil {
						// A constant keeps its key type where it is used.
						t.mapK = f.newTemp()
						*pre = append(*pre, define(t.mapK, key), use(t.mapK))
					}
				}
				return t
			}
			// A store through a symbolic index: where it lands depends on
			// the index, which dowse does not model for memory. The run
			// records the concretization (and the bounds check).
			if pre != nil && f.fl.constOf(ix.Index) == nil {
				if si := f.sh(ix.Index); si != nil {
					it := f.typeOf(ix.Index)
					var n ast.Expr = intLit(0)
					if _, ok := xt.Underlying().(*types.Slice); ok {
						n = orZero(f.sh(ix.X))
					}
					site := f.fl.site(ix.Lbrack, "store")
					*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("StoreIndex", intLit(uint64(site)), f.rtK(it), si, f.fl.val(ix.Index, it),
						n, &ast.CallExpr{Fun: f.fl.pre("uint64"), Args: []ast.Expr{f.lenOf(ix.X)}})})
				}
			}
		}
	}
	if hoist && t.cls != untracked && f.addressable(e) {
		tmp := f.newTemp()
		*pre = append(*pre, define(tmp, f.fl.addr(e)), use(tmp))
		t.addrTmp = tmp
	}
	return t
}

// setShadow is the statement that gives target t the shadow sh (an rt.Sh
// expression; nil clears it) after the assignment.
func (f *fn) setShadow(t lhsTarget, sh ast.Expr, aggSrc ast.Expr) []ast.Stmt {
	if t.blank {
		return nil
	}
	if t.mapElem {
		var out []ast.Stmt
		if t.cls == aggregate && aggSrc != nil {
			// The table keeps shadows of integers, bools and strings only:
			// the cells of an aggregate stored in a map are lost.
			f.fl.needU = true
			site := f.fl.site(t.expr.Pos(), "map")
			p := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(f.fl.uns), Sel: ast.NewIdent("Pointer")}, Args: []ast.Expr{aggSrc}}
			out = append(out, &ast.ExprStmt{X: f.fl.rtCall("LostElems", intLit(uint64(site)), p, f.fl.sizeof(t.expr),
				&ast.BasicLit{Kind: token.STRING, Value: `"stored in a map"`})})
		}
		if t.cls != scalar && t.cls != str {
			sh = nil
		}
		return append(out, f.mapStore(t, sh)...)
	}
	switch t.cls {
	case scalar, str, slice:
		if sh == nil {
			sh = f.fl.lit("Sh")
		}
		if t.obj != nil {
			var out []ast.Stmt
			if t.newVar {
				c := f.companion(t.obj)
				out = []ast.Stmt{define(ast.NewIdent(c), sh), use(ast.NewIdent(c))}
			} else if c, ok := f.comp[t.obj]; ok {
				out = []ast.Stmt{assign(ast.NewIdent(c), sh)}
			}
			if f.inMem[t.obj] && out != nil {
				// Its shadow lives in memory too (see addressTaken).
				c := ast.NewIdent(f.comp[t.obj])
				if t.newVar {
					out = append(out, f.fl.escape(t.expr))
				}
				out = append(out, &ast.ExprStmt{X: f.fl.rtCall("StSh", f.fl.addr(t.expr), c)})
			}
			return out
		}
		if t.addrTmp != nil {
			return []ast.Stmt{&ast.ExprStmt{X: f.fl.rtCall("StSh", t.addrTmp, sh)}}
		}
		if !t.mapElem && t.cls != untracked && f.addressable(t.expr) {
			return []ast.Stmt{&ast.ExprStmt{X: f.fl.rtCall("StSh", f.fl.addr(t.expr), sh)}}
		}
	case aggregate:
		var out []ast.Stmt
		if t.newVar && t.obj != nil && hasCells(t.obj.Type()) {
			out = append(out, f.fl.escape(t.expr))
		}
		var dst ast.Expr = t.addrTmp
		if dst == nil && t.obj != nil {
			dst = f.fl.addr(t.expr)
		}
		if dst == nil || aggSrc == nil {
			return out
		}
		return append(out, &ast.ExprStmt{X: f.fl.rtCall("Copy", dst, aggSrc, f.fl.sizeof(t.expr))})
	}
	return nil
}

// assign rewrites =, := and op= statements.
func (f *fn) assign(s *ast.AssignStmt) []ast.Stmt {
	var pre, post []ast.Stmt
	def := s.Tok == token.DEFINE
	declares := def
	// Index operands on the left are evaluated before the right-hand side
	// (lexical order of calls).
	if !def {
		for i, l := range s.Lhs {
			s.Lhs[i] = f.pureLHS(l, &pre)
		}
	}
	if u, ok := ast.Unparen(s.Rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW && len(s.Lhs) == 2 && len(s.Rhs) == 1 {
		// v, ok := <-ch: the receive into temporaries with their shadows
		// (see recv), then a parallel assignment of those.
		u.X = f.pure(u.X, &pre, true)
		if v, okv, done := f.recv(u, &pre); done {
			s.Rhs = []ast.Expr{v, okv}
		}
	}
	switch {
	case s.Tok != token.ASSIGN && s.Tok != token.DEFINE:
		// x op= y
		s.Rhs[0] = f.pure(s.Rhs[0], &pre, true)
		s.Lhs[0] = f.pureLHS(s.Lhs[0], &pre)
		t := f.target(s.Lhs[0], false, &pre, true)
		if t.cls == scalar || t.cls == str {
			bin := &ast.BinaryExpr{X: s.Lhs[0], Op: opOf(s.Tok), Y: s.Rhs[0], OpPos: s.TokPos}
			f.types[bin] = f.typeOf(s.Lhs[0])
			if sh := f.shBinary(bin, f.typeOf(s.Lhs[0])); sh != nil {
				id := f.newTemp()
				pre = append(pre, define(id, sh), use(id))
				post = f.setShadow(t, f.fl.rtCall("Mk", id, f.fl.fp(s.Lhs[0], f.typeOf(s.Lhs[0]))), nil)
			} else {
				post = f.setShadow(t, nil, nil)
			}
		}
	case len(s.Lhs) > 1 && len(s.Rhs) == 1:
		// a, b := f() / v, ok := m[k] / x.(T) / <-ch
		var id uint32
		announced := false
		if f.isCall(s.Rhs[0]) {
			call := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
			f.pureArgs(call, &pre, true)
			f.special(call)
			id, announced = f.announce(call, &pre)
		} else {
			s.Rhs[0] = f.pureOperands(s.Rhs[0], &pre)
		}
		// v, ok := m[k]: the value's shadow from the map's table, taken
		// before the assignment (which may change m or k).
		var mapValue ast.Expr
		if ix, ok := ast.Unparen(s.Rhs[0]).(*ast.IndexExpr); ok {
			if mt, isMap := f.typeOf(ix.X).Underlying().(*types.Map); isMap && (f.mapKeys[ix] != nil || f.sameKeyType(mt, ix.Index)) {
				mapValue = f.newTemp()
				pre = append(pre, define(mapValue, f.mapValue(ix)), use(mapValue))
			}
		}
		var targets []lhsTarget
		isCall := f.isCall(s.Rhs[0])
		for i, l := range s.Lhs {
			s.Lhs[i] = f.pureLHS(l, &pre)
			targets = append(targets, f.target(s.Lhs[i], def, &pre, !isCall))
		}
		for i, t := range targets {
			if announced && t.cls == aggregate && !t.blank {
				// a, err := f() with a struct or array a: its cells are
				// the result's (they once stayed empty here, and a branch
				// on a field had no condition).
				post = append(post, f.aggResult(t, id, i)...)
				continue
			}
			var sh ast.Expr
			if announced && (t.cls == scalar || t.cls == str || t.cls == slice) {
				fp := f.fl.fp(t.expr, f.typeOf(t.expr))
				sh = f.fl.rtCall("Mk", f.fl.rtCall("Res", intLit(uint64(id)), intLit(uint64(i)), fp), fp)
			}
			if i == 0 && mapValue != nil {
				sh = mapValue
			}
			post = append(post, f.setShadow(t, sh, nil)...)
			if i == 0 {
				post = append(post, f.unbox(t, s.Rhs[0])...)
			}
		}
	default:
		// A call whose result is boxed into an interface target is
		// hoisted first, so that the boxing sees the result's shadow.
		single := len(s.Rhs) == 1 && f.isCall(s.Rhs[0]) && !f.boxes(s.Lhs[0], s.Rhs[0])
		var id uint32
		announced := false
		if single {
			call := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
			f.pureArgs(call, &pre, true)
			f.special(call)
			id, announced = f.announce(call, &pre)
		} else {
			for i, r := range s.Rhs {
				s.Rhs[i] = f.pure(r, &pre, true)
				if i < len(s.Lhs) && !f.keepsBoxed(s, i) {
					// x = v, and var x I = v (a declaration comes here as
					// a definition; for x := v the types are the same).
					f.boxed(s.Rhs[i], f.typeOf(s.Lhs[i]), &pre)
				}
			}
		}
		// Shadows of the right-hand sides, before the assignment.
		shs := make([]ast.Expr, len(s.Rhs))
		aggs := make([]ast.Expr, len(s.Rhs))
		if !single {
			for i, r := range s.Rhs {
				es, ok := f.elemStore(r, &pre)
				if ok {
					shs[i], aggs[i] = es.sh, es.agg
				}
			}
		}
		var targets []lhsTarget
		for i, l := range s.Lhs {
			s.Lhs[i] = f.pureLHS(l, &pre)
			// After a call, the target's address is taken after the
			// assignment: taking it before could panic before the call.
			targets = append(targets, f.target(s.Lhs[i], def, &pre, !single))
		}
		for i, t := range targets {
			sh, agg := shs[i], aggs[i]
			if single && announced {
				rt := f.typeOf(t.expr)
				switch t.cls {
				case scalar, str, slice:
					fp := f.fl.fp(t.expr, rt)
					sh = f.fl.rtCall("Mk", f.fl.rtCall("Res", intLit(uint64(id)), intLit(0), fp), fp)
				case aggregate:
					post = append(post, f.aggResult(t, id, 0)...)
					continue
				}
			}
			post = append(post, f.setShadow(t, sh, agg)...)
			if !single {
				post = append(post, f.unbox(t, s.Rhs[i])...)
				if f.keepsBoxed(s, i) {
					post = append(post, f.box(s.Lhs[i], s.Rhs[i]))
				}
			}
		}
	}
	post = append(post, f.resultsSetLate(s.Lhs)...)
	out := append(pre, s)
	out = append(out, post...)
	return f.wrap(out, declares)
}

// keepsBoxed reports whether assignment s, of one value, converts an
// addressable struct or array with cells to the interface of its target,
// which can be read again after the assignment: the copy the interface
// holds then gets the value's cells (box) instead of losing them.
func (f *fn) keepsBoxed(s *ast.AssignStmt, i int) bool {
	if len(s.Lhs) != 1 || i != 0 || !f.boxes(s.Lhs[0], s.Rhs[0]) {
		return false
	}
	t := f.typeOf(s.Rhs[0])
	if _, ok := types.Unalias(f.typeOf(s.Lhs[0])).(*types.TypeParam); ok || t == nil || classOf(t) != aggregate || !hasCells(t) {
		return false
	}
	if id, ok := s.Lhs[0].(*ast.Ident); ok && id.Name == "_" {
		return false
	}
	return f.addressable(s.Rhs[0]) && f.addressable(s.Lhs[0])
}

// box is rt.Box(site, l, &r, why): after l = r, the copy of r that the
// interface l holds gets r's cells.
func (f *fn) box(l, r ast.Expr) ast.Stmt {
	site := f.fl.site(r.Pos(), "box")
	return &ast.ExprStmt{X: f.fl.rtCall("Box", intLit(uint64(site)), l, &ast.UnaryExpr{Op: token.AND, X: r},
		&ast.BasicLit{Kind: token.STRING, Value: strconv.Quote("converted to an interface")})}
}

// unbox is, after target t was assigned the type assertion r (x.(T),
// with T a struct or array type with cells), rt.Unbox(&t, x): t gets the
// cells of the copy x holds.
func (f *fn) unbox(t lhsTarget, r ast.Expr) []ast.Stmt {
	ta, ok := ast.Unparen(r).(*ast.TypeAssertExpr)
	if !ok || ta.Type == nil || t.blank || t.cls != aggregate || !hasCells(f.typeOf(t.expr)) || !f.addressable(t.expr) || !f.addressable(ta.X) {
		return nil
	}
	return []ast.Stmt{&ast.ExprStmt{X: f.fl.rtCall("Unbox", &ast.UnaryExpr{Op: token.AND, X: t.expr}, ta.X)}}
}

// boxes reports whether assigning r to l converts a value that is not an
// interface to an interface.
func (f *fn) boxes(l, r ast.Expr) bool {
	lt, rt := f.typeOf(l), f.typeOf(r)
	if id, ok := l.(*ast.Ident); ok {
		if obj := f.fl.info.ObjectOf(id); obj != nil {
			lt = obj.Type()
		}
	}
	return lt != nil && rt != nil && types.IsInterface(lt) && !types.IsInterface(rt)
}

// aggResult copies the cells of aggregate result i of the call id, which
// just returned, to the assignment's target t: the target's address is
// taken after the assignment, and a new variable that holds cells moves
// to the heap first. A map element has no address: the cells are lost,
// with a concretization when the result had any (the table keeps no
// shadow of an aggregate).
func (f *fn) aggResult(t lhsTarget, id uint32, i int) []ast.Stmt {
	if t.mapElem {
		site := f.fl.site(t.expr.Pos(), "map")
		out := []ast.Stmt{&ast.ExprStmt{X: f.fl.rtCall("ResAggLost", intLit(uint64(id)), intLit(uint64(i)), f.fl.sizeof(t.expr), intLit(uint64(site)))}}
		return append(out, f.mapStore(t, nil)...)
	}
	var out []ast.Stmt
	var dst ast.Expr = t.addrTmp
	if dst == nil {
		if t.newVar && t.obj != nil && hasCells(t.obj.Type()) {
			out = append(out, f.fl.escape(t.expr))
		}
		dst = f.fl.addr(t.expr)
	}
	return append(out, &ast.ExprStmt{X: f.fl.rtCall("ResAgg", intLit(uint64(id)), intLit(uint64(i)), dst, f.fl.sizeof(t.expr))})
}

// assignNoHoist handles a labeled assignment: no temporaries, shadows
// cleared.
func (f *fn) assignNoHoist(s *ast.AssignStmt) ast.Stmt {
	for i, r := range s.Rhs {
		s.Rhs[i] = f.pure(r, nil, false)
	}
	return s
}

// pureOperands makes the operands of a comma-ok expression pure.
func (f *fn) pureOperands(e ast.Expr, pre *[]ast.Stmt) ast.Expr {
	switch x := ast.Unparen(e).(type) {
	case *ast.IndexExpr:
		x.X = f.pure(x.X, pre, true)
		x.Index = f.pure(x.Index, pre, true)
		f.mapKey(x, false, pre)
	case *ast.TypeAssertExpr:
		x.X = f.pure(x.X, pre, true)
	case *ast.UnaryExpr:
		x.X = f.pure(x.X, pre, true)
	}
	return e
}

// pureLHS makes the operands of an assignment target pure.
func (f *fn) pureLHS(e ast.Expr, pre *[]ast.Stmt) ast.Expr {
	switch x := e.(type) {
	case *ast.IndexExpr:
		x.X = f.pureLHS(x.X, pre)
		x.Index = f.pure(x.Index, pre, true)
		f.pickIndex(x, true)
		f.mapKey(x, true, pre)
	case *ast.SelectorExpr:
		if _, ok := f.fl.info.Selections[x]; ok {
			x.X = f.pureLHS(x.X, pre)
		}
	case *ast.StarExpr:
		x.X = f.pure(x.X, pre, true)
	case *ast.ParenExpr:
		x.X = f.pureLHS(x.X, pre)
	}
	return e
}

func opOf(tok token.Token) token.Token {
	switch tok {
	case token.ADD_ASSIGN:
		return token.ADD
	case token.SUB_ASSIGN:
		return token.SUB
	case token.MUL_ASSIGN:
		return token.MUL
	case token.QUO_ASSIGN:
		return token.QUO
	case token.REM_ASSIGN:
		return token.REM
	case token.AND_ASSIGN:
		return token.AND
	case token.OR_ASSIGN:
		return token.OR
	case token.XOR_ASSIGN:
		return token.XOR
	case token.SHL_ASSIGN:
		return token.SHL
	case token.SHR_ASSIGN:
		return token.SHR
	case token.AND_NOT_ASSIGN:
		return token.AND_NOT
	}
	return token.ILLEGAL
}

func (f *fn) declStmt(s *ast.DeclStmt, label *ast.Ident) []ast.Stmt {
	g, ok := s.Decl.(*ast.GenDecl)
	if !ok || g.Tok != token.VAR {
		return []ast.Stmt{labeled(label, s)}
	}
	if len(g.Specs) > 1 && label == nil {
		// var ( a = x; b = f(a) ): one declaration after the other, so
		// that the second's hoisted calls see the first.
		var out []ast.Stmt
		for _, spec := range g.Specs {
			one := &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: g.TokPos, Specs: []ast.Spec{spec}}}
			out = append(out, f.declStmt(one, nil)...)
		}
		return out
	}
	var pre, post []ast.Stmt
	for _, spec := range g.Specs {
		vs := spec.(*ast.ValueSpec)
		if len(vs.Values) == 0 {
			for _, n := range vs.Names {
				obj := f.fl.info.Defs[n]
				if obj == nil || n.Name == "_" {
					continue
				}
				if c := classOf(obj.Type()); c == scalar || c == str || c == slice {
					cn := f.companion(obj)
					post = append(post, varDecl(cn, f.fl.rtSel("Sh")), use(ast.NewIdent(cn)))
				} else if c == aggregate && hasCells(obj.Type()) {
					post = append(post, f.fl.escape(ast.NewIdent(n.Name)))
				}
			}
			continue
		}
		// var a, b = x, y: rewrite as an assignment-shaped expansion.
		lhs := make([]ast.Expr, len(vs.Names))
		for i, n := range vs.Names {
			lhs[i] = n
		}
		as := &ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: vs.Values}
		exp := f.assign(as)
		for _, st := range exp {
			if st == as {
				continue
			}
			if isBefore(exp, st, as) {
				pre = append(pre, st)
			} else {
				post = append(post, st)
			}
		}
		vs.Values = as.Rhs
	}
	out := append(pre, labeled(label, s))
	return append(out, post...)
}

func isBefore(list []ast.Stmt, a, b ast.Stmt) bool {
	for _, s := range list {
		if s == a {
			return true
		}
		if s == b {
			return false
		}
	}
	return false
}

func (f *fn) returnStmt(s *ast.ReturnStmt, label *ast.Ident) []ast.Stmt {
	var pre []ast.Stmt
	hoist := label == nil
	res := f.sig.Results()
	if len(s.Results) == 1 && res.Len() > 1 && f.isCall(s.Results[0]) && hoist {
		call := ast.Unparen(s.Results[0]).(*ast.CallExpr)
		f.pureArgs(call, &pre, true)
		f.special(call)
		tup, _ := f.typeOf(call).(*types.Tuple)
		if tup != nil {
			s.Results = f.hoistMulti(call, tup, &pre)
		}
	} else {
		for i, r := range s.Results {
			s.Results[i] = f.pure(r, &pre, hoist)
			if hoist && len(s.Results) == res.Len() {
				f.boxed(s.Results[i], res.At(i).Type(), &pre)
			}
		}
	}
	if res.Len() > 0 && hoist {
		var args []ast.Expr
		tracked := false
		for i := 0; i < res.Len(); i++ {
			rt := res.At(i).Type()
			var e ast.Expr
			if len(s.Results) == res.Len() {
				e = s.Results[i]
			} else if i < len(f.results) && f.results[i] != nil {
				if c, ok := f.comp[f.results[i]]; ok {
					args = append(args, f.fl.rtCall("ArgOf", ast.NewIdent(c)))
					tracked = true
					continue
				}
				if classOf(rt) == aggregate && f.results[i].Name() != "_" {
					e = ast.NewIdent(f.results[i].Name())
					f.temps[e] = temp{t: rt}
				}
			}
			if e == nil {
				args = append(args, f.fl.lit("Arg"))
				continue
			}
			a := f.argOf(e, rt)
			if pe, ok := a.(*ast.ParenExpr); !ok || len(pe.X.(*ast.CompositeLit).Elts) > 0 {
				tracked = true
			}
			args = append(args, a)
		}
		if tracked {
			pre = append(pre, &ast.ExprStmt{X: f.fl.rtCall("Ret", append([]ast.Expr{intLit(uint64(f.id))}, args...)...)})
		}
	}
	return f.wrap(append(pre, labeled(label, s)), false)
}

// mapStore is the statement that records, after an assignment to the map
// element of t, the shadows of its key and of the value (sh, an rt.Sh
// expression, nil for a concrete value).
func (f *fn) mapStore(t lhsTarget, sh ast.Expr) []ast.Stmt {
	if t.mapX == nil {
		return nil
	}
	vs, fp := ast.Expr(intLit(0)), ast.Expr(intLit(0))
	if sh != nil {
		vs = &ast.SelectorExpr{X: sh, Sel: ast.NewIdent("S")}
		fp = &ast.SelectorExpr{X: sh, Sel: ast.NewIdent("F")}
	}
	fn := "MapSt"
	if t.mapKT {
		fn = "MapStT"
	}
	return []ast.Stmt{&ast.ExprStmt{X: f.fl.rtCall(fn, t.mapX, t.mapK, t.mapKS, vs, fp)}}
}
