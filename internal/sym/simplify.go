package sym

import (
	"math/bits"

	"github.com/dowse-go/dowse/rt"
)

// build dispatches to the simplifying constructor of op. The operands have
// been checked.
func (c *Context) build(op rt.Op, k, k2 rt.Kind, args []*Expr, bits uint64, str string) *Expr {
	if op != rt.OpConst && op != rt.OpIte && isFloatTerm(op, k, args) {
		return c.buildFloat(op, k, k2, args)
	}
	switch op {
	case rt.OpConst:
		return c.intern(op, k, 0, nil, truncate(k, bits), "")
	case rt.OpStr:
		return c.intern(op, k, 0, nil, 0, str)
	case rt.OpInput:
		return c.intern(op, k, 0, nil, bits, "")
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpQuo, rt.OpRem, rt.OpAnd, rt.OpOr, rt.OpXor, rt.OpAndNot, rt.OpShl, rt.OpShr:
		return c.binary(op, k, k2, args[0], args[1])
	case rt.OpNeg, rt.OpCpl:
		return c.unary(op, k, args[0])
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		return c.compare(op, args[0], args[1])
	case rt.OpNot:
		return c.not(args[0])
	case rt.OpLAnd:
		return c.and(args[0], args[1])
	case rt.OpLOr:
		return c.or(args[0], args[1])
	case rt.OpConv:
		return c.conv(k, args[0])
	case rt.OpLen:
		return c.length(k, args[0])
	case rt.OpIndex:
		return c.index(args[0], args[1])
	case rt.OpSlice:
		return c.slice(args[0], args[1], args[2])
	case rt.OpConcat:
		return c.concat(args[0], args[1])
	case rt.OpFromList:
		return c.fromList(args)
	case rt.OpIte:
		return c.ite(args[0], args[1], args[2])
	}
	panic("sym: unchecked operator")
}

func (c *Context) konst(k rt.Kind, v uint64) *Expr {
	return c.intern(rt.OpConst, k, 0, nil, truncate(k, v), "")
}

func isConstBits(e *Expr, v uint64) bool {
	return e.op == rt.OpConst && e.bits == truncate(e.k, v)
}

func commutative(op rt.Op) bool {
	switch op {
	case rt.OpAdd, rt.OpMul, rt.OpAnd, rt.OpOr, rt.OpXor, rt.OpEq, rt.OpNe, rt.OpLAnd, rt.OpLOr:
		return true
	}
	return false
}

func (c *Context) binary(op rt.Op, k, k2 rt.Kind, a, b *Expr) *Expr {
	if a.op == rt.OpConst && b.op == rt.OpConst {
		if v, err := arith(op, k, k2, a.bits, b.bits); err == nil {
			return c.konst(k, v)
		}
	}
	if commutative(op) && a.op == rt.OpConst && b.op != rt.OpConst {
		a, b = b, a
	}
	bZero, bOne, bOnes := isConstBits(b, 0), isConstBits(b, 1), isConstBits(b, allOnes(k))
	zero := func() *Expr { return c.konst(k, 0) }
	switch op {
	case rt.OpAdd:
		if bZero {
			return a
		}
		if b.op == rt.OpConst && a.op == rt.OpAdd && a.args[1].op == rt.OpConst {
			return c.binary(rt.OpAdd, k, 0, a.args[0], c.konst(k, a.args[1].bits+b.bits))
		}
		if b.op == rt.OpConst && a.op == rt.OpSub && a.args[1].op == rt.OpConst {
			// (x - c1) + c2 is x - (c1 - c2).
			return c.binary(rt.OpSub, k, 0, a.args[0], c.konst(k, a.args[1].bits-b.bits))
		}
	case rt.OpSub:
		switch {
		case bZero:
			return a
		case a == b:
			return zero()
		case isConstBits(a, 0):
			return c.unary(rt.OpNeg, k, b)
		case b.op == rt.OpConst && a.op == rt.OpAdd && a.args[1].op == rt.OpConst:
			// (x + c1) - c2 is x + (c1 - c2), wrapping as both do.
			return c.binary(rt.OpAdd, k, 0, a.args[0], c.konst(k, a.args[1].bits-b.bits))
		case b.op == rt.OpConst && a.op == rt.OpSub && a.args[1].op == rt.OpConst:
			// (x - c1) - c2 is x - (c1 + c2): the argument of a
			// recursive call f(n-1) is n-k at depth k, not k nested
			// subtractions, whose decoding and solving grow with k.
			return c.binary(rt.OpSub, k, 0, a.args[0], c.konst(k, a.args[1].bits+b.bits))
		}
	case rt.OpMul:
		switch {
		case bZero:
			return zero()
		case bOne:
			return a
		case bOnes && k.Signed():
			return c.unary(rt.OpNeg, k, a)
		}
	case rt.OpQuo:
		switch {
		case bOne:
			return a
		case bOnes && k.Signed():
			return c.unary(rt.OpNeg, k, a)
		}
		// (x/d1)/d2 is x/(d1*d2) for positive divisors (truncated
		// division composes), when the product is in range: a loop that
		// divides by 10 asks about x/10^k, not ten nested divisions.
		if d2, ok := positive(k, b); ok && a.op == rt.OpQuo && a.k == k {
			if d1, ok := positive(k, a.args[1]); ok {
				if d, ok := mulInRange(k, d1, d2); ok {
					return c.binary(rt.OpQuo, k, 0, a.args[0], c.konst(k, d))
				}
			}
		}
	case rt.OpRem:
		if bOne || (bOnes && k.Signed()) {
			return zero()
		}
	case rt.OpAnd:
		switch {
		case bZero:
			return zero()
		case bOnes, a == b:
			return a
		}
	case rt.OpOr:
		switch {
		case bZero, a == b:
			return a
		case bOnes:
			return b
		}
	case rt.OpXor:
		switch {
		case bZero:
			return a
		case a == b:
			return zero()
		case bOnes:
			return c.unary(rt.OpCpl, k, a)
		}
	case rt.OpAndNot:
		switch {
		case bZero:
			return a
		case a == b, isConstBits(a, 0), bOnes:
			return zero()
		}
	case rt.OpShl, rt.OpShr:
		if b.op == rt.OpConst {
			n := b.bits
			switch {
			case n == 0:
				return a
			case n >= uint64(k.Bits()) && (op == rt.OpShl || !k.Signed()):
				return zero()
			}
		}
		if isConstBits(a, 0) || (op == rt.OpShr && k.Signed() && isConstBits(a, allOnes(k))) {
			return a
		}
		return c.intern(op, k, k2, []*Expr{a, b}, 0, "")
	}
	return c.intern(op, k, 0, []*Expr{a, b}, 0, "")
}

func (c *Context) unary(op rt.Op, k rt.Kind, a *Expr) *Expr {
	if a.op == rt.OpConst {
		v, _ := unary(op, k, a.bits)
		return c.konst(k, v)
	}
	if a.op == op { // -(-x), ^(^x)
		return a.args[0]
	}
	return c.intern(op, k, 0, []*Expr{a}, 0, "")
}

// Mirror is the operator op' with (a op b) == (b op' a).
func Mirror(op rt.Op) rt.Op {
	switch op {
	case rt.OpLt:
		return rt.OpGt
	case rt.OpLe:
		return rt.OpGe
	case rt.OpGt:
		return rt.OpLt
	case rt.OpGe:
		return rt.OpLe
	}
	return op
}

// Negate is the operator op' with (a op' b) == !(a op b); every kind's
// order is total.
func Negate(op rt.Op) rt.Op {
	switch op {
	case rt.OpEq:
		return rt.OpNe
	case rt.OpNe:
		return rt.OpEq
	case rt.OpLt:
		return rt.OpGe
	case rt.OpLe:
		return rt.OpGt
	case rt.OpGt:
		return rt.OpLe
	case rt.OpGe:
		return rt.OpLt
	}
	return rt.OpInvalid
}

func isComparison(op rt.Op) bool { return Negate(op) != rt.OpInvalid }

func isLiteral(e *Expr) bool { return e.op == rt.OpConst || e.op == rt.OpStr }

func literalValue(e *Expr) rt.Value { return rt.Value{Bits: e.bits, Str: e.str} }

func (c *Context) compare(op rt.Op, a, b *Expr) *Expr {
	k2 := a.k
	if isLiteral(a) && isLiteral(b) {
		v, err := compare(op, k2, literalValue(a), literalValue(b))
		if err == nil {
			return c.Bool(v)
		}
	}
	if a == b {
		return c.Bool(op == rt.OpEq || op == rt.OpLe || op == rt.OpGe)
	}
	if isLiteral(a) && !isLiteral(b) {
		a, b, op = b, a, Mirror(op)
	}
	if k2 == rt.KString && (op == rt.OpEq || op == rt.OpNe) {
		if e := c.compareStrings(op, a, b); e != nil {
			return e
		}
	}
	if b.op == rt.OpConst {
		if e := c.compareConst(op, a, b); e != nil {
			return e
		}
	}
	if k2 == rt.KString && b.op == rt.OpStr && b.str == "" {
		// s == "" is len(s) == 0; s < "" is false; s >= "" is true.
		switch op {
		case rt.OpEq, rt.OpLe:
			return c.compare(rt.OpEq, c.length(rt.KInt, a), c.konst(rt.KInt, 0))
		case rt.OpNe, rt.OpGt:
			return c.compare(rt.OpNe, c.length(rt.KInt, a), c.konst(rt.KInt, 0))
		case rt.OpLt:
			return c.fls
		case rt.OpGe:
			return c.tru
		}
	}
	return c.intern(op, rt.KBool, k2, []*Expr{a, b}, 0, "")
}

// maxByteWise bounds the length of the byte lists compareStrings
// compares byte by byte.
const maxByteWise = 16

// compareStrings simplifies a == b or a != b for strings whose lengths are
// known, or returns nil: different lengths decide it, and two byte lists
// of one length (string constants, the strings of byte lists) are equal
// exactly when their bytes are, so string([]byte{s[0]}) == ">" is
// s[0] == '>', a constraint on one byte.
func (c *Context) compareStrings(op rt.Op, a, b *Expr) *Expr {
	la, lb := c.length(rt.KInt, a), c.length(rt.KInt, b)
	if la.op == rt.OpConst && lb.op == rt.OpConst && la.bits != lb.bits {
		return c.Bool(op == rt.OpNe)
	}
	x, okx := c.bytesOf(a)
	y, oky := c.bytesOf(b)
	if !okx || !oky || len(x) != len(y) || len(x) > maxByteWise {
		return nil
	}
	if op == rt.OpEq {
		r := c.tru
		for i := range x {
			r = c.and(r, c.compare(rt.OpEq, x[i], y[i]))
		}
		return r
	}
	r := c.fls
	for i := range x {
		r = c.or(r, c.compare(rt.OpNe, x[i], y[i]))
	}
	return r
}

// compareConst simplifies a op b for a non-constant a and an integer or bool
// constant b, or returns nil.
func (c *Context) compareConst(op rt.Op, a, b *Expr) *Expr {
	k := a.k
	if k == rt.KBool {
		// x == true is x, x == false is !x, and the converse for !=.
		if (op == rt.OpEq) == (b.bits == 1) {
			return a
		}
		return c.not(a)
	}
	lo, hi := uint64(0), allOnes(k)
	if k.Signed() {
		lo, hi = truncate(k, 1<<(k.Bits()-1)), hi>>1
	}
	switch {
	case (op == rt.OpLt && b.bits == lo) || (op == rt.OpGt && b.bits == hi):
		return c.fls
	case (op == rt.OpGe && b.bits == lo) || (op == rt.OpLe && b.bits == hi):
		return c.tru
	}
	if a.op == rt.OpQuo {
		if e := c.compareQuo(op, a, b); e != nil {
			return e
		}
	}
	if op != rt.OpEq && op != rt.OpNe {
		return nil
	}
	// Move invertible operations onto the constant.
	switch a.op {
	case rt.OpAdd, rt.OpSub, rt.OpXor:
		x, d := a.args[0], a.args[1]
		if d.op != rt.OpConst {
			break
		}
		inverse := rt.OpXor
		switch a.op {
		case rt.OpAdd:
			inverse = rt.OpSub
		case rt.OpSub:
			inverse = rt.OpAdd
		}
		v, _ := arith(inverse, k, 0, b.bits, d.bits)
		return c.compare(op, x, c.konst(k, v))
	case rt.OpNeg, rt.OpCpl:
		v, _ := unary(a.op, k, b.bits)
		return c.compare(op, a.args[0], c.konst(k, v))
	case rt.OpConv:
		x := a.args[0]
		if x.k.Bits() > k.Bits() || x.k.Float() {
			break
		}
		// An extension equals b only if b survives the round trip
		// through x's kind.
		t := convert(x.k, k, b.bits)
		if convert(k, x.k, t) != b.bits {
			return c.Bool(op == rt.OpNe)
		}
		return c.compare(op, x, c.konst(x.k, t))
	}
	return nil
}

func (c *Context) not(a *Expr) *Expr {
	switch {
	case a.op == rt.OpConst:
		return c.Bool(a.bits == 0)
	case a.op == rt.OpNot:
		return a.args[0]
	case isComparison(a.op) && !a.k2.Float():
		// Not for floats: with a NaN, a < b and a >= b are both false.
		return c.compare(Negate(a.op), a.args[0], a.args[1])
	case a.op == rt.OpLAnd:
		return c.or(c.not(a.args[0]), c.not(a.args[1]))
	case a.op == rt.OpLOr:
		return c.and(c.not(a.args[0]), c.not(a.args[1]))
	}
	return c.intern(rt.OpNot, rt.KBool, 0, []*Expr{a}, 0, "")
}

// complementary reports whether a == !b is evident.
func complementary(a, b *Expr) bool {
	if a.op == rt.OpNot && a.args[0] == b || b.op == rt.OpNot && b.args[0] == a {
		return true
	}
	return isComparison(a.op) && !a.k2.Float() && a.op == Negate(b.op) && a.args[0] == b.args[0] && a.args[1] == b.args[1]
}

func (c *Context) and(a, b *Expr) *Expr {
	switch {
	case a.IsFalse() || b.IsFalse() || complementary(a, b):
		return c.fls
	case a.IsTrue() || a == b:
		return b
	case b.IsTrue():
		return a
	}
	return c.intern(rt.OpLAnd, rt.KBool, 0, []*Expr{a, b}, 0, "")
}

func (c *Context) or(a, b *Expr) *Expr {
	switch {
	case a.IsTrue() || b.IsTrue() || complementary(a, b):
		return c.tru
	case a.IsFalse() || a == b:
		return b
	case b.IsFalse():
		return a
	}
	return c.intern(rt.OpLOr, rt.KBool, 0, []*Expr{a, b}, 0, "")
}

func (c *Context) conv(k rt.Kind, a *Expr) *Expr {
	switch {
	case a.k == k:
		return a
	case a.op == rt.OpConst:
		return c.konst(k, convert(k, a.k, a.bits))
	case a.op == rt.OpConv:
		// Truncating an extension of x to at most x's width is
		// truncating x.
		x := a.args[0]
		if x.k.Bits() <= a.k.Bits() && k.Bits() <= x.k.Bits() {
			return c.conv(k, x)
		}
	}
	return c.intern(rt.OpConv, k, a.k, []*Expr{a}, 0, "")
}

func (c *Context) length(k rt.Kind, s *Expr) *Expr {
	switch s.op {
	case rt.OpStr:
		return c.konst(k, uint64(len(s.str)))
	case rt.OpFromList:
		return c.konst(k, uint64(len(s.args)))
	case rt.OpConcat:
		return c.binary(rt.OpAdd, k, 0, c.length(k, s.args[0]), c.length(k, s.args[1]))
	case rt.OpSlice:
		lo, hi := c.conv(k, s.args[1]), c.conv(k, s.args[2])
		return c.binary(rt.OpSub, k, 0, hi, lo)
	}
	return c.intern(rt.OpLen, k, 0, []*Expr{s}, 0, "")
}

func (c *Context) index(s, i *Expr) *Expr {
	if i.op == rt.OpConst {
		switch s.op {
		case rt.OpStr:
			if n, ok := index(i.k, i.bits, len(s.str)-1); ok {
				return c.konst(rt.KUint8, uint64(s.str[n]))
			}
		case rt.OpFromList:
			if n, ok := index(i.k, i.bits, len(s.args)-1); ok {
				return s.args[n]
			}
		case rt.OpSlice:
			// s[lo:hi][i] is s[lo+i] (the run recorded both in range):
			// one byte of the string, whatever slice it was read through.
			if p, ok := offset(s.args[1], i); ok {
				return c.index(s.args[0], c.konst(rt.KInt, uint64(p)))
			}
		}
	}
	return c.intern(rt.OpIndex, rt.KUint8, i.k, []*Expr{s, i}, 0, "")
}

func (c *Context) slice(s, lo, hi *Expr) *Expr {
	if lo.op == rt.OpConst && hi.op == rt.OpConst {
		switch s.op {
		case rt.OpStr:
			l, okl := index(lo.k, lo.bits, len(s.str))
			h, okh := index(hi.k, hi.bits, len(s.str))
			if okl && okh && l <= h {
				return c.intern(rt.OpStr, rt.KString, 0, nil, 0, s.str[l:h])
			}
		case rt.OpFromList:
			l, okl := index(lo.k, lo.bits, len(s.args))
			h, okh := index(hi.k, hi.bits, len(s.args))
			if okl && okh && l <= h {
				return c.fromList(s.args[l:h])
			}
		}
	}
	if s.op == rt.OpSlice && hi.op == rt.OpConst {
		// s[a:b][lo:hi] is s[a+lo:a+hi] for constant bounds.
		if l, ok := offset(s.args[1], lo); ok {
			if h, ok := offset(s.args[1], hi); ok {
				return c.slice(s.args[0], c.konst(rt.KInt, uint64(l)), c.konst(rt.KInt, uint64(h)))
			}
		}
	}
	if isConstBits(lo, 0) && hi.op == rt.OpLen && hi.args[0] == s {
		return s
	}
	return c.intern(rt.OpSlice, rt.KString, 0, []*Expr{s, lo, hi}, 0, "")
}

// offset is base + i for constant, non-negative base and i whose sum is a
// plausible string position.
func offset(base, i *Expr) (int, bool) {
	if base.op != rt.OpConst || i.op != rt.OpConst {
		return 0, false
	}
	b, okb := index(base.k, base.bits, 1<<40)
	n, okn := index(i.k, i.bits, 1<<40)
	if !okb || !okn {
		return 0, false
	}
	return b + n, true
}

// bytesOf returns the bytes of a string constant or OpFromList as terms.
func (c *Context) bytesOf(s *Expr) ([]*Expr, bool) {
	switch s.op {
	case rt.OpFromList:
		return s.args, true
	case rt.OpStr:
		out := make([]*Expr, len(s.str))
		for i := range len(s.str) {
			out[i] = c.konst(rt.KUint8, uint64(s.str[i]))
		}
		return out, true
	}
	return nil, false
}

func (c *Context) concat(a, b *Expr) *Expr {
	switch {
	case a.op == rt.OpStr && a.str == "":
		return b
	case b.op == rt.OpStr && b.str == "":
		return a
	case a.op == rt.OpStr && b.op == rt.OpStr:
		return c.intern(rt.OpStr, rt.KString, 0, nil, 0, a.str+b.str)
	}
	if x, ok := c.bytesOf(a); ok {
		if y, ok := c.bytesOf(b); ok {
			return c.fromList(append(append([]*Expr(nil), x...), y...))
		}
	}
	return c.intern(rt.OpConcat, rt.KString, 0, []*Expr{a, b}, 0, "")
}

func (c *Context) fromList(bs []*Expr) *Expr {
	buf := make([]byte, len(bs))
	for i, b := range bs {
		if b.op != rt.OpConst {
			return c.intern(rt.OpFromList, rt.KString, 0, bs, 0, "")
		}
		buf[i] = byte(b.bits)
	}
	return c.intern(rt.OpStr, rt.KString, 0, nil, 0, string(buf))
}

func (c *Context) ite(cond, a, b *Expr) *Expr {
	switch {
	case cond.IsTrue() || a == b:
		return a
	case cond.IsFalse():
		return b
	case cond.op == rt.OpNot:
		return c.ite(cond.args[0], b, a)
	}
	if a.k == rt.KBool {
		switch {
		case a.IsTrue():
			return c.or(cond, b)
		case a.IsFalse():
			return c.and(c.not(cond), b)
		case b.IsTrue():
			return c.or(c.not(cond), a)
		case b.IsFalse():
			return c.and(cond, a)
		}
	}
	return c.intern(rt.OpIte, a.k, 0, []*Expr{cond, a, b}, 0, "")
}

// positive returns e's value if e is a constant greater than 0 in kind k.
func positive(k rt.Kind, e *Expr) (uint64, bool) {
	if e.op != rt.OpConst || e.bits == 0 || (k.Signed() && signExtend(k, e.bits) < 0) {
		return 0, false
	}
	return e.bits, true
}

// maxPositive is the largest value of kind k.
func maxPositive(k rt.Kind) uint64 {
	if k.Signed() {
		return allOnes(k) >> 1
	}
	return allOnes(k)
}

// mulInRange returns a*b if it is at most maxPositive(k).
func mulInRange(k rt.Kind, a, b uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, b)
	return lo, hi == 0 && lo <= maxPositive(k)
}

// compareQuo rewrites x/d op e, for a positive constant divisor d and a
// constant e >= 0, into comparisons of x itself (truncated division:
// x/d >= e is x >= e*d for e >= 1, and x > -d for e == 0), which the
// order layer and the solver decide without a divider; nil if it does not
// apply.
func (c *Context) compareQuo(op rt.Op, a, b *Expr) *Expr {
	k := a.k
	d, ok := positive(k, a.args[1])
	if !ok || (k.Signed() && signExtend(k, b.bits) < 0) {
		return nil
	}
	x, e := a.args[0], b.bits
	// atLeast is x/d >= v.
	atLeast := func(v uint64, over bool) *Expr {
		switch {
		case over:
			return c.fls
		case v == 0 && !k.Signed():
			return c.tru
		case v == 0:
			return c.compare(rt.OpGt, x, c.konst(k, truncate(k, -d)))
		}
		p, ok := mulInRange(k, v, d)
		if !ok {
			return c.fls
		}
		return c.compare(rt.OpGe, x, c.konst(k, p))
	}
	next := e + 1
	over := e == maxPositive(k) // e+1 is out of range: x/d > e is false
	switch op {
	case rt.OpGe:
		return atLeast(e, false)
	case rt.OpGt:
		return atLeast(next, over)
	case rt.OpLt:
		return c.not(atLeast(e, false))
	case rt.OpLe:
		return c.not(atLeast(next, over))
	case rt.OpEq:
		return c.and(atLeast(e, false), c.not(atLeast(next, over)))
	case rt.OpNe:
		return c.not(c.and(atLeast(e, false), c.not(atLeast(next, over))))
	}
	return nil
}
