package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Map keys of comparable types other than integers, bools and strings
// (structs, arrays, pointers, interfaces, channels, floats) are composite
// keys: the runtime's tables compare them leaf by leaf (rt/mapkeys.go),
// their shadow (rt.KS) holding one shadow per leaf, in the order of the
// type's fields and elements, blank fields left out.

// maxKeyLeaves is rt's bound on the leaves of a composite key type.
const maxKeyLeaves = 32

// compositeKey reports whether the tables follow keys of type t leaf by
// leaf: t is comparable, neither an integer, bool or string type nor a
// type parameter, and has at most maxKeyLeaves leaves.
func compositeKey(t types.Type) bool {
	if t == nil || isTypeParam(t) || !types.Comparable(t) {
		return false
	}
	if tableKey(t) {
		return false
	}
	n, ok := keyLeaves(t, 0)
	return ok && n <= maxKeyLeaves
}

// keyLeaves counts the leaves of a value of type t, the fields and
// elements that are neither structs nor arrays; false if there are more
// than maxKeyLeaves.
func keyLeaves(t types.Type, n int) (int, bool) {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if u.Field(i).Name() == "_" {
				continue
			}
			var ok bool
			if n, ok = keyLeaves(u.Field(i).Type(), n); !ok {
				return n, false
			}
		}
		return n, true
	case *types.Array:
		for i := int64(0); i < u.Len(); i++ {
			var ok bool
			if n, ok = keyLeaves(u.Elem(), n); !ok {
				return n, false
			}
		}
		return n, true
	}
	if n >= maxKeyLeaves {
		return n, false
	}
	return n + 1, true
}

// keyShadow is the rt.KS of key, a pure expression of composite key type
// t: rt.KeyOf(&key) (its leaves' cells) when key is addressable, the
// shadows of its elements when it is a composite literal whose leaves can
// be told apart (keyParts), else nil — such a key's shadows, if any, are
// recorded as lost by lostKey.
func (f *fn) keyShadow(key ast.Expr, t types.Type) ast.Expr {
	if !hasCells(t) {
		return ast.NewIdent("nil")
	}
	if f.addressable(key) {
		return f.fl.rtCall("KeyOf", &ast.UnaryExpr{Op: token.AND, X: key})
	}
	if parts, ok := f.keyParts(key, t); ok {
		sym := false
		for _, p := range parts {
			sym = sym || p != nil
		}
		if !sym {
			return ast.NewIdent("nil")
		}
		lit := &ast.CompositeLit{Type: f.fl.rtSel("KS")}
		for _, p := range parts {
			lit.Elts = append(lit.Elts, orZero(p))
		}
		return lit
	}
	return ast.NewIdent("nil")
}

// keyTracked reports whether keyShadow follows the shadows of key.
func (f *fn) keyTracked(key ast.Expr, t types.Type) bool {
	if !hasCells(t) || f.addressable(key) {
		return true
	}
	_, ok := f.keyParts(key, t)
	return ok
}

// keyParts is the shadow of each leaf of the value of type t that e (nil
// for a missing element of a literal) stands for, nil where a leaf is
// concrete: e a composite literal (elided or not) whose elements are
// composite literals or values of integer, bool and string types (leaves
// of other kinds are concrete). It reports false for other aggregate
// elements.
func (f *fn) keyParts(e ast.Expr, t types.Type) ([]ast.Expr, bool) {
	if e == nil {
		n, _ := keyLeaves(t, 0)
		return make([]ast.Expr, n), true
	}
	switch c := classOf(t); c {
	case scalar, str:
		if isFloat(t) {
			return nil, false // compared concretely: its shadow is lost
		}
		return []ast.Expr{f.sh(e)}, true
	case aggregate:
	default:
		return []ast.Expr{nil}, true
	}
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	var parts []ast.Expr
	switch u := t.Underlying().(type) {
	case *types.Struct:
		elems := make([]ast.Expr, u.NumFields())
		for i, el := range lit.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				name := kv.Key.(*ast.Ident).Name
				for j := 0; j < u.NumFields(); j++ {
					if u.Field(j).Name() == name {
						elems[j] = kv.Value
					}
				}
			} else if i < len(elems) {
				elems[i] = el
			}
		}
		for i := 0; i < u.NumFields(); i++ {
			if u.Field(i).Name() == "_" {
				continue
			}
			p, ok := f.keyParts(elems[i], u.Field(i).Type())
			if !ok {
				return nil, false
			}
			parts = append(parts, p...)
		}
	case *types.Array:
		elems := make([]ast.Expr, u.Len())
		idx := int64(0)
		for _, el := range lit.Elts {
			val := el
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				c := f.fl.constOf(kv.Key)
				if c == nil {
					return nil, false
				}
				idx = int64(constBits(c, types.Typ[types.Int]))
				val = kv.Value
			}
			if idx < 0 || idx >= u.Len() {
				return nil, false
			}
			elems[idx] = val
			idx++
		}
		for _, el := range elems {
			p, ok := f.keyParts(el, u.Elem())
			if !ok {
				return nil, false
			}
			parts = append(parts, p...)
		}
	default:
		return nil, false
	}
	return parts, true
}
