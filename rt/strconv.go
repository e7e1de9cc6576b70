package rt

import (
	"math"
	"strconv"
)

// Models of strconv functions that parsers call on their input.

var (
	idStrconvAtoi      = funcID("strconv.Atoi")
	idStrconvParseInt  = funcID("strconv.ParseInt")
	idStrconvParseUint = funcID("strconv.ParseUint")
	idStrconvParseBool = funcID("strconv.ParseBool")
)

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
		decimal(idStrconvAtoi, In(0, FS(s)), s, true, err == nil, uint64(r), KInt)
	}
	return r, err
}

// StrconvParseInt is strconv.ParseInt, modelled like Atoi for base 10 and
// 64-bit results; other bases and sizes make a symbolic s concrete.
func StrconvParseInt(s string, base int, bitSize int) (int64, error) {
	r, err := strconv.ParseInt(s, base, bitSize)
	if on.Load() && Enter(idStrconvParseInt, 3) {
		parseModel(idStrconvParseInt, s, base, bitSize, true, err == nil, uint64(r), KInt64)
	}
	return r, err
}

// StrconvParseUint is strconv.ParseUint, modelled for base 10 and 64-bit
// results (no sign).
func StrconvParseUint(s string, base int, bitSize int) (uint64, error) {
	r, err := strconv.ParseUint(s, base, bitSize)
	if on.Load() && Enter(idStrconvParseUint, 3) {
		parseModel(idStrconvParseUint, s, base, bitSize, false, err == nil, r, KUint64)
	}
	return r, err
}

// parseModel is the shadow of ParseInt or ParseUint (see decimal) where
// the base is 10 and the size 64 bits, and a concretization of a
// symbolic s otherwise.
func parseModel(id uint32, s string, base, bitSize int, signed, ok bool, fp uint64, k Kind) {
	ss := In(0, FS(s))
	switch {
	case ss == 0:
	case base == 10 && (bitSize == 0 || bitSize == 64):
		decimal(id, ss, s, signed, ok, fp, k)
	default:
		Conc(0, "strconv parse with another base or size than 10 and 64")
	}
}

// StrconvParseBool is strconv.ParseBool: its value and validity are
// comparisons of s with the strings it accepts.
func StrconvParseBool(str string) (bool, error) {
	r, err := strconv.ParseBool(str)
	if on.Load() && Enter(idStrconvParseBool, 1) {
		if ss := In(0, FS(str)); ss != 0 {
			or := func(a, b S) S { return mk(Node{Op: OpLOr, K: KBool, A: a, B: b}) }
			is := func(w string) S { return mk(Node{Op: OpEq, K: KBool, K2: KString, A: ss, B: strConst(w)}) }
			truth := falseS()
			for _, w := range []string{"1", "t", "T", "TRUE", "true", "True"} {
				truth = or(truth, is(w))
			}
			valid := truth
			for _, w := range []string{"0", "f", "F", "FALSE", "false", "False"} {
				valid = or(valid, is(w))
			}
			Imp(0, err == nil, valid)
			Ret(idStrconvParseBool, Arg{S: truth, F: B(r)}, Arg{})
		}
	}
	return r, err
}

// decimal leaves the shadow of a decimal parse of s (shadow ss; signed
// allows a sign) as result 0, of kind k, of function id with fingerprint
// fp, records
// whether s is a number (ok) as an implicit branch, and a concretization
// where s is longer than the model covers.
func decimal(id uint32, ss S, s string, signed, ok bool, fp uint64, k Kind) {
	if ss == 0 {
		return
	}
	n, approx := searchLen(len(s))
	if n > maxAtoiDigits+1 {
		n, approx = maxAtoiDigits+1, true
	}
	if approx {
		Conc(0, "a decimal parse of a string longer than the model covers")
	}
	valid, value := atoiShadow(ss, n, signed)
	Imp(0, ok, valid)
	Ret(id, Arg{S: Conv(k, KInt, value), F: fp}, Arg{})
}

// atoiShadow returns the shadows of "s is a decimal number" (with an
// optional sign if signed) and of its value (0 if it is not one), for
// strings of at most n bytes.
func atoiShadow(s S, n int, signed bool) (valid, value S) {
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
		for sign := 0; sign <= 1 && sign < length && (sign == 0 || signed); sign++ {
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

var (
	idStrconvItoa       = funcID("strconv.Itoa")
	idStrconvFormatInt  = funcID("strconv.FormatInt")
	idStrconvFormatUint = funcID("strconv.FormatUint")
)

// StrconvItoa is strconv.Itoa (see formatDecimal).
func StrconvItoa(i int) string {
	r := strconv.Itoa(i)
	if on.Load() && Enter(idStrconvItoa, 1) {
		if vs := In(0, uint64(i)); vs != 0 {
			formatDecimal(idStrconvItoa, Conv(KInt64, KInt, vs), int64(i), true, r)
		}
	}
	return r
}

// StrconvFormatInt is strconv.FormatInt; bases other than 10 make the
// value concrete.
func StrconvFormatInt(i int64, base int) string {
	r := strconv.FormatInt(i, base)
	if on.Load() && Enter(idStrconvFormatInt, 2) {
		vs, bs := In(0, uint64(i)), In(1, uint64(base))
		switch {
		case vs == 0 && bs == 0:
		case base != 10 || bs != 0:
			Conc(0, "strconv.FormatInt in a base other than a constant 10")
		default:
			formatDecimal(idStrconvFormatInt, vs, i, true, r)
		}
	}
	return r
}

// StrconvFormatUint is strconv.FormatUint; bases other than 10 make the
// value concrete.
func StrconvFormatUint(i uint64, base int) string {
	r := strconv.FormatUint(i, base)
	if on.Load() && Enter(idStrconvFormatUint, 2) {
		vs, bs := In(0, i), In(1, uint64(base))
		switch {
		case vs == 0 && bs == 0:
		case base != 10 || bs != 0:
			Conc(0, "strconv.FormatUint in a base other than a constant 10")
		default:
			formatDecimal(idStrconvFormatUint, vs, int64(i), false, r)
		}
	}
	return r
}

// formatDecimal gives the decimal form r of the 64-bit value v (shadow
// vs, signed or not) its shadow: the sign and the number of digits are
// implicit branches (v < 0, and |v| >= 10^k for each power the path
// looks at), and digit k is (|v| / 10^k) % 10 + '0', so the string is
// exact for the path.
func formatDecimal(id uint32, vs S, v int64, signed bool, r string) {
	neg := signed && v < 0
	var mag S
	var m uint64
	if signed {
		Imp(0, neg, mk(Node{Op: OpLt, K: KBool, K2: KInt64, A: vs, B: constant(KInt64, 0)}))
		if neg {
			mag, m = mk(Node{Op: OpNeg, K: KInt64, A: vs}), uint64(-v)
		} else {
			mag, m = vs, uint64(v)
		}
		// As an unsigned value, -v is |v| even for the most negative
		// int64 (whose negation wraps to itself, 2^63 unsigned).
		mag = Conv(KUint64, KInt64, mag)
	} else {
		mag, m = vs, uint64(v)
	}
	// The number of digits: 10^n <= |v| < 10^(n+1), asked power by power.
	digits := 1
	for p := uint64(10); ; p *= 10 {
		more := m >= p
		Imp(0, more, mk(Node{Op: OpGe, K: KBool, K2: KUint64, A: mag, B: constant(KUint64, p)}))
		if !more {
			break
		}
		digits++
		if p > math.MaxUint64/10 {
			break
		}
	}
	var out []S
	if neg {
		out = append(out, constant(KUint8, '-'))
	}
	pow := uint64(1)
	for i := 1; i < digits; i++ {
		pow *= 10
	}
	for ; digits > 0; digits-- {
		q := mk(Node{Op: OpQuo, K: KUint64, A: mag, B: constant(KUint64, pow)})
		d := mk(Node{Op: OpRem, K: KUint64, A: q, B: constant(KUint64, 10)})
		out = append(out, mk(Node{Op: OpAdd, K: KUint8, A: Conv(KUint8, KUint64, d), B: constant(KUint8, '0')}))
		pow /= 10
	}
	if len(out) != len(r) {
		return // cannot happen: the model is the original
	}
	Ret(id, Arg{S: mk(Node{Op: OpFromList, K: KString, List: out}), F: FS(r)})
}
