package rt

import "strconv"

// Models of strconv functions that parsers call on their input.

var idStrconvAtoi = funcID("strconv.Atoi")

// maxAtoiDigits is the most digits the Atoi model covers: 18 decimal
// digits always fit an int64, so the model needs no overflow case.
const maxAtoiDigits = 18

// StrconvAtoi is strconv.Atoi. For a symbolic s its shadow is the value of
// every string an input can make (an if-then-else over the length and an
// optional sign, each case the sum of its digits times powers of ten, 0
// where s is not a number); whether s is a number is recorded as an
// implicit branch at the call, so that the search can find numbers (the
// code's err != nil is a comparison on an interface, which dowse does not
// track). Strings longer than 18 digits after the sign, which could
// overflow, make the shadow approximate, which the run records.
func StrconvAtoi(s string) (int, error) {
	r, err := strconv.Atoi(s)
	if on.Load() && Enter(idStrconvAtoi, 1) {
		if ss := In(0, FS(s)); ss != 0 {
			n, approx := searchLen(len(s))
			if n > maxAtoiDigits+1 {
				n, approx = maxAtoiDigits+1, true
			}
			if approx {
				Conc(0, "strconv.Atoi of a string longer than the model covers")
			}
			valid, value := atoiShadow(ss, n)
			Imp(0, err == nil, valid)
			Ret(idStrconvAtoi, Arg{S: value, F: uint64(r)}, Arg{})
		}
	}
	return r, err
}

// atoiShadow returns the shadows of "s is a decimal number with an
// optional sign" and of its value (0 if it is not one), for strings of at
// most n bytes.
func atoiShadow(s S, n int) (valid, value S) {
	L := StrLen(s)
	ch := func(k int) S { return mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: s, B: intS(k)}) }
	is := func(k int, c byte) S {
		return mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: ch(k), B: constant(KUint8, uint64(c))})
	}
	and := func(a, b S) S { return mk(Node{Op: OpLAnd, K: KBool, A: a, B: b}) }
	or := func(a, b S) S { return mk(Node{Op: OpLOr, K: KBool, A: a, B: b}) }
	digit := func(k int) S {
		ge := mk(Node{Op: OpGe, K: KBool, K2: KUint8, A: ch(k), B: constant(KUint8, '0')})
		le := mk(Node{Op: OpLe, K: KBool, K2: KUint8, A: ch(k), B: constant(KUint8, '9')})
		return and(ge, le)
	}
	valid, value = falseS(), intS(0)
	for length := n; length >= 1; length-- {
		for sign := 0; sign <= 1 && sign < length; sign++ {
			cond := mk(Node{Op: OpEq, K: KBool, K2: KInt, A: L, B: intS(length)})
			if sign == 1 {
				cond = and(cond, or(is(0, '+'), is(0, '-')))
			}
			v := intS(0)
			for k := sign; k < length; k++ {
				cond = and(cond, digit(k))
				d := mk(Node{Op: OpSub, K: KInt, A: Conv(KInt, KUint8, ch(k)), B: intS('0')})
				v = mk(Node{Op: OpAdd, K: KInt, A: mk(Node{Op: OpMul, K: KInt, A: v, B: intS(10)}), B: d})
			}
			if sign == 1 {
				v = mk(Node{Op: OpIte, K: KInt, A: is(0, '-'), B: mk(Node{Op: OpNeg, K: KInt, A: v}), C: v})
			}
			valid = or(cond, valid)
			value = mk(Node{Op: OpIte, K: KInt, A: cond, B: v, C: value})
		}
	}
	return valid, value
}
