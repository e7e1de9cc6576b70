package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

var binOps = map[token.Token]string{
	token.ADD: "OpAdd", token.SUB: "OpSub", token.MUL: "OpMul", token.QUO: "OpQuo", token.REM: "OpRem",
	token.AND: "OpAnd", token.OR: "OpOr", token.XOR: "OpXor", token.AND_NOT: "OpAndNot",
	token.SHL: "OpShl", token.SHR: "OpShr",
	token.EQL: "OpEq", token.NEQ: "OpNe", token.LSS: "OpLt", token.LEQ: "OpLe", token.GTR: "OpGt", token.GEQ: "OpGe",
}

func isCmp(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

func (f *fn) rtK(t types.Type) ast.Expr { return f.fl.rtSel(kindName(t)) }

func orZero(e ast.Expr) ast.Expr {
	if e == nil {
		return zeroS()
	}
	return e
}

// sh returns an expression of type rt.S for the shadow of the pure
// expression e, or nil when e is concrete.
func (f *fn) sh(e ast.Expr) ast.Expr {
	if e == nil {
		return nil
	}
	if t, ok := f.temps[e]; ok {
		return t.sh
	}
	if f.fl.constOf(e) != nil || f.impure(e) {
		return nil
	}
	t := f.typeOf(e)
	cls := classOf(t)
	if cls == untracked || cls == aggregate {
		return nil
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return f.sh(x.X)
	case *ast.Ident:
		obj, ok := f.fl.info.ObjectOf(x).(*types.Var)
		if !ok {
			return nil
		}
		if f.inMem[obj] {
			return f.fl.rtCall("Ld", f.fl.addr(x), f.fl.fp(x, t))
		}
		if c, ok := f.comp[obj]; ok {
			return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(c), Sel: ast.NewIdent("At")}, Args: []ast.Expr{f.fl.fp(x, t)}}
		}
		if obj.Parent() == f.fl.pkg.Types.Scope() {
			return f.fl.rtCall("Ld", f.fl.addr(x), f.fl.fp(x, t))
		}
		return nil
	case *ast.BinaryExpr:
		return f.shBinary(x, t)
	case *ast.UnaryExpr:
		switch x.Op {
		case token.ADD:
			return f.sh(x.X)
		case token.SUB, token.XOR, token.NOT:
			s := f.sh(x.X)
			if s == nil {
				return nil
			}
			op := map[token.Token]string{token.SUB: "OpNeg", token.XOR: "OpCpl", token.NOT: "OpNot"}[x.Op]
			return f.fl.rtCall("Un", f.fl.rtSel(op), f.rtK(t), s)
		}
		return nil
	case *ast.CallExpr:
		return f.shCall(x, t)
	case *ast.IndexExpr:
		return f.shIndex(x, t)
	case *ast.SliceExpr:
		return f.shSlice(x, t)
	case *ast.SelectorExpr:
		if f.addressable(x) {
			return f.fl.rtCall("Ld", f.fl.addr(x), f.fl.fp(x, t))
		}
	case *ast.StarExpr:
		return f.fl.rtCall("Ld", f.fl.ptrAddr(x.X), f.fl.fp(x, t))
	}
	return nil
}

// operandType is the type both operands of x have (after conversion of
// constants), or nil when they differ (an interface compared with a
// concrete value).
func (f *fn) operandType(x *ast.BinaryExpr) types.Type {
	tx, ty := f.typeOf(x.X), f.typeOf(x.Y)
	if tx == nil || ty == nil {
		return nil
	}
	switch {
	case f.constOf(x.X) && !f.constOf(x.Y):
		return ty
	case f.constOf(x.Y) && !f.constOf(x.X):
		return tx
	}
	if classOf(tx) != classOf(ty) {
		return nil
	}
	return tx
}

func (f *fn) shBinary(x *ast.BinaryExpr, t types.Type) ast.Expr {
	if x.Op == token.LAND || x.Op == token.LOR {
		return nil // the operands are recorded as branches
	}
	op, ok := binOps[x.Op]
	if !ok {
		return nil
	}
	ot := f.operandType(x)
	if x.Op == token.SHL || x.Op == token.SHR {
		ot = t
	}
	if ot == nil {
		return nil
	}
	if (x.Op == token.EQL || x.Op == token.NEQ) && classOf(ot) == aggregate {
		return f.shEqParts(x, ot)
	}
	sx, sy := f.sh(x.X), f.sh(x.Y)
	if sx == nil && sy == nil {
		return nil
	}
	switch classOf(ot) {
	case str:
		if x.Op == token.ADD {
			return f.fl.rtCall("Concat", orZero(sx), f.fl.strVal(x.X), orZero(sy), f.fl.strVal(x.Y))
		}
		if isCmp(x.Op) {
			return f.fl.rtCall("StrCmp", f.fl.rtSel(op), orZero(sx), f.fl.strVal(x.X), orZero(sy), f.fl.strVal(x.Y))
		}
		return nil
	case scalar:
	default:
		return nil
	}
	vx, vy := f.fl.val(x.X, ot), f.fl.val(x.Y, ot)
	switch {
	case isCmp(x.Op):
		return f.fl.rtCall("Cmp", f.fl.rtSel(op), f.rtK(ot), orZero(sx), vx, orZero(sy), vy)
	case (x.Op == token.QUO || x.Op == token.REM) && !isFloat(ot):
		// (A float division needs no branch: x/0 is an infinity or NaN.)
		site := f.fl.site(x.OpPos, "div")
		return f.fl.rtCall("Quo", intLit(uint64(site)), f.fl.rtSel(op), f.rtK(ot), orZero(sx), vx, orZero(sy), vy)
	case x.Op == token.SHL || x.Op == token.SHR:
		ct := f.typeOf(x.Y)
		ck := ast.Expr(f.fl.rtSel("KUint"))
		if ct != nil && classOf(ct) == scalar && !f.constOf(x.Y) {
			ck = f.rtK(ct)
			vy = f.fl.val(x.Y, ct)
		} else if c := f.fl.constOf(x.Y); c != nil {
			vy = intLit(constBits(c, ct))
		}
		site := f.fl.site(x.OpPos, "shift")
		return f.fl.rtCall("Shift", intLit(uint64(site)), f.fl.rtSel(op), f.rtK(ot), orZero(sx), vx, ck, orZero(sy), vy)
	}
	return f.fl.rtCall("Bin", f.fl.rtSel(op), f.rtK(ot), orZero(sx), vx, orZero(sy), vy)
}

func (f *fn) shCall(x *ast.CallExpr, t types.Type) ast.Expr {
	if f.isType(x.Fun) {
		if len(x.Args) != 1 {
			return nil
		}
		a := x.Args[0]
		at := f.typeOf(a)
		s := f.sh(a)
		switch {
		case classOf(t) == scalar && classOf(at) == scalar:
			if s == nil {
				return nil
			}
			if isFloat(at) && !isFloat(t) {
				// Out of the integer type's range the result is the
				// implementation's: rt.ConvF records the range check.
				site := f.fl.site(x.Lparen, "floatconv")
				return f.fl.rtCall("ConvF", intLit(uint64(site)), f.rtK(t), f.rtK(at), s, f.fl.val(a, at))
			}
			return f.fl.rtCall("Conv", f.rtK(t), f.rtK(at), s)
		case classOf(t) == str && classOf(at) == str:
			return s
		case classOf(t) == str && isByteSlice(at):
			site := f.fl.site(x.Lparen, "conv")
			return f.fl.rtCall("StrFromBytes", intLit(uint64(site)), &ast.CallExpr{Fun: &ast.ArrayType{Elt: f.fl.pre("byte")}, Args: []ast.Expr{a}}, orZero(s))
		case classOf(t) == slice && classOf(at) == slice:
			return s
		}
		return nil
	}
	switch f.builtin(x.Fun) {
	case "len":
		if len(x.Args) != 1 {
			return nil
		}
		a := x.Args[0]
		switch classOf(f.typeOf(a)) {
		case str:
			if s := f.sh(a); s != nil {
				return f.fl.rtCall("StrLen", s)
			}
		case slice:
			return f.sh(a)
		}
		if _, ok := f.typeOf(a).Underlying().(*types.Chan); ok {
			return f.fl.rtCall("ChanLen", a)
		}
	case "cap":
		if len(x.Args) != 1 {
			return nil
		}
		if _, ok := f.typeOf(x.Args[0]).Underlying().(*types.Chan); ok {
			return f.fl.rtCall("ChanCap", x.Args[0])
		}
	case "min", "max":
		return f.shMinMax(x, t)
	}
	return nil
}

// shMinMax is the shadow of min or max of integers or strings (rt.MinMax,
// rt.MinMaxStr): before, the result had none, and a branch on it no
// condition.
func (f *fn) shMinMax(x *ast.CallExpr, t types.Type) ast.Expr {
	isMax := ast.NewIdent(strconv.FormatBool(f.builtin(x.Fun) == "max"))
	var shs []ast.Expr
	sym := false
	for _, a := range x.Args {
		s := f.sh(a)
		sym = sym || s != nil
		shs = append(shs, orZero(s))
	}
	if !sym {
		return nil
	}
	switch classOf(t) {
	case scalar:
		if isFloat(t) {
			// Go's min and max of floats propagate NaN and order -0
			// below +0, which the chain of comparisons does not.
			site := f.fl.site(x.Lparen, "minmax")
			return f.fl.rtCall("LostS", intLit(uint64(site)), f.fl.rtCall("AnyS", shs...), &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote("min or max of floats")})
		}
		args := []ast.Expr{isMax, f.rtK(t)}
		for i, a := range x.Args {
			args = append(args, f.fl.lit("Arg", shs[i], f.fl.val(a, t)))
		}
		return f.fl.rtCall("MinMax", args...)
	case str:
		args := []ast.Expr{isMax, &ast.CompositeLit{Type: &ast.ArrayType{Elt: f.fl.rtSel("S")}, Elts: shs}}
		for _, a := range x.Args {
			args = append(args, f.fl.strVal(a))
		}
		return f.fl.rtCall("MinMaxStr", args...)
	}
	return nil
}

func (f *fn) shIndex(x *ast.IndexExpr, t types.Type) ast.Expr {
	xt := f.typeOf(x.X)
	if xt == nil {
		return nil
	}
	it := f.typeOf(x.Index)
	si := f.sh(x.Index)
	iv := ast.Expr(intLit(0))
	ik := ast.Expr(f.fl.rtSel("KInt"))
	if c := f.fl.constOf(x.Index); c != nil {
		iv = intLit(constBits(c, it))
	} else if it != nil && classOf(it) == scalar {
		iv = f.fl.val(x.Index, it)
		ik = f.rtK(it)
	}
	switch u := xt.Underlying().(type) {
	case *types.Basic:
		if classOf(xt) != str {
			return nil
		}
		sx := f.sh(x.X)
		if sx == nil && si == nil {
			return nil
		}
		site := f.fl.site(x.Lbrack, "index")
		return f.fl.rtCall("StrIndex", intLit(uint64(site)), orZero(sx), f.fl.strVal(x.X), ik, orZero(si), iv)
	case *types.Map:
		// The entry the key reaches was recorded by rt.MapKeyI (mapKey);
		// the value's shadow is the table's, if it still describes it.
		key := x.Index
		if orig, ok := f.mapKeys[x]; ok {
			key = orig
		} else if !f.sameKeyType(u, key) {
			return nil
		}
		lookup := &ast.IndexExpr{X: x.X, Index: key}
		f.types[lookup] = t
		return &ast.CallExpr{Fun: &ast.SelectorExpr{X: f.mapValue(x), Sel: ast.NewIdent("At")}, Args: []ast.Expr{f.fl.fp(lookup, t)}}
	case *types.Slice, *types.Array, *types.Pointer:
		if !f.addressable(x) {
			return nil
		}
		var n ast.Expr = intLit(0)
		var base ast.Expr
		f.fl.needU = true
		unsafePtr := func(e ast.Expr) ast.Expr {
			return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(f.fl.uns), Sel: ast.NewIdent("Pointer")}, Args: []ast.Expr{e}}
		}
		switch u.(type) {
		case *types.Slice:
			n = orZero(f.sh(x.X))
			base = unsafePtr(&ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(f.fl.uns), Sel: ast.NewIdent("SliceData")}, Args: []ast.Expr{x.X}})
		case *types.Array:
			base = unsafePtr(&ast.UnaryExpr{Op: token.AND, X: x.X})
		case *types.Pointer:
			base = unsafePtr(x.X)
		}
		site := f.fl.site(x.Lbrack, "index")
		lenv := &ast.CallExpr{Fun: f.fl.pre("uint64"), Args: []ast.Expr{f.lenOf(x.X)}}
		if f.fl.constOf(x.Index) != nil {
			return f.fl.rtCall("LdIdx",
				f.fl.rtCall("Idx", intLit(uint64(site)), ik, orZero(si), iv, n, lenv),
				f.fl.addr(x), f.fl.fp(x, t))
		}
		ke := ast.Expr(f.fl.rtSel("KInvalid"))
		if classOf(t) == scalar {
			ke = f.rtK(t)
		}
		return f.fl.rtCall("LdSym",
			f.fl.rtCall("BoundsFirst", intLit(uint64(site)), ik, orZero(si), iv, n, lenv),
			intLit(uint64(site)), ik, orZero(si), iv, lenv,
			base, f.fl.sizeof(x), ke, f.fl.addr(x), f.fl.fp(x, t))
	}
	return nil
}

func (f *fn) shSlice(x *ast.SliceExpr, t types.Type) ast.Expr {
	xt := f.typeOf(x.X)
	if xt == nil {
		return nil
	}
	bound := func(b ast.Expr) (ast.Expr, ast.Expr) {
		if b == nil {
			return nil, nil
		}
		bt := f.typeOf(b)
		if c := f.fl.constOf(b); c != nil {
			return nil, intLit(constBits(c, bt))
		}
		s := f.sh(b)
		if s != nil && kindName(bt) != "KInt" {
			s = f.fl.rtCall("Conv", f.fl.rtSel("KInt"), f.rtK(bt), s)
		}
		return s, f.fl.val(b, bt)
	}
	slo, vlo := bound(x.Low)
	shi, vhi := bound(x.High)
	if vlo == nil {
		vlo = intLit(0)
	}
	lenX := &ast.CallExpr{Fun: f.fl.pre("uint64"), Args: []ast.Expr{f.lenOf(x.X)}}
	site := f.fl.site(x.Lbrack, "slice")
	if classOf(xt) == str {
		sx := f.sh(x.X)
		if sx == nil && slo == nil && shi == nil {
			return nil
		}
		if vhi == nil {
			vhi = lenX
		}
		return f.fl.rtCall("StrSlice", intLit(uint64(site)), orZero(sx), f.fl.strVal(x.X), orZero(slo), vlo, orZero(shi), vhi)
	}
	if classOf(xt) != slice && !isArrayLike(xt) {
		return nil
	}
	var sx ast.Expr // the length's shadow of a slice operand
	if classOf(xt) == slice {
		sx = f.sh(x.X)
	}
	if vhi == nil {
		vhi = lenX
		shi = sx
	}
	if slo == nil && shi == nil {
		return nil
	}
	capX := &ast.CallExpr{Fun: f.fl.pre("uint64"), Args: []ast.Expr{f.capOf(x.X)}}
	return f.fl.rtCall("SliceLen", intLit(uint64(site)), orZero(slo), vlo, orZero(shi), vhi, capX, orZero(sx), lenX)
}

func isArrayLike(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Array:
		return true
	case *types.Pointer:
		_, ok := u.Elem().Underlying().(*types.Array)
		return ok
	}
	return false
}

// pickIndex makes the access x[i] of a slice or array at a symbolic index
// choose i's value (rt.PickI) where dowse does not select the element
// symbolically: elements that are not integers, strings or slices
// (pointers, structs, arrays, interfaces, floats), any element whose
// address is taken (addr), and every store (the caller passes addr for
// assignment targets). Without the choice the run would use the memory at
// this value of i while its path condition left i free — a wrong path,
// and a wrong "exhaustive" verdict. A constant index into a slice of
// symbolic length records the bounds check. x.Index must be pure; it is
// replaced by the call, which returns it.
func (f *fn) pickIndex(x *ast.IndexExpr, addr bool) {
	if f.pickedIndex[x] {
		return
	}
	xt := f.typeOf(x.X)
	it := f.typeOf(x.Index)
	constant := f.fl.constOf(x.Index) != nil
	if xt == nil || it == nil || !constant && classOf(it) != scalar {
		return
	}
	var elem types.Type
	var n ast.Expr // the length's shadow
	switch u := xt.Underlying().(type) {
	case *types.Slice:
		elem = u.Elem()
		n = f.sh(x.X)
	case *types.Array:
		elem = u.Elem()
	case *types.Pointer:
		a, ok := u.Elem().Underlying().(*types.Array)
		if !ok {
			return
		}
		elem = a.Elem()
	default:
		return
	}
	if !addr {
		switch classOf(elem) {
		case scalar, str, slice:
			return // shIndex selects or chooses where the element's shadow is read
		}
	}
	var si ast.Expr
	ik := f.fl.rtSel("KInt")
	if !constant {
		si = f.sh(x.Index)
		ik = f.rtK(it)
	}
	if si == nil && n == nil {
		return
	}
	site := f.fl.site(x.Lbrack, "index")
	call := f.fl.rtCall("PickI", intLit(uint64(site)), ik, orZero(si), x.Index, orZero(n), f.lenOf(x.X))
	f.types[call] = it
	x.Index = call
	if f.pickedIndex == nil {
		f.pickedIndex = map[*ast.IndexExpr]bool{}
	}
	f.pickedIndex[x] = true
}

// mapKey makes the access x[k] of a map record which of the map's entries
// k reaches (rt.MapKeyI, see rt/maps.go): x.Index becomes the call, which
// returns k. store says the access is the target of an assignment (the
// key is entered in the map's shadow table). The original key expression
// is kept in f.mapKeys for the shadow of the value and the store. Keys
// of other kinds record a concretization into pre (if not nil) when they
// carry shadows (untrackedKey).
func (f *fn) mapKey(x *ast.IndexExpr, store bool, pre *[]ast.Stmt) {
	if _, done := f.mapKeys[x]; done {
		return
	}
	xt := f.typeOf(x.X)
	if xt == nil {
		return
	}
	u, ok := xt.Underlying().(*types.Map)
	if !ok {
		return
	}
	f.untrackedKey(x.Lbrack, u, x.Index, pre)
	if !f.sameKeyType(u, x.Index) {
		return
	}
	if f.mapKeys == nil {
		f.mapKeys = map[*ast.IndexExpr]ast.Expr{}
	}
	key := x.Index
	f.mapKeys[x] = key
	x.Index = f.mapKeyCall(x.Lbrack, x.X, key, u.Key(), store)
}

// untrackedKey records a concretization at pos into pre (if not nil) when
// key, used to reach an entry of a map of type u whose keys are not
// integers, bools or strings (structs, arrays, interfaces, floats,
// pointers), carries shadows: the map's shadow table does not follow such
// keys, so which entry the key reaches is concrete. A struct key built of
// inputs (m[key{a, b}]) was once looked up without a trace, and the target
// called exhaustive with the entry it missed.
func (f *fn) untrackedKey(pos token.Pos, u *types.Map, key ast.Expr, pre *[]ast.Stmt) {
	if pre == nil {
		return
	}
	if tableKey(u.Key()) {
		return
	}
	if !isFloat(u.Key()) && compositeKey(u.Key()) && f.sameKeyType(u, key) && f.keyTracked(key, u.Key()) {
		return
	}
	kt := f.typeOf(key) // an interface key boxes the key's own type
	*pre = append(*pre, f.lostValue(key, kt, func() uint32 { return f.fl.site(pos, "map") }, "map key of an untracked kind")...)
}

// tableKey reports whether the shadow tables compare keys of type t by
// one shadow: integers, bools and strings. A float key is a composite key
// of one leaf, compared concretely (a symbolic one records a
// concretization, rt.KeyOf): the tables would compare its bits, where
// Go's map has -0 == +0 and a NaN equal to nothing.
func tableKey(t types.Type) bool {
	c := classOf(t)
	return c == scalar && !isFloat(t) || c == str
}

// sameKeyType reports whether key has map type u's key type (or is a
// constant, which takes it): the rt map functions infer the key type from
// the map, and a key of another type (converted to an interface key type)
// would not fit them.
func (f *fn) sameKeyType(u *types.Map, key ast.Expr) bool {
	if f.fl.constOf(key) != nil {
		return true
	}
	t := f.typeOf(key)
	return t != nil && types.Identical(t, u.Key())
}

// mapKeyCall is rt.MapKeyI for key of type kt in map m.
func (f *fn) mapKeyCall(pos token.Pos, m, key ast.Expr, kt types.Type, store bool) ast.Expr {
	var ks ast.Expr
	fn := "MapKeyI"
	switch {
	case tableKey(kt):
		ks = f.sh(key)
	default:
		if compositeKey(kt) {
			fn, ks = "MapKeyT", f.keyShadow(key, kt)
		}
	}
	site := f.fl.site(pos, "mapkey")
	call := f.fl.rtCall(fn, intLit(uint64(site)), m, key, orZero(ks), ast.NewIdent(strconv.FormatBool(store)))
	f.types[call] = kt
	return call
}

// mapValue is the rt.Sh of the value of the map access x (its table's
// entry for the key, checked against the value's fingerprint where it is
// used).
func (f *fn) mapValue(x *ast.IndexExpr) ast.Expr {
	key := x.Index
	if orig, ok := f.mapKeys[x]; ok {
		key = orig
	}
	return f.fl.rtCall("MapLdSh", x.X, key)
}

// mapLost is the statement that records a concretization at pos if map m
// holds symbolic keys or values (rt.MapLost): they go where dowse does not
// follow them.
func (f *fn) mapLost(pos token.Pos, m ast.Expr, why string) ast.Stmt {
	site := f.fl.site(pos, "map")
	return &ast.ExprStmt{X: f.fl.rtCall("MapLost", intLit(uint64(site)), m, &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(why)})}
}

// maxEqParts bounds the parts a comparison of structs or arrays is split
// into; a larger one records a concretization when it holds cells.
const maxEqParts = 32

// shEqParts is the shadow of x.X == x.Y (or !=) for structs or arrays of
// type t: the conjunction of the equalities of their parts, integers, bools
// and strings read from their cells (rt.EqParts); other parts (pointers,
// interfaces, channels) are compared concretely, as their shadows are
// not kept. Operands that are not addressable keep no cells; one whose
// parts cannot all be named here (unexported fields of another package's
// type, more than maxEqParts parts) records a concretization if it holds
// cells (rt.EqLost). Before, the comparison had no condition at all.
func (f *fn) shEqParts(x *ast.BinaryExpr, t types.Type) ast.Expr {
	if !hasCells(t) || !f.addressable(x.X) || !f.addressable(x.Y) {
		return nil
	}
	base := func(e ast.Expr) ast.Expr {
		if _, ok := ast.Unparen(e).(*ast.StarExpr); ok {
			return &ast.ParenExpr{X: e}
		}
		return e
	}
	var parts []ast.Expr
	ok := true
	var walk func(a, b ast.Expr, t types.Type)
	walk = func(a, b ast.Expr, t types.Type) {
		if !ok {
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				fld := u.Field(i)
				if fld.Name() == "_" {
					continue
				}
				if !fld.Exported() && fld.Pkg() != f.fl.pkg.Types {
					ok = false
					return
				}
				walk(&ast.SelectorExpr{X: base(a), Sel: ast.NewIdent(fld.Name())}, &ast.SelectorExpr{X: base(b), Sel: ast.NewIdent(fld.Name())}, fld.Type())
			}
			return
		case *types.Array:
			for i := int64(0); i < u.Len() && ok; i++ {
				walk(&ast.IndexExpr{X: base(a), Index: intLit(uint64(i))}, &ast.IndexExpr{X: base(b), Index: intLit(uint64(i))}, u.Elem())
			}
			return
		}
		if len(parts) >= maxEqParts {
			ok = false
			return
		}
		eq := &ast.BinaryExpr{X: a, Op: token.EQL, Y: b}
		var sh ast.Expr
		switch classOf(t) {
		case scalar:
			la := f.fl.rtCall("Ld", f.fl.addr(a), f.fl.fp(a, t))
			lb := f.fl.rtCall("Ld", f.fl.addr(b), f.fl.fp(b, t))
			sh = f.fl.rtCall("Cmp", f.fl.rtSel("OpEq"), f.rtK(t), la, f.fl.val(a, t), lb, f.fl.val(b, t))
		case str:
			la := f.fl.rtCall("Ld", f.fl.addr(a), f.fl.fp(a, t))
			lb := f.fl.rtCall("Ld", f.fl.addr(b), f.fl.fp(b, t))
			sh = f.fl.rtCall("StrCmp", f.fl.rtSel("OpEq"), la, f.fl.strVal(a), lb, f.fl.strVal(b))
		}
		elts := []ast.Expr{&ast.KeyValueExpr{Key: ast.NewIdent("Eq"), Value: eq}}
		if sh != nil {
			elts = append(elts, &ast.KeyValueExpr{Key: ast.NewIdent("S"), Value: sh})
		}
		parts = append(parts, &ast.CompositeLit{Type: f.fl.rtSel("Part"), Elts: elts})
	}
	walk(x.X, x.Y, t)
	if !ok {
		site := f.fl.site(x.OpPos, "eq")
		ptr := func(e ast.Expr) ast.Expr { return f.fl.unsafePointer(&ast.UnaryExpr{Op: token.AND, X: e}) }
		return f.fl.rtCall("EqLost", intLit(uint64(site)), ptr(x.X), ptr(x.Y), f.fl.sizeof(x.X))
	}
	sh := f.fl.rtCall("EqParts", parts...)
	if x.Op == token.NEQ {
		sh = f.fl.rtCall("Un", f.fl.rtSel("OpNot"), f.fl.rtSel("KBool"), sh)
	}
	return sh
}
