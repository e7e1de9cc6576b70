package solver

import (
	"github.com/dowse-go/dowse/internal/solver/z3"
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// boundedString is the encoding of a byte string whose length is bounded:
// a 64-bit length n and the bytes at positions 0..cap-1, where cap =
// len(bytes) is a bound on n known at encoding time. Bytes at positions
// >= n are irrelevant. Inputs get cap = Leaf.Max; operations derive the
// bound of their result (a concatenation's is the sum), so every string
// term of a query is a fixed set of bit-vectors and the whole query stays
// in QF_BV.
//
// The encoding is written once over the terms of a stringTerms: the core
// builds it of Z3 terms (bstring), and the class search (classes_terms.go)
// of sym terms over the bytes and lengths of a group, so that the search
// decides exactly the formula the core would have.
type boundedString[T any] struct {
	n     T
	fixed int // n when known at encoding time, -1 otherwise
	bytes []T
}

// bstring is a bounded string of Z3 terms.
type bstring = boundedString[z3.AST]

// stringTerms builds the terms the string encoding needs: booleans,
// 64-bit lengths and positions, bytes.
type stringTerms[T any] interface {
	Bool(b bool) T
	Length(v int) T // a 64-bit constant
	Byte(v byte) T
	Eq(a, b T) T
	ULt(a, b T) T // unsigned, of lengths or bytes
	ULe(a, b T) T
	Add(a, b T) T // of lengths, wrapping around
	Sub(a, b T) T
	Ite(c, a, b T) T
	And(ts ...T) T
	Or(a, b T) T
	Not(a T) T
	Implies(a, b T) T
}

// z3Terms builds Z3 terms.
type z3Terms struct{ z *z3.Context }

func (t z3Terms) Bool(b bool) z3.AST         { return t.z.Bool(b) }
func (t z3Terms) Length(v int) z3.AST        { return t.z.BVVal(uint64(v), lenBits) }
func (t z3Terms) Byte(v byte) z3.AST         { return t.z.BVVal(uint64(v), 8) }
func (t z3Terms) Eq(a, b z3.AST) z3.AST      { return t.z.Eq(a, b) }
func (t z3Terms) ULt(a, b z3.AST) z3.AST     { return t.z.ULt(a, b) }
func (t z3Terms) ULe(a, b z3.AST) z3.AST     { return t.z.ULe(a, b) }
func (t z3Terms) Add(a, b z3.AST) z3.AST     { return t.z.BV(z3.BVAdd, a, b) }
func (t z3Terms) Sub(a, b z3.AST) z3.AST     { return t.z.BV(z3.BVSub, a, b) }
func (t z3Terms) Ite(c, a, b z3.AST) z3.AST  { return t.z.Ite(c, a, b) }
func (t z3Terms) And(ts ...z3.AST) z3.AST    { return t.z.And(ts...) }
func (t z3Terms) Or(a, b z3.AST) z3.AST      { return t.z.Or(a, b) }
func (t z3Terms) Not(a z3.AST) z3.AST        { return t.z.Not(a) }
func (t z3Terms) Implies(a, b z3.AST) z3.AST { return t.z.Implies(a, b) }

// symTerms builds sym terms: lengths are uint64, bytes uint8, so the
// comparisons are unsigned.
type symTerms struct{ c *sym.Context }

func (t symTerms) Bool(b bool) *sym.Expr       { return t.c.Bool(b) }
func (t symTerms) Length(v int) *sym.Expr      { return t.c.Const(rt.KUint64, uint64(v)) }
func (t symTerms) Byte(v byte) *sym.Expr       { return t.c.Const(rt.KUint8, uint64(v)) }
func (t symTerms) Eq(a, b *sym.Expr) *sym.Expr { return t.c.Compare(rt.OpEq, a, b) }
func (t symTerms) ULt(a, b *sym.Expr) *sym.Expr {
	return t.c.Compare(rt.OpLt, a, b)
}
func (t symTerms) ULe(a, b *sym.Expr) *sym.Expr { return t.c.Compare(rt.OpLe, a, b) }
func (t symTerms) Add(a, b *sym.Expr) *sym.Expr { return t.c.Binary(rt.OpAdd, a, b) }
func (t symTerms) Sub(a, b *sym.Expr) *sym.Expr { return t.c.Binary(rt.OpSub, a, b) }
func (t symTerms) Ite(c, a, b *sym.Expr) *sym.Expr {
	return t.c.Ite(c, a, b)
}
func (t symTerms) And(ts ...*sym.Expr) *sym.Expr {
	r := t.c.True()
	for _, x := range ts {
		r = t.c.And(r, x)
	}
	return r
}
func (t symTerms) Or(a, b *sym.Expr) *sym.Expr      { return t.c.Or(a, b) }
func (t symTerms) Not(a *sym.Expr) *sym.Expr        { return t.c.Not(a) }
func (t symTerms) Implies(a, b *sym.Expr) *sym.Expr { return t.c.Or(t.c.Not(a), b) }

// constString is the encoding of a constant.
func constString[T any](o stringTerms[T], s string) *boundedString[T] {
	b := &boundedString[T]{n: o.Length(len(s)), fixed: len(s), bytes: make([]T, len(s))}
	for i := range len(s) {
		b.bytes[i] = o.Byte(s[i])
	}
	return b
}

// has is the condition that position j lies before the end of s.
func (s *boundedString[T]) has(o stringTerms[T], j int) T {
	if s.fixed >= 0 || j >= len(s.bytes) {
		return o.Bool(j < s.fixed)
	}
	return o.ULt(o.Length(j), s.n)
}

// byteAt is the byte at a position j known at encoding time, 0 beyond the
// bound.
func (s *boundedString[T]) byteAt(o stringTerms[T], j int) T {
	if j >= 0 && j < len(s.bytes) {
		return s.bytes[j]
	}
	return o.Byte(0)
}

// at is the byte at the 64-bit position i; ci is i's value when known at
// encoding time, -1 otherwise. A symbolic position selects through a chain
// of if-then-else over the bound.
func (s *boundedString[T]) at(o stringTerms[T], i T, ci int) T {
	if ci >= 0 {
		return s.byteAt(o, ci)
	}
	r := o.Byte(0)
	for j := len(s.bytes) - 1; j >= 0; j-- {
		r = o.Ite(o.Eq(i, o.Length(j)), s.bytes[j], r)
	}
	return r
}

// slice is s[lo:hi] for 64-bit bounds; clo and chi are their values when
// known at encoding time, -1 otherwise. The run recorded 0 <= lo <= hi <=
// len(s).
func (s *boundedString[T]) slice(o stringTerms[T], lo T, clo int, hi T, chi int) *boundedString[T] {
	out := &boundedString[T]{n: o.Sub(hi, lo), fixed: -1}
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
	out.bytes = make([]T, len(s.bytes))
	for j := range out.bytes {
		out.bytes[j] = s.at(o, o.Add(lo, o.Length(j)), -1)
	}
	if chi >= 0 && chi < len(out.bytes) {
		out.bytes = out.bytes[:chi]
	}
	return out
}

// concat is a + b.
func concat[T any](o stringTerms[T], a, b *boundedString[T]) *boundedString[T] {
	out := &boundedString[T]{n: o.Add(a.n, b.n), fixed: -1, bytes: make([]T, len(a.bytes)+len(b.bytes))}
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
		fromB := b.at(o, o.Sub(o.Length(j), a.n), -1)
		out.bytes[j] = o.Ite(a.has(o, j), a.byteAt(o, j), fromB)
	}
	return out
}

// iteString is "if c then a else b" for strings.
func iteString[T any](o stringTerms[T], c T, a, b *boundedString[T]) *boundedString[T] {
	out := &boundedString[T]{n: o.Ite(c, a.n, b.n), fixed: -1, bytes: make([]T, max(len(a.bytes), len(b.bytes)))}
	if a.fixed >= 0 && a.fixed == b.fixed {
		out.fixed = a.fixed
	}
	for j := range out.bytes {
		out.bytes[j] = o.Ite(c, a.byteAt(o, j), b.byteAt(o, j))
	}
	return out
}

// stringsEqual is a == b: equal lengths and equal bytes below the length.
func stringsEqual[T any](o stringTerms[T], a, b *boundedString[T]) T {
	if a.fixed >= 0 && b.fixed >= 0 && a.fixed != b.fixed {
		return o.Bool(false)
	}
	parts := []T{o.Eq(a.n, b.n)}
	for j := range min(len(a.bytes), len(b.bytes)) {
		if a.fixed >= 0 && j >= a.fixed {
			break
		}
		eq := o.Eq(a.bytes[j], b.bytes[j])
		if a.fixed < 0 {
			eq = o.Implies(a.has(o, j), eq)
		}
		parts = append(parts, eq)
	}
	return o.And(parts...)
}

// stringLess is a < b in Go's byte-wise lexicographic order, unrolled over
// the bounds: from the last common position back to the first, "a[j:] <
// b[j:] given equal prefixes" is: a ends at j and b does not, or both go
// on and a[j] < b[j], or a[j] == b[j] and the rest is less.
func stringLess[T any](o stringTerms[T], a, b *boundedString[T]) T {
	m := min(len(a.bytes), len(b.bytes))
	mv := o.Length(m)
	less := o.And(o.ULe(a.n, mv), o.ULt(mv, b.n))
	for j := m - 1; j >= 0; j-- {
		aHas, bHas := a.has(o, j), b.has(o, j)
		x, y := a.bytes[j], b.bytes[j]
		here := o.Or(o.ULt(x, y), o.And(o.Eq(x, y), less))
		less = o.Or(o.And(o.Not(aHas), bHas), o.And(aHas, bHas, here))
	}
	return less
}
