package instrument

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strconv"
)

// class is how the rewrite tracks values of a type.
type class int

const (
	untracked class = iota
	scalar          // integers, bools and floats: shadow is an integer/bool/float expression
	str             // strings
	slice           // slices: the shadow is the length's
	aggregate       // arrays and structs: shadows live in memory cells
)

// isTypeParam reports whether t is a type parameter.
func isTypeParam(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.TypeParam)
	return ok
}

// isGeneric reports whether fn is a generic function or a method of a
// generic type (instantiated or not).
func isGeneric(fn *types.Func) bool {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	sig, ok := fn.Type().(*types.Signature)
	return ok && (sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0)
}

func classOf(t types.Type) class {
	if t == nil {
		return untracked
	}
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return untracked
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Kind() == types.UntypedBool {
			return scalar // comparisons
		}
		if u.Info()&types.IsUntyped != 0 {
			return untracked
		}
		switch {
		case u.Info()&types.IsInteger != 0, u.Kind() == types.Bool, u.Kind() == types.Float32, u.Kind() == types.Float64:
			return scalar
		case u.Kind() == types.String:
			return str
		}
	case *types.Slice:
		return slice
	case *types.Array:
		return aggregate
	case *types.Struct:
		return aggregate
	}
	return untracked
}

// kindName is the rt kind constant for a scalar or string type, e.g.
// "KInt64".
func kindName(t types.Type) string {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		if _, ok := t.Underlying().(*types.Slice); ok {
			return "KInt" // slice shadows are lengths
		}
		return "KInvalid"
	}
	switch b.Kind() {
	case types.Bool, types.UntypedBool:
		return "KBool"
	case types.Int:
		return "KInt"
	case types.Int8:
		return "KInt8"
	case types.Int16:
		return "KInt16"
	case types.Int32:
		return "KInt32"
	case types.Int64:
		return "KInt64"
	case types.Uint:
		return "KUint"
	case types.Uint8:
		return "KUint8"
	case types.Uint16:
		return "KUint16"
	case types.Uint32:
		return "KUint32"
	case types.Uint64:
		return "KUint64"
	case types.Uintptr:
		return "KUintptr"
	case types.String:
		return "KString"
	case types.Float32:
		return "KFloat32"
	case types.Float64:
		return "KFloat64"
	}
	return "KInvalid"
}

func (fl *file) typeOf(e ast.Expr) types.Type {
	if tv, ok := fl.info.Types[e]; ok {
		return tv.Type
	}
	if id, ok := e.(*ast.Ident); ok {
		if o := fl.info.ObjectOf(id); o != nil {
			return o.Type()
		}
	}
	return nil
}

func (fl *file) constOf(e ast.Expr) constant.Value {
	if tv, ok := fl.info.Types[e]; ok {
		return tv.Value
	}
	return nil
}

// rtSel is the expression rt.name.
func (fl *file) rtSel(name string) ast.Expr {
	return &ast.SelectorExpr{X: ast.NewIdent(fl.rt), Sel: ast.NewIdent(name)}
}

func (fl *file) rtCall(name string, args ...ast.Expr) *ast.CallExpr {
	return &ast.CallExpr{Fun: fl.rtSel(name), Args: args}
}

func intLit(v uint64) ast.Expr {
	return &ast.BasicLit{Kind: token.INT, Value: strconv.FormatUint(v, 10)}
}

func zeroS() ast.Expr { return intLit(0) }

// fp is the fingerprint expression of the pure expression e of type t.
func (fl *file) fp(e ast.Expr, t types.Type) ast.Expr {
	if c := fl.constOf(e); c != nil {
		return intLit(constBits(c, t))
	}
	switch classOf(t) {
	case scalar:
		if b, ok := t.Underlying().(*types.Basic); ok && (b.Kind() == types.Bool || b.Kind() == types.UntypedBool) {
			return fl.rtCall("B", &ast.CallExpr{Fun: fl.pre("bool"), Args: []ast.Expr{e}})
		}
		if isFloat(t) {
			// A float's fingerprint and value are its IEEE 754 bits.
			name := "float" + strconv.Itoa(int(floatWidth(t)))
			return fl.rtCall("FBits"+strconv.Itoa(int(floatWidth(t))), &ast.CallExpr{Fun: fl.pre(name), Args: []ast.Expr{e}})
		}
		return &ast.CallExpr{Fun: fl.pre("uint64"), Args: []ast.Expr{e}}
	case str:
		return fl.rtCall("FS", &ast.CallExpr{Fun: fl.pre("string"), Args: []ast.Expr{e}})
	case slice:
		return &ast.CallExpr{Fun: fl.pre("uint64"), Args: []ast.Expr{fl.lenOf(e, t)}}
	}
	return intLit(0)
}

// val is the operand-value expression passed to rt for a scalar: the same
// as its fingerprint.
func (fl *file) val(e ast.Expr, t types.Type) ast.Expr { return fl.fp(e, t) }

// isFloat reports whether t is float32 or float64 (or a type defined as
// one).
func isFloat(t types.Type) bool { return floatWidth(t) != 0 }

// floatWidth is 32 or 64 for the float types, 0 for the others.
func floatWidth(t types.Type) uint {
	if t == nil {
		return 0
	}
	if b, ok := t.Underlying().(*types.Basic); ok {
		switch b.Kind() {
		case types.Float32:
			return 32
		case types.Float64:
			return 64
		}
	}
	return 0
}

// constBits is the uint64 that uint64(x) gives for constant c of type t,
// or for a float type the IEEE 754 bits of c's value in that type.
func constBits(c constant.Value, t types.Type) uint64 {
	switch floatWidth(t) {
	case 32:
		v, _ := constant.Float32Val(constant.ToFloat(c))
		return uint64(math.Float32bits(v))
	case 64:
		v, _ := constant.Float64Val(constant.ToFloat(c))
		return math.Float64bits(v)
	}
	switch c.Kind() {
	case constant.Bool:
		if constant.BoolVal(c) {
			return 1
		}
		return 0
	case constant.Int:
		if v, ok := constant.Uint64Val(c); ok {
			return v
		}
		if v, ok := constant.Int64Val(c); ok {
			return uint64(v)
		}
	}
	return 0
}

// strVal is the value expression of a string operand.
func (fl *file) strVal(e ast.Expr) ast.Expr {
	if c := fl.constOf(e); c != nil && c.Kind() == constant.String {
		return &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(constant.StringVal(c))}
	}
	return &ast.CallExpr{Fun: fl.pre("string"), Args: []ast.Expr{e}}
}

// addr is uintptr(unsafe.Pointer(&e)).
func (fl *file) addr(e ast.Expr) ast.Expr {
	fl.needU = true
	return &ast.CallExpr{Fun: fl.pre("uintptr"), Args: []ast.Expr{
		&ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(fl.uns), Sel: ast.NewIdent("Pointer")}, Args: []ast.Expr{
			&ast.UnaryExpr{Op: token.AND, X: e}}}}}
}

// ptrAddr is uintptr(unsafe.Pointer(p)) for a pointer p.
func (fl *file) ptrAddr(p ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: fl.pre("uintptr"), Args: []ast.Expr{fl.unsafePointer(p)}}
}

// unsafePointer is unsafe.Pointer(p) for a pointer p.
func (fl *file) unsafePointer(p ast.Expr) ast.Expr {
	fl.needU = true
	return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(fl.uns), Sel: ast.NewIdent("Pointer")}, Args: []ast.Expr{p}}
}

func (fl *file) sizeof(e ast.Expr) ast.Expr {
	fl.needU = true
	return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(fl.uns), Sel: ast.NewIdent("Sizeof")}, Args: []ast.Expr{e}}
}

// lit is the parenthesized composite literal rt.name{S: s, F: fp} (or
// rt.name{} without values); the parentheses keep it valid in if and for
// headers.
func (fl *file) lit(name string, vals ...ast.Expr) ast.Expr {
	cl := &ast.CompositeLit{Type: fl.rtSel(name)}
	for i, v := range vals {
		cl.Elts = append(cl.Elts, &ast.KeyValueExpr{Key: ast.NewIdent([]string{"S", "F", "N"}[i]), Value: v})
	}
	return &ast.ParenExpr{X: cl}
}

// hasCells reports whether values of aggregate type t have tracked leaves,
// whose shadows live in memory cells.
func hasCells(t types.Type) bool { return hasCellsDepth(t, 0) }

func hasCellsDepth(t types.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Array:
		c := classOf(u.Elem())
		return c == scalar || c == str || c == slice || c == aggregate && hasCellsDepth(u.Elem(), depth+1)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			ft := u.Field(i).Type()
			c := classOf(ft)
			if c == scalar || c == str || c == slice || c == aggregate && hasCellsDepth(ft, depth+1) {
				return true
			}
		}
	}
	return false
}

// escape is rt.Escape(&v): v's cells need a stable address.
func (fl *file) escape(v ast.Expr) ast.Stmt {
	return &ast.ExprStmt{X: fl.rtCall("Escape", &ast.UnaryExpr{Op: token.AND, X: v})}
}

// pre returns the identifier under which generated code names predeclared
// type name: a file-level alias, since the code under test may shadow the
// predeclared name in a function.
func (fl *file) pre(name string) ast.Expr {
	if fl.alias == nil {
		fl.alias = map[string]string{}
	}
	a, ok := fl.alias[name]
	if !ok {
		// Package-level: unique per file.
		a = fl.fresh(fmt.Sprintf("dowse%s_%08x", name, fl.tag))
		fl.alias[name] = a
	}
	return ast.NewIdent(a)
}

// lenOf is len(e) for e of type t, robust to a shadowed len.
func (fl *file) lenOf(e ast.Expr, t types.Type) ast.Expr {
	if t != nil {
		switch u := t.Underlying().(type) {
		case *types.Basic:
			return fl.rtCall("LenStr", e)
		case *types.Slice:
			return fl.rtCall("LenS", e)
		case *types.Array:
			return intLit(uint64(u.Len()))
		case *types.Pointer:
			if a, ok := u.Elem().Underlying().(*types.Array); ok {
				return intLit(uint64(a.Len()))
			}
		}
	}
	return &ast.CallExpr{Fun: ast.NewIdent("len"), Args: []ast.Expr{e}}
}

func (f *fn) lenOf(e ast.Expr) ast.Expr { return f.fl.lenOf(e, f.typeOf(e)) }

// capOf is cap(e) for a slice or array e.
func (f *fn) capOf(e ast.Expr) ast.Expr {
	if t := f.typeOf(e); t != nil {
		if _, ok := t.Underlying().(*types.Slice); ok {
			return f.fl.rtCall("CapS", e)
		}
	}
	return f.lenOf(e)
}
