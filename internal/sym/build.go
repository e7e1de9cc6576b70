package sym

import (
	"fmt"
	"math"

	"github.com/dowse-go/dowse/rt"
)

// Make builds the term op(args...) of kind k, checking that the operands'
// kinds fit the operator as documented on rt.Op, and simplifying. k2 is the
// operand kind of comparisons and conversions and the count kind of shifts
// and index operations; for the other operators it is derived or ignored.
// bits is the value of an OpConst or the index of an OpInput, str the value
// of an OpStr.
func (c *Context) Make(op rt.Op, k, k2 rt.Kind, args []*Expr, bits uint64, str string) (*Expr, error) {
	k2, err := check(op, k, k2, args, bits)
	if err != nil {
		return nil, err
	}
	return c.build(op, k, k2, args, bits, str), nil
}

// must is Make for the typed constructors, whose misuse is a programming
// error.
func (c *Context) must(op rt.Op, k, k2 rt.Kind, args []*Expr, bits uint64, str string) *Expr {
	e, err := c.Make(op, k, k2, args, bits, str)
	if err != nil {
		panic(err)
	}
	return e
}

// True is the constant true.
func (c *Context) True() *Expr { return c.tru }

// False is the constant false.
func (c *Context) False() *Expr { return c.fls }

// Bool is the constant b.
func (c *Context) Bool(b bool) *Expr {
	if b {
		return c.tru
	}
	return c.fls
}

// Const is the integer constant of kind k whose bits are the low bits of v
// (for signed kinds, pass uint64(int64Value)).
func (c *Context) Const(k rt.Kind, v uint64) *Expr { return c.must(rt.OpConst, k, 0, nil, v, "") }

// Str is the string constant s.
func (c *Context) Str(s string) *Expr { return c.must(rt.OpStr, rt.KString, 0, nil, 0, s) }

// Input is input variable number index, of kind k.
func (c *Context) Input(index int, k rt.Kind) *Expr {
	return c.must(rt.OpInput, k, 0, nil, uint64(index), "")
}

// Binary is a op b for the integer operators OpAdd through OpAndNot (a and b
// of the same kind) and the shifts OpShl and OpShr (b of any integer kind).
func (c *Context) Binary(op rt.Op, a, b *Expr) *Expr {
	return c.must(op, a.k, b.k, []*Expr{a, b}, 0, "")
}

// Neg is -a.
func (c *Context) Neg(a *Expr) *Expr { return c.must(rt.OpNeg, a.k, 0, []*Expr{a}, 0, "") }

// Cpl is ^a.
func (c *Context) Cpl(a *Expr) *Expr { return c.must(rt.OpCpl, a.k, 0, []*Expr{a}, 0, "") }

// Compare is a op b for op one of OpEq, OpNe, OpLt, OpLe, OpGt, OpGe.
func (c *Context) Compare(op rt.Op, a, b *Expr) *Expr {
	return c.must(op, rt.KBool, a.k, []*Expr{a, b}, 0, "")
}

// Not is !a, pushed through comparisons and && / ||.
func (c *Context) Not(a *Expr) *Expr { return c.must(rt.OpNot, rt.KBool, 0, []*Expr{a}, 0, "") }

// And is a && b.
func (c *Context) And(a, b *Expr) *Expr {
	return c.must(rt.OpLAnd, rt.KBool, 0, []*Expr{a, b}, 0, "")
}

// Or is a || b.
func (c *Context) Or(a, b *Expr) *Expr { return c.must(rt.OpLOr, rt.KBool, 0, []*Expr{a, b}, 0, "") }

// Conv is the conversion of the integer or float a to the integer or
// float kind k.
func (c *Context) Conv(k rt.Kind, a *Expr) *Expr {
	return c.must(rt.OpConv, k, a.k, []*Expr{a}, 0, "")
}

// Len is len(s), of kind rt.KInt.
func (c *Context) Len(s *Expr) *Expr { return c.must(rt.OpLen, rt.KInt, 0, []*Expr{s}, 0, "") }

// Index is s[i], the byte at index i.
func (c *Context) Index(s, i *Expr) *Expr {
	return c.must(rt.OpIndex, rt.KUint8, i.k, []*Expr{s, i}, 0, "")
}

// Slice is s[lo:hi].
func (c *Context) Slice(s, lo, hi *Expr) *Expr {
	return c.must(rt.OpSlice, rt.KString, 0, []*Expr{s, lo, hi}, 0, "")
}

// Concat is a + b for strings.
func (c *Context) Concat(a, b *Expr) *Expr {
	return c.must(rt.OpConcat, rt.KString, 0, []*Expr{a, b}, 0, "")
}

// FromList is the string of the bytes bs (each of kind rt.KUint8).
func (c *Context) FromList(bs []*Expr) *Expr {
	return c.must(rt.OpFromList, rt.KString, 0, bs, 0, "")
}

// FromBits is the float of kind k whose IEEE 754 bits are the unsigned
// integer a of the same width.
func (c *Context) FromBits(k rt.Kind, a *Expr) *Expr {
	return c.must(rt.OpFromBits, k, a.k, []*Expr{a}, 0, "")
}

// Ite is "if cond then a else b".
func (c *Context) Ite(cond, a, b *Expr) *Expr {
	return c.must(rt.OpIte, a.k, 0, []*Expr{cond, a, b}, 0, "")
}

// check validates an operator's operands and returns the normalized K2:
// the operand kind where the operator has one, KInvalid otherwise.
func check(op rt.Op, k, k2 rt.Kind, args []*Expr, bits uint64) (rt.Kind, error) {
	bad := func(format string, a ...any) (rt.Kind, error) {
		return 0, fmt.Errorf("sym: %s of kind %v: %s", opName(op), k, fmt.Sprintf(format, a...))
	}
	want := arity(op)
	if want < 0 {
		want = len(args)
	}
	if len(args) != want {
		return bad("%d operands, want %d", len(args), want)
	}
	for i, a := range args {
		if a == nil {
			return bad("operand %d missing", i)
		}
	}
	same := func(kind rt.Kind, xs ...*Expr) bool {
		for _, x := range xs {
			if x.k != kind {
				return false
			}
		}
		return true
	}
	switch op {
	case rt.OpConst:
		if !k.Integer() && k != rt.KBool && !k.Float() {
			return bad("not an integer, bool or float kind")
		}
		return 0, nil
	case rt.OpStr:
		if k != rt.KString {
			return bad("string constant of another kind")
		}
		return 0, nil
	case rt.OpInput:
		if !k.Integer() && k != rt.KBool && k != rt.KString {
			return bad("unsupported input kind")
		}
		if bits > math.MaxInt32 {
			return bad("input index %d out of range", bits)
		}
		return 0, nil
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpQuo:
		if !(k.Integer() || k.Float()) || !same(k, args...) {
			return bad("operands of kinds %v, %v", args[0].k, args[1].k)
		}
		return 0, nil
	case rt.OpRem, rt.OpAnd, rt.OpOr, rt.OpXor, rt.OpAndNot:
		if !k.Integer() || !same(k, args...) {
			return bad("operands of kinds %v, %v", args[0].k, args[1].k)
		}
		return 0, nil
	case rt.OpShl, rt.OpShr:
		if !k.Integer() || args[0].k != k || !args[1].k.Integer() {
			return bad("operands of kinds %v, %v", args[0].k, args[1].k)
		}
		return args[1].k, nil
	case rt.OpNeg, rt.OpCpl:
		if !(k.Integer() || op == rt.OpNeg && k.Float()) || args[0].k != k {
			return bad("operand of kind %v", args[0].k)
		}
		return 0, nil
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		ok := k == rt.KBool && args[0].k == args[1].k && args[0].k != rt.KInvalid
		if op != rt.OpEq && op != rt.OpNe && args[0].k == rt.KBool {
			ok = false
		}
		if !ok {
			return bad("operands of kinds %v, %v", args[0].k, args[1].k)
		}
		return args[0].k, nil
	case rt.OpNot, rt.OpLAnd, rt.OpLOr:
		if k != rt.KBool || !same(rt.KBool, args...) {
			return bad("non-bool operands")
		}
		return 0, nil
	case rt.OpConv:
		if !(k.Integer() || k.Float()) || !(args[0].k.Integer() || args[0].k.Float()) {
			return bad("conversion from %v", args[0].k)
		}
		return args[0].k, nil
	case rt.OpFromBits:
		from := args[0].k
		if !k.Float() || !from.Integer() || from.Signed() || from.Bits() != k.FloatBits() {
			return bad("bits of kind %v", from)
		}
		return from, nil
	case rt.OpLen:
		if !k.Integer() || args[0].k != rt.KString {
			return bad("len of %v", args[0].k)
		}
		return 0, nil
	case rt.OpIndex:
		if k != rt.KUint8 || args[0].k != rt.KString || !args[1].k.Integer() {
			return bad("index of %v by %v", args[0].k, args[1].k)
		}
		return args[1].k, nil
	case rt.OpSlice:
		if k != rt.KString || args[0].k != rt.KString || !args[1].k.Integer() || !args[2].k.Integer() {
			return bad("slice of %v by %v, %v", args[0].k, args[1].k, args[2].k)
		}
		return 0, nil
	case rt.OpConcat:
		if k != rt.KString || !same(rt.KString, args...) {
			return bad("concatenation of %v and %v", args[0].k, args[1].k)
		}
		return 0, nil
	case rt.OpFromList:
		if k != rt.KString || !same(rt.KUint8, args...) {
			return bad("bytes that are not uint8")
		}
		return 0, nil
	case rt.OpIte:
		if args[0].k != rt.KBool || args[1].k != k || args[2].k != k || k == rt.KInvalid {
			return bad("operands of kinds %v, %v, %v", args[0].k, args[1].k, args[2].k)
		}
		return 0, nil
	}
	return bad("unknown operator")
}

// arity is the number of operands of op, -1 for OpFromList's list.
func arity(op rt.Op) int {
	switch op {
	case rt.OpConst, rt.OpStr, rt.OpInput, rt.OpInvalid:
		return 0
	case rt.OpNeg, rt.OpCpl, rt.OpNot, rt.OpConv, rt.OpLen, rt.OpFromBits:
		return 1
	case rt.OpSlice, rt.OpIte:
		return 3
	case rt.OpFromList:
		return -1
	}
	return 2
}
