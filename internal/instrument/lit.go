package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// hoistLit moves composite literal lit (or &lit when ptr) into a temporary
// and gives the temporary's elements the shadows of lit's elements.
func (f *fn) hoistLit(e ast.Expr, lit *ast.CompositeLit, ptr bool, pre *[]ast.Stmt) ast.Expr {
	lt := f.typeOf(lit)
	if lt == nil {
		return e
	}
	// Shadows of the elements, computed before the literal is built.
	type store struct {
		elem ast.Expr // element access on the temporary, built later
		sh   ast.Expr // rt.Sh temporary
		agg  ast.Expr // source of an aggregate element
	}
	id := f.newTemp()
	var stores []store
	var walk func(lit *ast.CompositeLit, lt types.Type, base ast.Expr) bool
	walk = func(lit *ast.CompositeLit, lt types.Type, base ast.Expr) bool {
		add := func(acc, val ast.Expr, vt types.Type) {
			f.boxed(val, vt, pre)
			if inner, ok := val.(*ast.CompositeLit); ok && inner.Type == nil {
				if p, ok := vt.Underlying().(*types.Pointer); ok {
					// []*T{{...}}: an elided &T{...}, whose fields are
					// reached through the element.
					walk(inner, p.Elem(), &ast.ParenExpr{X: &ast.StarExpr{X: acc}})
					return
				}
				walk(inner, vt, acc)
				return
			}
			if st, ok := f.elemStore(val, pre); ok {
				stores = append(stores, store{elem: acc, sh: st.sh, agg: st.agg})
			}
		}
		switch u := lt.Underlying().(type) {
		case *types.Struct:
			for i, el := range lit.Elts {
				var field *types.Var
				val := el
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					name := kv.Key.(*ast.Ident).Name
					for j := 0; j < u.NumFields(); j++ {
						if u.Field(j).Name() == name {
							field = u.Field(j)
						}
					}
					val = kv.Value
				} else if i < u.NumFields() {
					field = u.Field(i)
				}
				if field == nil || field.Name() == "_" {
					continue
				}
				add(&ast.SelectorExpr{X: base, Sel: ast.NewIdent(field.Name())}, val, field.Type())
			}
		case *types.Array, *types.Slice:
			var elem types.Type
			if a, ok := u.(*types.Array); ok {
				elem = a.Elem()
			} else {
				elem = u.(*types.Slice).Elem()
			}
			idx := int64(0)
			for _, el := range lit.Elts {
				val := el
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if c := f.fl.constOf(kv.Key); c != nil {
						idx = int64(constBits(c, types.Typ[types.Int]))
					}
					val = kv.Value
				}
				key := &ast.BasicLit{Kind: token.INT, Value: strconv.FormatInt(idx, 10)}
				add(&ast.IndexExpr{X: base, Index: key}, val, elem)
				idx++
			}
		case *types.Map:
			return f.mapLit(lit, u, id, pre)
		default:
			return false
		}
		return true
	}
	if !walk(lit, lt, id) {
		return e
	}
	*pre = append(*pre, define(id, e))
	if ptr {
		f.temps[id] = temp{t: types.NewPointer(lt)}
	} else {
		f.temps[id] = temp{t: lt}
		if classOf(lt) == aggregate && len(stores) > 0 {
			*pre = append(*pre, f.fl.escape(id))
		}
	}
	for _, st := range f.mapEntries[lit] {
		vs, fp := ast.Expr(intLit(0)), ast.Expr(intLit(0))
		if st.vs != nil {
			vs = &ast.SelectorExpr{X: st.vs, Sel: ast.NewIdent("S")}
			fp = &ast.SelectorExpr{X: st.vs, Sel: ast.NewIdent("F")}
		}
		fn, ks := "MapLit", orZero(st.ks)
		if st.composite {
			fn = "MapLitT"
			if st.ks == nil {
				ks = ast.NewIdent("nil")
			}
		}
		*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall(fn, intLit(uint64(st.site)), id, st.key, ks, vs, fp)})
	}
	for _, s := range stores {
		if s.agg != nil {
			*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("Copy", f.fl.addr(s.elem), s.agg, f.fl.sizeof(s.elem))})
		} else {
			*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("StSh", f.fl.addr(s.elem), s.sh)})
		}
	}
	return id
}

type elemShadow struct {
	sh  ast.Expr
	agg ast.Expr
}

// elemStore computes, before a literal is built, what its element val
// stores: an rt.Sh temporary, or the address of an aggregate source.
func (f *fn) elemStore(val ast.Expr, pre *[]ast.Stmt) (elemShadow, bool) {
	t := f.typeOf(val)
	switch classOf(t) {
	case scalar, str, slice:
		s := f.sh(val)
		if s == nil {
			return elemShadow{}, false
		}
		id := f.newTemp()
		*pre = append(*pre, define(id, f.fl.rtCall("Mk", s, f.fl.fp(val, t))), use(id))
		return elemShadow{sh: id}, true
	case aggregate:
		if f.addressable(val) {
			id := f.newTemp()
			*pre = append(*pre, define(id, f.fl.addr(val)), use(id))
			return elemShadow{agg: id}, true
		}
	}
	return elemShadow{}, false
}

// hoistAppend moves append(s, args...) into a temporary and moves the
// shadows of the old elements and of the new ones.
func (f *fn) hoistAppend(call *ast.CallExpr, pre *[]ast.Stmt) ast.Expr {
	t := f.typeOf(call)
	if t == nil || len(call.Args) == 0 {
		return call
	}
	st, ok := t.Underlying().(*types.Slice)
	if !ok {
		return call
	}
	ec := classOf(st.Elem())
	s := call.Args[0]
	n := f.newTemp()
	*pre = append(*pre, define(n, f.lenOf(s)), use(n))
	lenS := f.sh(s)
	var shs []ast.Expr
	var aggs []ast.Expr
	added := ast.Expr(nil)
	if call.Ellipsis == token.NoPos {
		for _, a := range call.Args[1:] {
			f.boxed(a, st.Elem(), pre)
			es, ok := f.elemStore(a, pre)
			if !ok {
				shs = append(shs, nil)
				aggs = append(aggs, nil)
				continue
			}
			shs = append(shs, es.sh)
			aggs = append(aggs, es.agg)
		}
		added = intLit(uint64(len(call.Args) - 1))
	}
	id := f.newTemp()
	*pre = append(*pre, define(id, call))
	f.temps[id] = temp{t: t}
	tracked := ec != untracked
	if tracked {
		// Old elements moved if the backing array changed.
		fl := f.fl
		first := func(x ast.Expr) ast.Expr { return &ast.IndexExpr{X: x, Index: intLit(0)} }
		*pre = append(*pre, &ast.IfStmt{
			Cond: &ast.BinaryExpr{X: &ast.BinaryExpr{X: n, Op: token.GTR, Y: intLit(0)}, Op: token.LAND,
				Y: &ast.BinaryExpr{X: &ast.UnaryExpr{Op: token.AND, X: first(id)}, Op: token.NEQ, Y: &ast.UnaryExpr{Op: token.AND, X: first(s)}}},
			Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: fl.rtCall("CopyElems", fl.addr(first(id)), fl.addr(first(s)), n, fl.sizeof(first(id)))}}},
		})
		for i := range shs {
			at := &ast.IndexExpr{X: id, Index: &ast.BinaryExpr{X: n, Op: token.ADD, Y: intLit(uint64(i))}}
			switch {
			case shs[i] != nil:
				*pre = append(*pre, &ast.ExprStmt{X: fl.rtCall("StSh", fl.addr(at), shs[i])})
			case aggs[i] != nil:
				*pre = append(*pre, &ast.ExprStmt{X: fl.rtCall("Copy", fl.addr(at), aggs[i], fl.sizeof(at))})
			}
		}
		if call.Ellipsis != token.NoPos && len(call.Args) == 2 && classOf(f.typeOf(call.Args[1])) == slice {
			other := call.Args[1]
			*pre = append(*pre, &ast.IfStmt{
				Cond: &ast.BinaryExpr{X: f.lenOf(other), Op: token.GTR, Y: intLit(0)},
				Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: fl.rtCall("CopyElems",
					fl.addr(&ast.IndexExpr{X: id, Index: n}), fl.addr(first(other)),
					f.lenOf(other), fl.sizeof(first(id)))}}},
			})
		}
	}
	// The new length.
	var addS, addV ast.Expr
	if added != nil {
		addS, addV = nil, added
	} else if len(call.Args) == 2 {
		other := call.Args[1]
		switch classOf(f.typeOf(other)) {
		case slice:
			addS = f.sh(other)
		case str:
			if s := f.sh(other); s != nil {
				addS = f.fl.rtCall("StrLen", s)
			}
		}
		addV = &ast.CallExpr{Fun: f.fl.pre("uint64"), Args: []ast.Expr{f.lenOf(other)}}
	}
	if lenS != nil || addS != nil {
		sid := f.newTemp()
		*pre = append(*pre, define(sid, f.fl.rtCall("Bin", f.fl.rtSel("OpAdd"), f.fl.rtSel("KInt"), orZero(lenS),
			&ast.CallExpr{Fun: f.fl.pre("uint64"), Args: []ast.Expr{n}}, orZero(addS), addV)), use(sid))
		f.temps[id] = temp{t: t, sh: sid}
	}
	return id
}

// special rewrites calls that the runtime must see: t.Errorf and friends
// (to capture failure messages), os.Exit and f.Fuzz.
func (f *fn) special(call *ast.CallExpr) {
	fn := f.callee(call)
	if fn == nil {
		// Interface methods: testing.TB.
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return
		}
		s, ok := f.fl.info.Selections[sel]
		if !ok || s.Kind() != types.MethodVal {
			return
		}
		m, _ := s.Obj().(*types.Func)
		if m == nil || m.Pkg() == nil || m.Pkg().Path() != "testing" {
			return
		}
		f.testingMsg(call, m.Name())
		return
	}
	if fn.Pkg() == nil {
		return
	}
	switch {
	case fn.Pkg().Path() == "os" && fn.Name() == "Exit" && len(call.Args) == 1:
		f.fl.replaced.Add(f.fl.ast, f.fl.info, call.Fun) // os may be left without uses
		call.Fun = f.fl.rtSel("Exit")
	case fn.Pkg().Path() == "testing":
		sig := fn.Type().(*types.Signature)
		if sig.Recv() == nil {
			return
		}
		if fn.Name() == "Fuzz" && isNamed(sig.Recv().Type(), "testing", "F") && len(call.Args) == 1 {
			sel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			call.Fun = f.fl.rtSel("Fuzz")
			call.Args = []ast.Expr{sel.X, call.Args[0]}
			return
		}
		if fn.Name() == "Add" && isNamed(sig.Recv().Type(), "testing", "F") {
			// f.Add(args...) -> rt.Add(f, args...): the worker reports the
			// seeds, however they were computed.
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				call.Fun = f.fl.rtSel("Add")
				call.Args = append([]ast.Expr{sel.X}, call.Args...)
			}
			return
		}
		f.testingMsg(call, fn.Name())
	}
}

func (f *fn) testingMsg(call *ast.CallExpr, name string) {
	var helper string
	var method string
	switch name {
	case "Errorf", "Fatalf", "Skipf":
		helper, method = "Msgf", name[:len(name)-1]
	case "Error", "Fatal", "Skip":
		helper, method = "Msg", name
	default:
		return
	}
	if call.Ellipsis != token.NoPos && helper == "Msg" {
		return
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	inner := &ast.CallExpr{Fun: f.fl.rtSel(helper), Args: call.Args, Ellipsis: call.Ellipsis}
	call.Fun = &ast.SelectorExpr{X: sel.X, Sel: ast.NewIdent(method)}
	call.Args = []ast.Expr{inner}
	call.Ellipsis = token.NoPos
}

func isNamed(t types.Type, pkg, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// mapLitEntry is an element of a map literal whose key or value has a
// shadow: the key expression (pure), its shadow, and an rt.Sh temporary of
// the value's shadow.
type mapLitEntry struct {
	site      uint32
	key       ast.Expr
	ks        ast.Expr
	vs        ast.Expr
	composite bool // ks is the rt.KS of a composite key (rt.MapLitT)
}

// mapLit prepares the entries of map literal lit (of map type u, built
// into the temporary id) if some key or value has a shadow: the shadows
// are computed before the literal is built, and the literal's table gets
// every element, in the literal's order, after (hoistLit), so that keys
// are compared with the keys before them. It reports false if no element
// has a shadow.
func (f *fn) mapLit(lit *ast.CompositeLit, u *types.Map, id ast.Expr, pre *[]ast.Stmt) bool {
	type element struct {
		kv     *ast.KeyValueExpr
		ks, vs ast.Expr
	}
	var elems []element
	symbolic := false
	trackedKey := tableKey(u.Key())
	composite := !trackedKey && compositeKey(u.Key())
	// An elided key ({1, 2}) is written again with the key type of the
	// literal's own map type; a literal of a named map type has none to
	// take, and its keys stay untracked.
	var keyType ast.Expr
	if mt, ok := lit.Type.(*ast.MapType); ok {
		keyType = mt.Key
	}
	if composite {
		trackedKey = true
		for _, el := range lit.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				elided := false
				if cl, ok := kv.Key.(*ast.CompositeLit); ok && cl.Type == nil {
					elided = true
				}
				if elided && keyType == nil || !elided && !f.sameKeyType(u, kv.Key) || !f.keyTracked(kv.Key, u.Key()) {
					trackedKey = false
				}
			}
		}
	}
	if c := classOf(u.Elem()); c != scalar && c != str {
		// The table keeps the shadows of integer, bool and string values
		// only: the shadows and cells of other values are lost.
		for _, el := range lit.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				f.lostIn(kv.Value, u.Elem(), f.fl.site(kv.Colon, "map"), pre)
			}
		}
	}
	if !trackedKey {
		// No table for such keys: which entry a key reaches is concrete.
		for _, el := range lit.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				f.lostIn(kv.Key, u.Key(), f.fl.site(kv.Colon, "map"), pre)
			}
		}
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		var e element
		e.kv = kv
		switch {
		case composite && trackedKey:
			if ks := f.keyShadow(kv.Key, u.Key()); !isNil(ks) {
				e.ks = ks
			}
		case trackedKey:
			e.ks = f.sh(kv.Key)
		}
		switch classOf(u.Elem()) {
		case scalar, str:
			if _, isLit := kv.Value.(*ast.CompositeLit); !isLit {
				e.vs = f.sh(kv.Value)
			}
		}
		symbolic = symbolic || e.ks != nil || e.vs != nil
		elems = append(elems, e)
	}
	if !symbolic {
		return false
	}
	if !trackedKey {
		// No table for such keys: the values' shadows are lost.
		for _, e := range elems {
			if e.vs != nil {
				site := f.fl.site(e.kv.Colon, "map")
				*pre = append(*pre, &ast.ExprStmt{X: f.fl.rtCall("Lost", intLit(uint64(site)), e.vs,
					&ast.BasicLit{Kind: token.STRING, Value: `"stored in a map with keys of an untracked kind"`})})
			}
		}
		return false
	}
	var entries []mapLitEntry
	for _, e := range elems {
		en := mapLitEntry{site: f.fl.site(e.kv.Colon, "mapkey"), key: e.kv.Key, composite: composite}
		if e.ks != nil {
			tmp := f.newTemp()
			*pre = append(*pre, define(tmp, e.ks), use(tmp))
			en.ks = tmp
		}
		if e.vs != nil {
			tmp := f.newTemp()
			*pre = append(*pre, define(tmp, f.fl.rtCall("Mk", e.vs, f.fl.fp(e.kv.Value, u.Elem()))), use(tmp))
			en.vs = tmp
		}
		if f.fl.constOf(e.kv.Key) == nil {
			key := e.kv.Key
			if cl, ok := key.(*ast.CompositeLit); ok && cl.Type == nil {
				key = &ast.CompositeLit{Type: keyType, Lbrace: cl.Lbrace, Elts: cl.Elts, Rbrace: cl.Rbrace}
			}
			tmp := f.newTemp()
			*pre = append(*pre, define(tmp, key), use(tmp))
			en.key = tmp
		}
		entries = append(entries, en)
	}
	if f.mapEntries == nil {
		f.mapEntries = map[*ast.CompositeLit][]mapLitEntry{}
	}
	f.mapEntries[lit] = entries
	return true
}

// lostIn records a concretization at site for each shadow or cell of val,
// of type t, that is lost where val is stored (a map literal's value): the
// shadow of an integer, bool, string or slice, the cells of an addressable
// struct or array, and, in a literal whose type is elided (`{A: n}`, also
// for `&T{...}`), those of its elements. A pointer keeps its pointee's
// cells.
func (f *fn) lostIn(val ast.Expr, t types.Type, site uint32, pre *[]ast.Stmt) {
	if inner, ok := ast.Unparen(val).(*ast.CompositeLit); ok && inner.Type == nil {
		lt := t
		if p, ok := t.Underlying().(*types.Pointer); ok {
			lt = p.Elem()
		}
		switch u := lt.Underlying().(type) {
		case *types.Struct:
			for i, el := range inner.Elts {
				v, field := el, (*types.Var)(nil)
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					v = kv.Value
					for j := 0; j < u.NumFields(); j++ {
						if u.Field(j).Name() == kv.Key.(*ast.Ident).Name {
							field = u.Field(j)
						}
					}
				} else if i < u.NumFields() {
					field = u.Field(i)
				}
				if field != nil {
					f.lostIn(v, field.Type(), site, pre)
				}
			}
		case *types.Array:
			for _, el := range inner.Elts {
				f.lostIn(valueOf(el), u.Elem(), site, pre)
			}
		case *types.Slice:
			for _, el := range inner.Elts {
				f.lostIn(valueOf(el), u.Elem(), site, pre)
			}
		case *types.Map:
			for _, el := range inner.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					f.lostIn(kv.Key, u.Key(), site, pre)
					f.lostIn(kv.Value, u.Elem(), site, pre)
				}
			}
		}
		return
	}
	*pre = append(*pre, f.lostValue(val, t, func() uint32 { return site }, "stored in a map")...)
}

// valueOf is the value of an element of an array or slice literal.
func valueOf(el ast.Expr) ast.Expr {
	if kv, ok := el.(*ast.KeyValueExpr); ok {
		return kv.Value
	}
	return el
}

// isNil reports whether e is the identifier nil.
func isNil(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "nil"
}
