package solver

import (
	"context"
	"math/big"
	"time"

	"github.com/dowse-go/dowse/internal/solver/z3"
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// The relaxation: refuting queries with dividers over the integers.
//
// A hash table's path conditions are mostly comparisons of remainders by
// an input (key % n, with n the table's size), and most of the queries a
// search asks about them are infeasible: the bounds check of the bucket
// index (uint64(key % n) >= uint64(n) with n > 0), a bucket choice
// (key % n == 35993) under n*3 < 8. Bit-blasted, each remainder of two
// 64-bit inputs is a divider circuit, and refuting such a query took Z3
// up to 1.7 s; none of those refutations needs more than what every
// remainder satisfies whatever its operands: it is smaller than the
// divisor in magnitude and has the dividend's sign.
//
// relaxedQuery analyses a query as the linear layer does, except that
// each division, remainder by a non-constant and product of two unknowns
// becomes a fresh integer variable constrained only by facts that hold
// for every value of its operands under the bit-vector encoding's
// semantics (division by zero included), and by congruence (equal
// operands, equal results). Every solution of the query is then a
// solution of the relaxed query, so a relaxed query without solution
// proves the query infeasible; a relaxed solution proves nothing, and the
// query is decided as before. The relaxation never answers Sat and never
// gives a model.

// maxAbstract bounds the fresh variables of a relaxed query (their
// congruence facts grow with its square).
const maxAbstract = 16

// relaxedQuery reports whether q, with its dividers and products of
// unknowns replaced by fresh variables, is a linear query (see above);
// false also when q has none of them.
func relaxedQuery(q Query) (*linear, bool) {
	l, ok := analyzeWith(q, nil, true, nil)
	return l, ok && len(l.abstract) > 0
}

// narrowNe narrows the bounds of an input that the atom says differs
// from an end of its range.
func (l *linear) narrowNe(a *sym.Expr) {
	neg := false
	if a.Op() == rt.OpNot {
		neg, a = true, a.Arg(0)
	}
	op := a.Op()
	if neg {
		op = sym.Negate(op)
	}
	if op != rt.OpNe || !a.K2().Integer() {
		return
	}
	x, c := a.Arg(0), a.Arg(1)
	if x.Op() == rt.OpConst {
		x, c = c, x
	}
	if x.Op() != rt.OpInput || c.Op() != rt.OpConst {
		return
	}
	v := value(a.K2(), c.Bits())
	b, ok := l.bounds[x.Input()]
	if !ok {
		return
	}
	one := big.NewInt(1)
	switch {
	case b.lo.Cmp(v) == 0:
		b = interval{new(big.Int).Add(b.lo, one), b.hi}
	case b.hi.Cmp(v) == 0:
		b = interval{b.lo, new(big.Int).Sub(b.hi, one)}
	}
	l.bounds[x.Input()] = b
}

// abstractTerm gives the division, remainder or product e a fresh
// variable in the relaxed query, with the range its operands' ranges
// allow.
func (l *linear) abstractTerm(e *sym.Expr) (interval, bool) {
	a, ok1 := l.integer(e.Arg(0))
	b, ok2 := l.integer(e.Arg(1))
	if !ok1 || !ok2 {
		return interval{}, false
	}
	if len(l.abstract) == maxAbstract {
		l.nonlinear = true
		return interval{}, false
	}
	k := e.Kind()
	r := kindRange(k)
	zero, one := big.NewInt(0), big.NewInt(1)
	if e.Op() == rt.OpRem {
		// Between 0 and the dividend (division by zero gives the dividend),
		// and below the divisor's largest magnitude if it cannot be 0.
		r = intersect(r, interval{minBig(zero, a.lo), maxBig(zero, a.hi)})
		if b.lo.Sign() > 0 || b.hi.Sign() < 0 {
			m := maxBig(new(big.Int).Abs(b.lo), new(big.Int).Abs(b.hi))
			m.Sub(m, one)
			r = intersect(r, interval{new(big.Int).Neg(m), m})
		}
	}
	if l.isAbs == nil {
		l.isAbs = map[*sym.Expr]bool{}
	}
	l.isAbs[e] = true
	l.abstract = append(l.abstract, e)
	return r, true
}

func minBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) < 0 {
		return a
	}
	return b
}

func maxBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) > 0 {
		return a
	}
	return b
}

// absVar is a fresh variable of a relaxed query, with its term and its
// operands' encodings.
type absVar struct {
	e       *sym.Expr
	v, a, b z3.AST
}

// abstractVar encodes the abstracted term e as a fresh variable with the
// facts every value of its operands satisfies (bit-vector semantics:
// x / 0 is -1 or 1 for signed x, all ones unsigned; x % 0 is x).
func (en *linEncoder) abstractVar(e *sym.Expr) (z3.AST, error) {
	a, err := en.encode(e.Arg(0))
	if err != nil {
		return z3.AST{}, err
	}
	b, err := en.encode(e.Arg(1))
	if err != nil {
		return z3.AST{}, err
	}
	z := en.z
	v := z.IntVar()
	r := en.l.terms[e]
	zero, one := z.IntVal(big.NewInt(0)), z.IntVal(big.NewInt(1))
	facts := []z3.AST{z.Le(z.IntVal(r.lo), v), z.Le(v, z.IntVal(r.hi))}
	signed := e.Kind().Signed()
	switch e.Op() {
	case rt.OpRem:
		bZero := z.Eq(b, zero)
		facts = append(facts,
			z.Implies(bZero, z.Eq(v, a)),
			z.Implies(z.Le(zero, a), z.And(z.Le(zero, v), z.Le(v, a))),
			z.Implies(z.Le(a, zero), z.And(z.Le(a, v), z.Le(v, zero))),
			z.Implies(z.Lt(zero, b), z.And(z.Lt(v, b), z.Lt(z.IntNeg(b), v))))
		if signed {
			facts = append(facts, z.Implies(z.Lt(b, zero), z.And(z.Lt(b, v), z.Lt(v, z.IntNeg(b)))))
		}
	case rt.OpQuo:
		// A quotient by a positive divisor lies between 0 and the
		// dividend.
		facts = append(facts,
			z.Implies(z.And(z.Le(one, b), z.Le(zero, a)), z.And(z.Le(zero, v), z.Le(v, a))),
			z.Implies(z.And(z.Le(one, b), z.Le(a, zero)), z.And(z.Le(a, v), z.Le(v, zero))))
	case rt.OpMul:
		facts = append(facts, z.Implies(z.Or(z.Eq(a, zero), z.Eq(b, zero)), z.Eq(v, zero)))
	}
	en.domain = append(en.domain, facts...)
	en.abs = append(en.abs, absVar{e: e, v: v, a: a, b: b})
	en.memo[e] = v
	return v, nil
}

// congruence adds, for every two abstracted terms of one operator and
// kind, that equal operands give equal results.
func (en *linEncoder) congruence() {
	z := en.z
	for i, x := range en.abs {
		for _, y := range en.abs[i+1:] {
			if x.e.Op() != y.e.Op() || x.e.Kind() != y.e.Kind() {
				continue
			}
			same := z.And(z.Eq(x.a, y.a), z.Eq(x.b, y.b))
			if x.e.Op() == rt.OpMul {
				same = z.Or(same, z.And(z.Eq(x.a, y.b), z.Eq(x.b, y.a)))
			}
			en.domain = append(en.domain, z.Implies(same, z.Eq(x.v, y.v)))
		}
	}
}

// maxPins bounds the values of a query's divisors divisorSearch tries.
const maxPins = 16

// divisorSearch decides q, a query with divisions by inputs whose
// relaxation l is linear, by the values of its divisors' inputs
// (divisorInputs), or reports that it cannot (decided false: the query is
// then decided as before). Every solution of q is a solution of l, and
// with its divisors' inputs fixed, q is linear and decided exactly over
// the integers (pinned). So:
//
//   - l without solution: q has none (Stats.Relaxed);
//   - otherwise the divisors' inputs are fixed to their seed values, then
//     to the values of successive solutions of l, each new: a fixed q
//     with a solution gives q's model, kept only if every constraint
//     holds on it by evaluation; a fixed q without one excludes those
//     values from l, and l left without solution proves q has none
//     (Stats.Pinned).
//
// The divisors a query allows are often few (a table's size between two
// growth thresholds): then q is decided in a few linear checks, where
// bit-blasting its 64-bit dividers took up to seconds. At most maxPins
// values are tried, all checks within half the query's time bound.
//
// seedSearch is the small search's answer for the seed's divisors, which
// solve asks before (core_pinsearch.go): Unsat, or Unknown (undecided, or the
// search off), when Z3 decides that fixed query.
func (s *Z3) divisorSearch(ctx context.Context, z *z3.Context, q Query, l *linear, timeout time.Duration, seedSearch Status) (res Result, decided bool) {
	deadline := time.Now().Add(timeout / 2)
	ins := divisorInputs(q.Constraints)
	seed := seedPins(q, ins)
	// The seed's divisors first, before the relaxation is set up: a table
	// keeps its size, and the fixed query is often all there is to solve.
	st := seedSearch
	if st != Unsat {
		var res Result
		res, st, _ = s.pinned(ctx, z, q, seed, false)
		if st == Sat {
			s.countPinned(false)
			return res, true
		}
	}
	// Then divisors next to the seed's, by the small search alone: a
	// table one growth away (n*2, n/2) or one element off.
	if !s.opts.NoPinSearch && st == Unsat {
		if model, ok := nearPins(q, ins, seed); ok {
			s.countPinned(true)
			return Result{Status: Sat, Model: model}, true
		}
	}
	en := &linEncoder{z: z, l: l, memo: map[*sym.Expr]z3.AST{}, vars: map[int]z3.AST{}}
	var formulas []z3.AST
	for _, c := range q.Constraints {
		f, err := en.encode(c)
		if err != nil {
			return Result{}, false
		}
		formulas = append(formulas, f)
	}
	en.congruence()
	for _, i := range ins {
		if _, ok := en.vars[i]; !ok {
			return Result{}, false
		}
	}
	sv, err := s.limitedSolver(z, &s.relax)
	if err != nil {
		return Result{}, false
	}
	sv.Push()
	defer sv.Pop(1)
	if !assertAll(z, sv, formulas, en.domain) {
		return Result{}, false
	}
	interrupt, done := interrupter(z)
	defer done()
	stop := context.AfterFunc(ctx, interrupt)
	defer stop()

	// exclude removes the pinned values from the relaxation.
	exclude := func(pins map[int]*big.Int) {
		eqs := make([]z3.AST, 0, len(ins))
		for _, i := range ins {
			eqs = append(eqs, z.Eq(en.vars[i], z.IntVal(pins[i])))
		}
		sv.Assert(z.Not(z.And(eqs...)))
	}
	seedTried := false // the seed's divisors were excluded
	if st == Unsat {
		exclude(seed)
		seedTried = true
	}
	for try := 1; try <= maxPins; try++ {
		left := time.Until(deadline)
		if left <= 0 || ctx.Err() != nil {
			return Result{}, false
		}
		r, err := sv.Check()
		if err != nil || ctx.Err() != nil || r == z3.Unknown {
			return Result{}, false
		}
		if r == z3.Unsat {
			if try == 1 && !seedTried {
				s.opts.Metrics.add(func(st *Stats) { st.Relaxed++ })
			} else {
				s.opts.Metrics.add(func(st *Stats) { st.Pinned++ })
			}
			return Result{Status: Unsat}, true
		}
		m, err := sv.Model()
		if err != nil {
			return Result{}, false
		}
		pins := map[int]*big.Int{}
		for _, i := range ins {
			n, err := m.BigInt(en.vars[i])
			if err != nil {
				m.Close()
				return Result{}, false
			}
			pins[i] = n
		}
		m.Close()
		res, st, searched := s.pinned(ctx, z, q, pins, true)
		switch {
		case st == Sat:
			s.countPinned(searched)
			return res, true
		case st == Unsat:
			exclude(pins)
		default:
			return Result{}, false
		}
	}
	return Result{}, false
}

// pinned decides q with the given inputs fixed, exactly over the
// integers: Sat with a model that holds by evaluation, Unsat, or Unknown
// when the fixed query is not linear, its model does not hold (which
// would be a bug) or time runs out.
// The small search (core_pinsearch.go) goes first if search is set; searched
// reports an answer of it, which asked Z3 nothing.
func (s *Z3) pinned(ctx context.Context, z *z3.Context, q Query, pins map[int]*big.Int, search bool) (res Result, st Status, searched bool) {
	if search && !s.opts.NoPinSearch {
		switch model, st := pinnedSearch(q, pins); st {
		case Sat:
			return Result{Status: Sat, Model: model}, Sat, true
		case Unsat:
			return Result{Status: Unsat}, Unsat, true
		}
	}
	l, ok := analyzeWith(q, nil, false, pins)
	if !ok {
		return Result{}, Unknown, false
	}
	res, err := s.boundedLinear(ctx, z, q, l)
	switch {
	case err != nil || ctx.Err() != nil || res.Status == Unknown:
		return Result{}, Unknown, false
	case res.Status == Unsat:
		return res, Unsat, false
	case !holdsAll(sym.NewEvaluator(res.Model), q.Constraints) || inDomain(q.Leaves, res.Model) != nil:
		return Result{}, Unknown, false
	}
	return res, Sat, false
}

// countPinned counts a query the divisors' search answered with a fixed
// query's model, found by the small search or by Z3.
func (s *Z3) countPinned(searched bool) {
	s.opts.Metrics.add(func(st *Stats) {
		if searched {
			st.PinSearched++
		} else {
			st.Pinned++
		}
	})
}

// divisorInputs lists, in order, the integer inputs of the divisors of
// q's divisions and remainders by terms that are not constants.
func divisorInputs(cs []*sym.Expr) []int {
	seen := map[*sym.Expr]bool{}
	in := map[int]bool{}
	var out []int
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if seen[e] {
			return
		}
		seen[e] = true
		if op := e.Op(); (op == rt.OpQuo || op == rt.OpRem) && !e.Arg(1).IsConst() {
			var inputs func(e *sym.Expr)
			inputs = func(e *sym.Expr) {
				if e.Op() == rt.OpInput && e.Kind().Integer() && !in[e.Input()] {
					in[e.Input()] = true
					out = append(out, e.Input())
				}
				for i := range e.NumArgs() {
					inputs(e.Arg(i))
				}
			}
			inputs(e.Arg(1))
		}
		for i := range e.NumArgs() {
			walk(e.Arg(i))
		}
	}
	for _, c := range cs {
		walk(c)
	}
	return out
}

// division analyses a / d or a % d whose divisor d has one known value
// (a constant, or a term of pinned inputs): known reports that it has
// one, and ok that the operation is then linear — encoded exactly, as
// a = d·q + r with the remainder r between 0 and the dividend and below
// |d| (Go's truncated division), without wrap-around (a quotient that
// could leave its kind, MinInt / -1, is not linear).
func (l *linear) division(e *sym.Expr) (r interval, ok, known bool) {
	b, okb := l.integer(e.Arg(1))
	if !okb || b.lo.Cmp(b.hi) != 0 {
		return interval{}, false, false
	}
	d := b.lo
	if d.Sign() == 0 {
		r, ok = l.notLinear()
		return r, ok, true
	}
	a, oka := l.integer(e.Arg(0))
	if !oka {
		return interval{}, false, true
	}
	if e.Op() == rt.OpRem {
		m := new(big.Int).Abs(d)
		m.Sub(m, big.NewInt(1))
		r = intersect(interval{minBig(big.NewInt(0), a.lo), maxBig(big.NewInt(0), a.hi)}, interval{new(big.Int).Neg(m), m})
	} else {
		lo, hi := new(big.Int).Quo(a.lo, d), new(big.Int).Quo(a.hi, d)
		if lo.Cmp(hi) > 0 {
			lo, hi = hi, lo
		}
		r = interval{lo, hi}
		if !r.within(kindRange(e.Kind())) {
			r, ok = l.notLinear()
			return r, ok, true
		}
	}
	if l.divs == nil {
		l.divs = map[*sym.Expr]*big.Int{}
	}
	l.divs[e] = d
	return r, true, true
}

// division encodes a / d or a % d for the divisor's one value d: a fresh
// quotient q with r = a - d·q between 0 and a, and |r| < |d|.
func (en *linEncoder) division(e *sym.Expr, d *big.Int) (z3.AST, error) {
	a, err := en.encode(e.Arg(0))
	if err != nil {
		return z3.AST{}, err
	}
	z := en.z
	q := z.IntVar()
	r := z.Int(z3.IntSub, a, z.Int(z3.IntMul, z.IntVal(d), q))
	m := new(big.Int).Abs(d)
	m.Sub(m, big.NewInt(1))
	zero := z.IntVal(big.NewInt(0))
	en.domain = append(en.domain,
		z.Implies(z.Le(zero, a), z.And(z.Le(zero, r), z.Le(r, z.IntVal(m)))),
		z.Implies(z.Lt(a, zero), z.And(z.Le(z.IntVal(new(big.Int).Neg(m)), r), z.Le(r, zero))))
	t := q
	if e.Op() == rt.OpRem {
		t = r
	}
	en.memo[e] = t
	return t, nil
}
