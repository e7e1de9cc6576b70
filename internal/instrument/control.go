package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// initScope rewrites an init statement of if/switch: the result is the
// statements to run first, and whether they must be scoped in a block.
func (f *fn) initStmt(s ast.Stmt) []ast.Stmt {
	if s == nil {
		return nil
	}
	return f.stmt(s, nil)
}

// scoped returns the statements, in a block of their own when the first
// ones declare something (an init statement's scope).
func scoped(init, rest []ast.Stmt) []ast.Stmt {
	if len(init) == 0 {
		return rest
	}
	return []ast.Stmt{blockOf(append(init, rest...))}
}

func (f *fn) ifStmt(s *ast.IfStmt, label *ast.Ident) []ast.Stmt {
	init := f.initStmt(s.Init)
	s.Init = nil
	var pre []ast.Stmt
	hoist := label == nil || len(init) > 0
	if hoist && f.shortCircuitCalls(s.Cond) {
		s.Cond = f.lowerCond(s.Cond, &pre)
	} else {
		s.Cond = f.cond(f.pure(s.Cond, &pre, hoist))
	}
	s.Body.List = f.block(s.Body.List)
	if s.Else != nil {
		els := f.stmt(s.Else, nil)
		if len(els) == 1 {
			switch e := els[0].(type) {
			case *ast.BlockStmt, *ast.IfStmt:
				s.Else = e
			default:
				s.Else = blockOf(els)
			}
		} else {
			s.Else = blockOf(els)
		}
	}
	if len(init) > 0 {
		// Only goto can name the label of an if: it goes on the block that
		// runs the init first, as the original if does (a goto must not
		// jump into that block).
		return []ast.Stmt{labeled(label, scoped(init, append(pre, s))[0])}
	}
	return f.wrap(append(pre, labeled(label, s)), false)
}

func (f *fn) forStmt(s *ast.ForStmt, label *ast.Ident) []ast.Stmt {
	var pre []ast.Stmt
	if s.Init != nil {
		s.Init = f.tupleForm(s.Init, &pre)
	}
	if s.Cond != nil {
		s.Cond = f.cond(f.pure(s.Cond, nil, false))
	}
	if s.Post != nil {
		s.Post = f.tupleForm(s.Post, nil)
	}
	var keep []ast.Expr
	for _, c := range f.initCompanions(s.Init) {
		keep = append(keep, ast.NewIdent(c))
	}
	body := f.block(s.Body.List)
	if len(keep) > 0 {
		body = append([]ast.Stmt{use(keep...)}, body...)
	}
	s.Body.List = body
	return f.wrap(append(pre, labeled(label, s)), false)
}

// initCompanions lists the companions declared by a for loop's init.
func (f *fn) initCompanions(s ast.Stmt) []string {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE {
		return nil
	}
	var out []string
	for _, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok {
			if obj := f.fl.info.Defs[id]; obj != nil {
				if c, ok := f.comp[obj]; ok {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// tupleForm rewrites a simple statement of a for clause so that it sets
// companions in the same statement: "i := 0" becomes "i, i_s := 0, Sh",
// "i++" becomes "i, i_s = i+1, Mk(...)". Calls are hoisted into pre when
// pre is not nil (init), and left in place otherwise (post).
func (f *fn) tupleForm(s ast.Stmt, pre *[]ast.Stmt) ast.Stmt {
	hoist := pre != nil
	switch st := s.(type) {
	case *ast.IncDecStmt:
		id, ok := st.X.(*ast.Ident)
		if !ok {
			return s
		}
		op := token.ADD
		if st.Tok == token.DEC {
			op = token.SUB
		}
		one := &ast.BasicLit{Kind: token.INT, Value: "1"}
		f.types[one] = f.typeOf(id)
		as := &ast.AssignStmt{Lhs: []ast.Expr{id}, Tok: token.ASSIGN, Rhs: []ast.Expr{&ast.BinaryExpr{X: id, Op: op, Y: one}}}
		f.types[as.Rhs[0]] = f.typeOf(id)
		if r := f.tupleAssign(as, false); r != nil {
			return r
		}
		return s
	case *ast.AssignStmt:
		if st.Tok != token.ASSIGN && st.Tok != token.DEFINE {
			id, ok := st.Lhs[0].(*ast.Ident)
			if !ok || len(st.Rhs) != 1 {
				return s
			}
			rhs := f.pure(st.Rhs[0], pre, hoist)
			bin := &ast.BinaryExpr{X: id, Op: opOf(st.Tok), Y: rhs}
			f.types[bin] = f.typeOf(id)
			as := &ast.AssignStmt{Lhs: []ast.Expr{id}, Tok: token.ASSIGN, Rhs: []ast.Expr{bin}}
			if r := f.tupleAssign(as, false); r != nil {
				return r
			}
			st.Rhs[0] = rhs
			return s
		}
		if len(st.Lhs) != len(st.Rhs) {
			// i, n := f(): the call's arguments only.
			if call, ok := ast.Unparen(st.Rhs[0]).(*ast.CallExpr); ok && !f.isType(call.Fun) {
				f.pureArgs(call, pre, hoist)
			} else {
				st.Rhs[0] = f.pureOperands(st.Rhs[0], pre)
				// v, ok := m[k] in a for clause: no companion is set here.
				if ix, ok := ast.Unparen(st.Rhs[0]).(*ast.IndexExpr); ok && pre != nil {
					if mt, isMap := f.typeOf(ix.X).Underlying().(*types.Map); isMap && (f.mapKeys[ix] != nil || f.sameKeyType(mt, ix.Index)) {
						site := f.fl.site(ix.Lbrack, "map")
						*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("Lost", intLit(uint64(site)),
							&ast.SelectorExpr{X: f.mapValue(ix), Sel: ast.NewIdent("S")},
							&ast.BasicLit{Kind: token.STRING, Value: `"map value read in a for clause"`})})
					}
				}
			}
			return s
		}
		for i, r := range st.Rhs {
			st.Rhs[i] = f.pure(r, pre, hoist)
		}
		if r := f.tupleAssign(st, st.Tok == token.DEFINE); r != nil {
			return r
		}
		return s
	case *ast.ExprStmt:
		st.X = f.pure(st.X, pre, hoist)
	}
	return s
}

// tupleAssign extends a := or = of local identifiers with their
// companions, or returns nil when a target is not a local identifier.
func (f *fn) tupleAssign(as *ast.AssignStmt, def bool) ast.Stmt {
	var lhs, rhs []ast.Expr
	for i, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			return nil
		}
		lhs = append(lhs, id)
		rhs = append(rhs, as.Rhs[i])
	}
	for i, l := range as.Lhs {
		id := l.(*ast.Ident)
		if id.Name == "_" {
			continue
		}
		obj := f.fl.info.ObjectOf(id)
		if obj == nil {
			continue
		}
		cls := classOf(obj.Type())
		if cls != scalar && cls != str && cls != slice {
			continue
		}
		var name string
		if def && f.fl.info.Defs[id] != nil {
			name = f.companion(obj)
		} else if c, ok := f.comp[obj]; ok {
			name = c
		} else {
			continue
		}
		r := as.Rhs[i]
		var sh ast.Expr = f.fl.lit("Sh")
		if s := f.sh(r); s != nil {
			sh = f.fl.rtCall("Mk", s, f.fl.fp(r, obj.Type()))
		}
		lhs = append(lhs, ast.NewIdent(name))
		rhs = append(rhs, sh)
	}
	return &ast.AssignStmt{Lhs: lhs, Tok: as.Tok, Rhs: rhs}
}

func (f *fn) switchStmt(s *ast.SwitchStmt, label *ast.Ident) []ast.Stmt {
	init := f.initStmt(s.Init)
	s.Init = nil
	var pre []ast.Stmt
	var tag ast.Expr
	if s.Tag != nil {
		tagExpr := f.pure(s.Tag, &pre, true)
		tt := f.typeOf(tagExpr)
		if f.fl.constOf(tagExpr) == nil && tt != nil {
			id := f.newTemp()
			pre = append(pre, define(id, tagExpr))
			tmp := temp{t: tt}
			if sh := f.sh(tagExpr); sh != nil {
				sid := f.newTemp()
				pre = append(pre, define(sid, sh), use(sid))
				tmp.sh = sid
			}
			f.temps[id] = tmp
			pre = append(pre, use(id))
			tag = id
		} else {
			tag = tagExpr
		}
		s.Tag = nil
	}
	if f.caseCalls(s) {
		// Case expressions with calls: as an if-else chain the calls are
		// hoisted like those of any condition (and announce shadows),
		// evaluated in the same order, only as far as the first match.
		// The chain stands in the default clause of a switch with no
		// tag, so that break still leaves it.
		chain := caseChain(s.Body.List, tag, f.types)
		s.Body = &ast.BlockStmt{Lbrace: s.Body.Lbrace, Rbrace: s.Body.Rbrace, List: []ast.Stmt{
			&ast.CaseClause{Case: s.Body.Lbrace, Colon: s.Body.Lbrace, Body: f.block(chain)},
		}}
		out := append(pre, labeled(label, s))
		if len(init) > 0 {
			return scoped(init, out)
		}
		return f.wrap(out, false)
	}
	for _, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		if len(cc.List) > 0 {
			var cond ast.Expr
			for _, e := range cc.List {
				e = f.pure(e, nil, false)
				var leaf ast.Expr
				if tag != nil {
					cmp := &ast.BinaryExpr{X: tag, Op: token.EQL, Y: e, OpPos: e.Pos()}
					f.types[cmp] = types.Typ[types.Bool]
					site := f.fl.site(e.Pos(), "case")
					leaf = f.fl.rtCall("Br", intLit(uint64(site)), cmp, orZero(f.shBinary(cmp, types.Typ[types.Bool])))
				} else {
					leaf = f.cond(e)
				}
				if cond == nil {
					cond = leaf
				} else {
					cond = &ast.BinaryExpr{X: cond, Op: token.LOR, Y: leaf}
				}
			}
			cc.List = []ast.Expr{cond}
		}
		cc.Body = f.block(cc.Body)
	}
	out := append(pre, labeled(label, s))
	if len(init) > 0 {
		return scoped(init, out)
	}
	return f.wrap(out, false)
}

// caseCalls reports whether a case expression of s has a call that an if
// condition would hoist, and no clause falls through (an if-else chain
// cannot).
func (f *fn) caseCalls(s *ast.SwitchStmt) bool {
	calls := false
	for _, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		if n := len(cc.Body); n > 0 {
			if b, ok := cc.Body[n-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
				return false
			}
		}
		for _, e := range cc.List {
			calls = calls || f.impure(e)
		}
	}
	return calls
}

// caseChain is the if-else chain of the clauses of a switch on tag (nil:
// no tag): "if tag == a || tag == b { ... } else if ... else { default }".
func caseChain(clauses []ast.Stmt, tag ast.Expr, typesOf map[ast.Expr]types.Type) []ast.Stmt {
	var first, last *ast.IfStmt
	var dflt *ast.CaseClause
	for _, c := range clauses {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			dflt = cc
			continue
		}
		var cond ast.Expr
		for _, e := range cc.List {
			leaf := e
			if tag != nil {
				leaf = &ast.BinaryExpr{X: tag, Op: token.EQL, Y: e, OpPos: e.Pos()}
				typesOf[leaf] = types.Typ[types.Bool]
			}
			if cond == nil {
				cond = leaf
			} else {
				or := &ast.BinaryExpr{X: cond, Op: token.LOR, Y: leaf, OpPos: e.Pos()}
				typesOf[or] = types.Typ[types.Bool]
				cond = or
			}
		}
		s := &ast.IfStmt{If: cc.Case, Cond: cond, Body: &ast.BlockStmt{Lbrace: cc.Colon, List: cc.Body}}
		if first == nil {
			first = s
		} else {
			last.Else = s
		}
		last = s
	}
	switch {
	case first == nil && dflt == nil:
		return nil
	case first == nil:
		return []ast.Stmt{&ast.BlockStmt{Lbrace: dflt.Colon, List: dflt.Body}}
	case dflt != nil:
		last.Else = &ast.BlockStmt{Lbrace: dflt.Colon, List: dflt.Body}
	}
	return []ast.Stmt{first}
}

func (f *fn) typeSwitchStmt(s *ast.TypeSwitchStmt, label *ast.Ident) []ast.Stmt {
	init := f.initStmt(s.Init)
	s.Init = nil
	var pre []ast.Stmt
	var bound *ast.Ident // x of switch x := v.(type)
	var subject ast.Expr
	switch a := s.Assign.(type) {
	case *ast.AssignStmt:
		ta := a.Rhs[0].(*ast.TypeAssertExpr)
		ta.X = f.pure(ta.X, &pre, true)
		bound, _ = a.Lhs[0].(*ast.Ident)
		subject = ta.X
	case *ast.ExprStmt:
		ta := a.X.(*ast.TypeAssertExpr)
		ta.X = f.pure(ta.X, &pre, true)
	}
	for _, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		site := f.fl.site(cc.Case, "typeswitch")
		rec := &ast.ExprStmt{X: f.fl.rtCall("Clause", intLit(uint64(site)))}
		head := []ast.Stmt{rec}
		if x, ok := f.fl.info.Implicits[cc].(*types.Var); ok && bound != nil && bound.Name != "_" && f.addressable(subject) &&
			classOf(x.Type()) == aggregate && hasCells(x.Type()) {
			// case T: with a struct or array T, x gets the cells of the
			// copy the interface holds (rt.Box).
			v := ast.NewIdent(bound.Name)
			head = append(head, f.fl.escape(v), &ast.ExprStmt{X: f.fl.rtCall("Unbox", &ast.UnaryExpr{Op: token.AND, X: v}, subject)})
		}
		cc.Body = append(head, f.block(cc.Body)...)
	}
	out := append(pre, labeled(label, s))
	if len(init) > 0 {
		return scoped(init, out)
	}
	return f.wrap(out, false)
}

// shortCircuitCalls reports whether condition e has a call on the right of
// a && or ||, which cannot be hoisted before the condition.
func (f *fn) shortCircuitCalls(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) && f.impure(b.Y) {
			found = true
		}
		return !found
	})
	return found
}

// lowerCond evaluates an if condition with calls on the right of && or ||
// into a temporary, statement by statement, so that those calls can be
// hoisted too (and announce shadows) while keeping the short circuit:
//
//	t := A          // A && B
//	if t { <B's hoisted calls>; t = B }
//
// Every operand is recorded as a branch as usual; the temporary itself is
// not (its value is decided by the operands' branches).
func (f *fn) lowerCond(e ast.Expr, pre *[]ast.Stmt) ast.Expr {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || (b.Op != token.LAND && b.Op != token.LOR) || !f.shortCircuitCalls(b) {
		if n, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && n.Op == token.NOT && f.shortCircuitCalls(n.X) {
			inner := f.lowerCond(n.X, pre)
			return &ast.UnaryExpr{Op: token.NOT, X: inner}
		}
		return f.cond(f.pure(e, pre, true))
	}
	left := f.lowerCond(b.X, pre)
	t := f.newTemp()
	f.temps[t] = temp{t: types.Typ[types.Bool]}
	*pre = append(*pre, define(t, left))
	var inner []ast.Stmt
	right := f.lowerCond(b.Y, &inner)
	inner = append(inner, assign(t, right))
	var test ast.Expr = t
	if b.Op == token.LOR {
		test = &ast.UnaryExpr{Op: token.NOT, X: t}
	}
	*pre = append(*pre, &ast.IfStmt{Cond: test, Body: blockOf(inner)})
	return t
}
