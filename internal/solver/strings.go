package solver

import "github.com/dowse-go/dowse/internal/solver/z3"

// bstring is the encoding of a byte string whose length is bounded: a
// 64-bit length n and the bytes at positions 0..cap-1, where cap =
// len(bytes) is a bound on n known at encoding time. Bytes at positions >=
// n are irrelevant. Inputs get cap = Leaf.Max; operations derive the bound
// of their result (a concatenation's is the sum), so every string term of a
// query is a fixed set of bit-vectors and the whole query stays in QF_BV.
type bstring struct {
	n     z3.AST
	fixed int // n when known at encoding time, -1 otherwise
	bytes []z3.AST
}

func (en *encoder) constString(s string) *bstring {
	z := en.z
	b := &bstring{n: z.BVVal(uint64(len(s)), lenBits), fixed: len(s), bytes: make([]z3.AST, len(s))}
	for i := range len(s) {
		b.bytes[i] = z.BVVal(uint64(s[i]), 8)
	}
	return b
}

// has is the condition that position j lies before the end of s.
func (s *bstring) has(z *z3.Context, j int) z3.AST {
	if s.fixed >= 0 || j >= len(s.bytes) {
		return z.Bool(j < s.fixed)
	}
	return z.ULt(z.BVVal(uint64(j), lenBits), s.n)
}

// byteAt is the byte at a position j known at encoding time, 0 beyond the
// bound.
func (s *bstring) byteAt(z *z3.Context, j int) z3.AST {
	if j >= 0 && j < len(s.bytes) {
		return s.bytes[j]
	}
	return z.BVVal(0, 8)
}

// at is the byte at the 64-bit position i; ci is i's value when known at
// encoding time, -1 otherwise. A symbolic position selects through a chain
// of if-then-else over the bound.
func (s *bstring) at(z *z3.Context, i z3.AST, ci int) z3.AST {
	if ci >= 0 {
		return s.byteAt(z, ci)
	}
	r := z.BVVal(0, 8)
	for j := len(s.bytes) - 1; j >= 0; j-- {
		r = z.Ite(z.Eq(i, z.BVVal(uint64(j), lenBits)), s.bytes[j], r)
	}
	return r
}

// slice is s[lo:hi] for 64-bit bounds; clo and chi are their values when
// known at encoding time, -1 otherwise. The run recorded 0 <= lo <= hi <=
// len(s).
func (s *bstring) slice(z *z3.Context, lo z3.AST, clo int, hi z3.AST, chi int) *bstring {
	out := &bstring{n: z.BV(z3.BVSub, hi, lo), fixed: -1}
	if clo >= 0 && chi >= clo {
		out.fixed = chi - clo
	}
	// Invariant: fixed <= len(bytes) whenever fixed >= 0.
	if clo >= 0 {
		if clo < len(s.bytes) {
			out.bytes = s.bytes[clo:]
		}
		switch {
		case out.fixed > len(out.bytes):
			out.fixed = -1 // out of range: the run recorded that it is not
		case out.fixed >= 0:
			out.bytes = out.bytes[:out.fixed]
		}
		return out
	}
	out.bytes = make([]z3.AST, len(s.bytes))
	for j := range out.bytes {
		out.bytes[j] = s.at(z, z.BV(z3.BVAdd, lo, z.BVVal(uint64(j), lenBits)), -1)
	}
	if chi >= 0 && chi < len(out.bytes) {
		out.bytes = out.bytes[:chi]
	}
	return out
}

// concat is a + b.
func concat(z *z3.Context, a, b *bstring) *bstring {
	out := &bstring{n: z.BV(z3.BVAdd, a.n, b.n), fixed: -1, bytes: make([]z3.AST, len(a.bytes)+len(b.bytes))}
	if a.fixed >= 0 && b.fixed >= 0 {
		out.fixed = a.fixed + b.fixed
	}
	if a.fixed >= 0 {
		copy(out.bytes, a.bytes[:a.fixed])
		copy(out.bytes[a.fixed:], b.bytes)
		out.bytes = out.bytes[:a.fixed+len(b.bytes)]
		return out
	}
	for j := range out.bytes {
		fromB := b.at(z, z.BV(z3.BVSub, z.BVVal(uint64(j), lenBits), a.n), -1)
		out.bytes[j] = z.Ite(a.has(z, j), a.byteAt(z, j), fromB)
	}
	return out
}

// iteString is "if c then a else b" for strings.
func iteString(z *z3.Context, c z3.AST, a, b *bstring) *bstring {
	out := &bstring{n: z.Ite(c, a.n, b.n), fixed: -1, bytes: make([]z3.AST, max(len(a.bytes), len(b.bytes)))}
	if a.fixed >= 0 && a.fixed == b.fixed {
		out.fixed = a.fixed
	}
	for j := range out.bytes {
		out.bytes[j] = z.Ite(c, a.byteAt(z, j), b.byteAt(z, j))
	}
	return out
}

// stringsEqual is a == b: equal lengths and equal bytes below the length.
func stringsEqual(z *z3.Context, a, b *bstring) z3.AST {
	if a.fixed >= 0 && b.fixed >= 0 && a.fixed != b.fixed {
		return z.Bool(false)
	}
	parts := []z3.AST{z.Eq(a.n, b.n)}
	for j := range min(len(a.bytes), len(b.bytes)) {
		if a.fixed >= 0 && j >= a.fixed {
			break
		}
		eq := z.Eq(a.bytes[j], b.bytes[j])
		if a.fixed < 0 {
			eq = z.Implies(a.has(z, j), eq)
		}
		parts = append(parts, eq)
	}
	return z.And(parts...)
}

// stringLess is a < b in Go's byte-wise lexicographic order, unrolled over
// the bounds: from the last common position back to the first, "a[j:] <
// b[j:] given equal prefixes" is: a ends at j and b does not, or both go
// on and a[j] < b[j], or a[j] == b[j] and the rest is less.
func stringLess(z *z3.Context, a, b *bstring) z3.AST {
	m := min(len(a.bytes), len(b.bytes))
	mv := z.BVVal(uint64(m), lenBits)
	less := z.And(z.ULe(a.n, mv), z.ULt(mv, b.n))
	for j := m - 1; j >= 0; j-- {
		aHas, bHas := a.has(z, j), b.has(z, j)
		x, y := a.bytes[j], b.bytes[j]
		here := z.Or(z.ULt(x, y), z.And(z.Eq(x, y), less))
		less = z.Or(z.And(z.Not(aHas), bHas), z.And(aHas, bHas, here))
	}
	return less
}
