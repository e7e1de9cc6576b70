package solver

import (
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
	"slices"
)

// This file is the remainders part of the refutation layer (refute.go).
// Hash-bucket code asks, run after run, whether key % 4 == 0 after the
// path has fixed key % 2 == 1, or key % 4 == 2 after key % 2 == 1 across a
// table's growth: contradictions between remainders by different
// constants, which intervals do not see.
//
// A constraint is in this fragment when it reads the inputs only through
// remainders of one term t by constants, t % c (c != 0) or t & (2^k - 1).
// Its truth is then a function of t's sign and of t's residue modulo m,
// the least common multiple of the |c| and 2^k: any value of t gives the
// same truth as its representative, the value between -(m-1) and m-1
// with t's sign and t's residue (Go's % truncates, so
// t % c = sign(t) * (|t| mod |c|), and & takes the residue of the two's
// complement). The layer evaluates the constraint, with Go's semantics,
// on each representative in place of t and remembers the set of
// representatives that satisfy it, per interned term. Constraints about
// one term that together leave no representative prove the query
// unsatisfiable. Evaluation errors count as satisfying.

// maxModulus bounds the modulus m the layer enumerates the
// representatives of (2m-1 of them for a signed term).
const maxModulus = 4096

// residueFact is what the layer knows of one constraint: the term t it
// reads the inputs through, the modulus m, and which representatives of
// t satisfy it (a bit set indexed by representative + (m-1) for a signed
// t, by the representative itself for an unsigned one). ok is false for
// constraints outside the fragment.
type residueFact struct {
	ok      bool
	t       *sym.Expr
	m       uint64
	allowed []uint64
	// rem is set when the constraint has a remainder or a mask at all:
	// only such a constraint can be a fact once fixed terms are
	// constants.
	rem bool
}

// anyRepresentative reports whether some value of a term of kind k
// satisfies every fact. Facts whose moduli together exceed maxModulus are
// checked one by one (each alone may still be empty).
func anyRepresentative(k rt.Kind, fs []residueFact) bool {
	m := uint64(1)
	for _, f := range fs {
		m = lcm(m, f.m)
		if m > maxModulus {
			for _, f := range fs {
				if empty(f.allowed) {
					return false
				}
			}
			return true
		}
	}
	if m-1 > uint64(maxOf(k)) {
		return true // facts of different moduli cannot be combined here
	}
	lo := int64(0)
	if k.Signed() {
		lo = -int64(m - 1)
	}
next:
	for v := lo; v <= int64(m-1); v++ {
		for _, f := range fs {
			if !member(f.allowed, f.index(k, v)) {
				continue next
			}
		}
		return true
	}
	return false
}

// index is the position in f.allowed of the representative of v (itself
// a representative of a multiple of f.m).
func (f residueFact) index(k rt.Kind, v int64) int {
	m := int64(f.m)
	if !k.Signed() {
		return int(v % m)
	}
	return int(v%m + m - 1) // Go's % keeps v's sign
}

// residueFactOf finds the term constraint c reads the inputs through, and
// the set of its representatives that satisfy c. pin, if not nil, gives
// the value of terms the query fixes (their interval is one value): they
// count as constants, divisors included, so that key % n with n fixed to
// 4 is a remainder by 4. Such a fact holds for that query only.
func residueFactOf(c *sym.Expr, pin func(*sym.Expr) (uint64, bool)) residueFact {
	if c.Kind() != rt.KBool || len(c.Vars()) == 0 {
		return residueFact{}
	}
	var t *sym.Expr
	m := uint64(1)
	ok := true
	type pinned struct {
		e *sym.Expr
		v uint64
	}
	var pins []pinned
	fixed := func(e *sym.Expr) (uint64, bool) {
		if pin == nil || len(e.Vars()) == 0 || !e.Kind().Integer() {
			return 0, false
		}
		v, ok := pin(e)
		if ok {
			pins = append(pins, pinned{e, v})
		}
		return v, ok
	}
	visited := map[*sym.Expr]bool{}
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if !ok || len(e.Vars()) == 0 || visited[e] {
			return
		}
		visited[e] = true
		a, mod, is := remainder(e)
		if !is && e.Op() == rt.OpRem && e.Kind().Integer() {
			// A remainder by a term the query fixes.
			if v, isFixed := fixed(e.Arg(1)); isFixed {
				a, mod, is = e.Arg(0), modulus(e.Kind(), v), true
				if mod == 0 || mod > maxModulus {
					ok = false
					return
				}
			}
		}
		if is {
			if t != nil && a != t {
				ok = false
				return
			}
			t, m = a, lcm(m, mod)
			if m > maxModulus {
				ok = false
			}
			return
		}
		if _, isFixed := fixed(e); isFixed {
			return // a constant for this query (remainders are not: their residues are the point)
		}
		if e.Op() == rt.OpInput {
			ok = false // read other than through a remainder
			return
		}
		for i := range e.NumArgs() {
			walk(e.Arg(i))
		}
	}
	walk(c)
	if !ok || t == nil || m-1 > uint64(maxOf(t.Kind())) {
		return residueFact{}
	}
	k := t.Kind()
	lo := int64(0)
	if k.Signed() {
		lo = -int64(m - 1)
	}
	f := residueFact{ok: true, t: t, m: m, allowed: make([]uint64, (int64(m)-1-lo+1+63)/64)}
	in := make([]rt.Value, inputsOf(c))
	for _, p := range pins {
		if p.e == t || slices.Contains(t.Vars(), p.e.Input()) && p.e.Op() == rt.OpInput {
			return residueFact{} // t is read through a fixed input too
		}
		if p.e.Op() == rt.OpInput {
			in[p.e.Input()] = rt.Value{Bits: p.v}
		}
	}
	for v := lo; v <= int64(m-1); v++ {
		ev := sym.NewEvaluator(in)
		for _, p := range pins {
			if p.e.Op() != rt.OpInput {
				ev.Assume(p.e, rt.Value{Bits: p.v})
			}
		}
		bits := uint64(v)
		if w := k.Bits(); w < 64 {
			bits &= 1<<w - 1
		}
		if t.Op() == rt.OpInput {
			in[t.Input()] = rt.Value{Bits: bits}
		} else {
			ev.Assume(t, rt.Value{Bits: bits})
		}
		holds, err := ev.Holds(c)
		if err != nil || holds { // an error: Go would panic, no proof either way
			i := int(v - lo)
			f.allowed[i/64] |= 1 << (i % 64)
		}
	}
	return f
}

// remainder matches t % c (c a non-zero constant) and t & (2^k - 1) of
// an integer kind, returning t and the modulus |c| or 2^k.
func remainder(e *sym.Expr) (*sym.Expr, uint64, bool) {
	k := e.Kind()
	if !k.Integer() || e.NumArgs() != 2 {
		return nil, 0, false
	}
	a, b := e.Arg(0), e.Arg(1)
	switch e.Op() {
	case rt.OpRem:
		if !b.IsConst() {
			return nil, 0, false
		}
		c := modulus(k, b.Bits())
		if c == 0 || c > maxModulus {
			return nil, 0, false
		}
		return a, c, true
	case rt.OpAnd:
		if a.IsConst() {
			a, b = b, a
		}
		if !b.IsConst() {
			return nil, 0, false
		}
		mask := b.Bits()
		if w := k.Bits(); w < 64 {
			mask &= 1<<w - 1
		}
		if mask == 0 || mask&(mask+1) != 0 || mask+1 > maxModulus {
			return nil, 0, false
		}
		return a, mask + 1, true
	}
	return nil, 0, false
}

// modulus is |v| for the bits v of a divisor of kind k (MinInt64 gives
// a modulus above maxModulus).
func modulus(k rt.Kind, v uint64) uint64 {
	if !k.Signed() {
		return truncateBits(k, v)
	}
	s := ordered(k, v)
	if s < 0 {
		return uint64(-s) // MinInt64 stays 1<<63
	}
	return uint64(s)
}

// truncateBits keeps the bits of kind k.
func truncateBits(k rt.Kind, v uint64) uint64 {
	if w := k.Bits(); w < 64 {
		return v & (1<<w - 1)
	}
	return v
}

// maxOf is the largest value of integer kind k.
func maxOf(k rt.Kind) int64 {
	w := k.Bits()
	switch {
	case k.Signed():
		return 1<<(w-1) - 1
	case w >= 63:
		return 1<<63 - 1
	}
	return 1<<w - 1
}

// inputsOf is one more than the largest input index c reads.
func inputsOf(c *sym.Expr) int {
	n := 0
	for _, v := range c.Vars() {
		n = max(n, v+1)
	}
	return n
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b uint64) uint64 { return a / gcd(a, b) * b }

// hasRemainder reports whether e has a remainder or a mask among its
// terms.
func hasRemainder(e *sym.Expr) bool {
	return anyTerm([]*sym.Expr{e}, func(e *sym.Expr) bool {
		return len(e.Vars()) > 0 && (e.Op() == rt.OpRem || e.Op() == rt.OpAnd)
	})
}
