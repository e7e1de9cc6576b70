package solver

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/dowse-go/dowse/internal/solver/z3"
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// The linear layer.
//
// Go's integers wrap around, so a path condition is a bit-vector formula,
// and Z3 decides bit-vector arithmetic by bit-blasting: a few comparisons
// of sums and differences of 64-bit inputs can take it a second to refute
// (the triangle's "c <= b-a && a > b-c" with every side positive), where
// integer linear arithmetic refutes them at once. The two agree exactly
// when no arithmetic term of the query can wrap around: then every term
// has the same value as a Go integer and as a mathematical integer.
//
// linearQuery decides that with interval arithmetic: each input ranges
// over its kind (a length over 0..Max), narrowed by the query's top-level
// comparisons of an input with a constant (which every solution
// satisfies); each sum, difference, negation, product with a constant and
// conversion either stays within the range of its kind for every value of
// those intervals, and is encoded as the integer operation, or may leave
// it, and is encoded with an explicit wrap-around: Go's result is the one
// value of the kind's range congruent to the mathematical result modulo
// 2^width, so the term becomes raw - 2^width·m for a fresh integer m,
// with the result constrained to the kind's range (which fixes m). Either
// way the query has exactly the same solutions over the integers (with
// each input bounded by its kind), and the linear encoding answers it:
// same satisfiability, and models that are models of the bit-vector query
// too. A query with more than maxWraps such terms goes to the bit-vector
// encoding (a chain of wrapping products, a hash, is what bit-blasting
// does well). Divisions, remainders, shifts, bitwise operators, products
// of two unknowns and strings are not linear; such queries go to the
// bit-vector encoding.

// interval is a closed range of integers; lo > hi is empty.
type interval struct{ lo, hi *big.Int }

// kindRange is the range of values of integer kind k.
func kindRange(k rt.Kind) interval {
	w := uint(k.Bits())
	if k.Signed() {
		hi := new(big.Int).Lsh(big.NewInt(1), w-1)
		lo := new(big.Int).Neg(hi)
		return interval{lo, hi.Sub(hi, big.NewInt(1))}
	}
	hi := new(big.Int).Lsh(big.NewInt(1), w)
	return interval{big.NewInt(0), hi.Sub(hi, big.NewInt(1))}
}

func (a interval) within(b interval) bool { return a.lo.Cmp(b.lo) >= 0 && a.hi.Cmp(b.hi) <= 0 }

// value is the integer a constant's bits stand for in kind k.
func value(k rt.Kind, bits uint64) *big.Int {
	if k.Signed() {
		return big.NewInt(sym.SignExtend(k, bits))
	}
	return new(big.Int).SetUint64(sym.Truncate(k, bits))
}

// linear is the analysis of a query that can be decided over the
// integers.
type linear struct {
	leaves []rt.Leaf
	box    *big.Int         // if not nil, inputs range over -box..box only (see boxQuery)
	domain map[int]interval // inputs: their kind's range (within the box)
	bounds map[int]interval // inputs: their domain, narrowed by the query
	terms  map[*sym.Expr]interval
	// wraps holds the terms that may wrap around, with the range of their
	// mathematical values: the encoding makes the wrap-around explicit.
	wraps map[*sym.Expr]interval
	// Memos: terms are DAGs (a parser's selections share their operands
	// many times over), so every walk visits a term once.
	seen  map[*sym.Expr]bool // inputs: terms walked
	bools map[*sym.Expr]bool // boolean: the answer per term
	bad   map[*sym.Expr]bool // integer: terms found not linear
	// nonlinear is set when the query fails for another reason than a
	// term that may wrap around: then no box makes it linear.
	nonlinear bool
	// relax makes the analysis replace divisions, remainders and products
	// of unknowns by fresh variables (core_relax.go); abstract holds those
	// terms in the order found, with their ranges in terms.
	relax    bool
	abstract []*sym.Expr
	isAbs    map[*sym.Expr]bool
	// divs holds the divisions and remainders by a term of one known
	// value, encoded exactly (a = d·q + r); pins fixes inputs to values
	// (pinnedQuery).
	divs map[*sym.Expr]*big.Int
	pins map[int]*big.Int
}

// notLinear records that the term at hand is not linear (an operator or
// kind the encoding does not have) and fails it.
func (l *linear) notLinear() (interval, bool) {
	l.nonlinear = true
	return interval{}, false
}

// linearQuery reports whether q can be decided over the integers (see
// above). When it cannot, the analysis still says whether only terms that
// may wrap stood in the way (nonlinear false): then a box may help.
func linearQuery(q Query) (*linear, bool) { return analyze(q, nil) }

// boxQuery reports whether q restricted to inputs of magnitude at most
// box is linear and cannot wrap around within that box. A model of the
// restricted query is then a model of q itself (small values, which make
// readable tests); no model says nothing about q.
func boxQuery(q Query, box *big.Int) (*linear, bool) { return analyze(q, box) }

func analyze(q Query, box *big.Int) (*linear, bool) { return analyzeWith(q, box, false, nil) }

func analyzeWith(q Query, box *big.Int, relax bool, pins map[int]*big.Int) (*linear, bool) {
	l := &linear{leaves: q.Leaves, box: box, domain: map[int]interval{}, bounds: map[int]interval{}, terms: map[*sym.Expr]interval{}, wraps: map[*sym.Expr]interval{},
		seen: map[*sym.Expr]bool{}, bools: map[*sym.Expr]bool{}, bad: map[*sym.Expr]bool{}, relax: relax, pins: pins}
	var atoms []*sym.Expr
	for _, c := range q.Constraints {
		atoms = conjuncts(c, atoms)
	}
	for _, a := range atoms {
		if !l.inputs(a) {
			return l, false
		}
	}
	for _, a := range atoms {
		l.narrow(a)
	}
	if relax {
		// A disequality with an end of an input's range narrows it too
		// (x >= 0 && x != 0: x >= 1), once the other atoms have.
		for _, a := range atoms {
			l.narrowNe(a)
		}
	}
	for _, a := range atoms {
		if !l.boolean(a) {
			return l, false
		}
	}
	return l, true
}

// conjuncts appends the top-level conjuncts of e to out.
func conjuncts(e *sym.Expr, out []*sym.Expr) []*sym.Expr {
	if e.Op() == rt.OpLAnd {
		return conjuncts(e.Arg(1), conjuncts(e.Arg(0), out))
	}
	return append(out, e)
}

// inputs gives every integer input of e its domain, and reports false if
// e mentions an input the linear encoding cannot hold (a string).
func (l *linear) inputs(e *sym.Expr) bool {
	if l.seen[e] {
		return true // walked already, and found fine (a failure ends the walk)
	}
	l.seen[e] = true
	if e.Op() == rt.OpInput {
		i := e.Input()
		if i >= len(l.leaves) || l.leaves[i].K != e.Kind() {
			l.nonlinear = true
			return false
		}
		switch k := e.Kind(); {
		case k == rt.KBool:
			return true
		case k.Integer():
			if _, ok := l.bounds[i]; !ok {
				r := kindRange(k)
				if leaf := l.leaves[i]; leaf.IsLen {
					r = intersect(r, interval{big.NewInt(0), big.NewInt(int64(max(leaf.Max, 0)))})
				}
				if l.box != nil {
					r = intersect(r, interval{new(big.Int).Neg(l.box), l.box})
				}
				if v, ok := l.pins[i]; ok {
					r = intersect(r, interval{v, v})
				}
				l.domain[i], l.bounds[i] = r, r
			}
			return true
		}
		l.nonlinear = true // a string
		return false
	}
	for i := 0; i < e.NumArgs(); i++ {
		if !l.inputs(e.Arg(i)) {
			return false
		}
	}
	return true
}

func intersect(a, b interval) interval {
	lo, hi := a.lo, a.hi
	if b.lo.Cmp(lo) > 0 {
		lo = b.lo
	}
	if b.hi.Cmp(hi) < 0 {
		hi = b.hi
	}
	return interval{lo, hi}
}

// narrow narrows the bounds of an input that the atom compares with a
// constant: every solution of the query satisfies the atom.
func (l *linear) narrow(a *sym.Expr) {
	neg := false
	if a.Op() == rt.OpNot {
		neg, a = true, a.Arg(0)
	}
	op := a.Op()
	if op < rt.OpEq || op > rt.OpGe || !a.K2().Integer() {
		return
	}
	x, c := a.Arg(0), a.Arg(1)
	if x.Op() == rt.OpConst && c.Op() == rt.OpInput {
		x, c = c, x
		op = sym.Mirror(op)
	}
	if x.Op() != rt.OpInput || c.Op() != rt.OpConst {
		return
	}
	if neg {
		op = sym.Negate(op)
	}
	v := value(a.K2(), c.Bits())
	b := l.bounds[x.Input()]
	one := big.NewInt(1)
	switch op {
	case rt.OpEq:
		b = intersect(b, interval{v, v})
	case rt.OpLt:
		b = intersect(b, interval{b.lo, new(big.Int).Sub(v, one)})
	case rt.OpLe:
		b = intersect(b, interval{b.lo, v})
	case rt.OpGt:
		b = intersect(b, interval{new(big.Int).Add(v, one), b.hi})
	case rt.OpGe:
		b = intersect(b, interval{v, b.hi})
	}
	l.bounds[x.Input()] = b
}

// boolean reports whether the bool term e is linear and none of its
// integer subterms can wrap around.
func (l *linear) boolean(e *sym.Expr) bool {
	if ok, done := l.bools[e]; done {
		return ok
	}
	ok := l.booleanOf(e)
	l.bools[e] = ok
	return ok
}

func (l *linear) booleanOf(e *sym.Expr) bool {
	switch e.Op() {
	case rt.OpConst, rt.OpInput:
		return e.Kind() == rt.KBool
	case rt.OpNot:
		return l.boolean(e.Arg(0))
	case rt.OpLAnd, rt.OpLOr:
		return l.boolean(e.Arg(0)) && l.boolean(e.Arg(1))
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		switch k := e.K2(); {
		case k == rt.KBool && (e.Op() == rt.OpEq || e.Op() == rt.OpNe):
			return l.boolean(e.Arg(0)) && l.boolean(e.Arg(1))
		case k.Integer():
			_, ok1 := l.integer(e.Arg(0))
			_, ok2 := l.integer(e.Arg(1))
			return ok1 && ok2
		}
		l.nonlinear = true
		return false
	case rt.OpIte:
		if e.Kind() != rt.KBool {
			l.nonlinear = true
			return false
		}
		return l.boolean(e.Arg(0)) && l.boolean(e.Arg(1)) && l.boolean(e.Arg(2))
	}
	l.nonlinear = true
	return false
}

// integer returns the range of the integer term e, and false if e is not
// linear or may wrap around.
func (l *linear) integer(e *sym.Expr) (interval, bool) {
	if r, ok := l.terms[e]; ok {
		return r, true
	}
	if l.bad[e] {
		return interval{}, false
	}
	r, ok := l.integerOf(e)
	if !ok {
		l.bad[e] = true
		return interval{}, false
	}
	l.terms[e] = r
	return r, true
}

func (l *linear) integerOf(e *sym.Expr) (interval, bool) {
	k := e.Kind()
	if !k.Integer() {
		return l.notLinear()
	}
	var r interval
	switch e.Op() {
	case rt.OpConst:
		v := value(k, e.Bits())
		r = interval{v, v}
	case rt.OpInput:
		b, ok := l.bounds[e.Input()]
		if !ok {
			return l.notLinear()
		}
		r = b
	case rt.OpAdd, rt.OpSub:
		a, ok1 := l.integer(e.Arg(0))
		b, ok2 := l.integer(e.Arg(1))
		if !ok1 || !ok2 {
			return interval{}, false
		}
		if e.Op() == rt.OpAdd {
			r = interval{new(big.Int).Add(a.lo, b.lo), new(big.Int).Add(a.hi, b.hi)}
		} else {
			r = interval{new(big.Int).Sub(a.lo, b.hi), new(big.Int).Sub(a.hi, b.lo)}
		}
	case rt.OpNeg:
		a, ok := l.integer(e.Arg(0))
		if !ok {
			return interval{}, false
		}
		r = interval{new(big.Int).Neg(a.hi), new(big.Int).Neg(a.lo)}
	case rt.OpMul:
		x, c := e.Arg(0), e.Arg(1)
		if x.Op() == rt.OpConst {
			x, c = c, x
		}
		if c.Op() != rt.OpConst {
			if l.relax {
				return l.abstractTerm(e)
			}
			return l.notLinear() // a product of unknowns
		}
		a, ok := l.integer(x)
		if !ok {
			return interval{}, false
		}
		v := value(k, c.Bits())
		p, q := new(big.Int).Mul(a.lo, v), new(big.Int).Mul(a.hi, v)
		if p.Cmp(q) > 0 {
			p, q = q, p
		}
		r = interval{p, q}
	case rt.OpConv:
		if !e.K2().Integer() {
			return l.notLinear()
		}
		a, ok := l.integer(e.Arg(0))
		if !ok {
			return interval{}, false
		}
		r = a // value-preserving if it fits k (checked below)
	case rt.OpIte:
		if !l.boolean(e.Arg(0)) {
			return interval{}, false
		}
		a, ok1 := l.integer(e.Arg(1))
		b, ok2 := l.integer(e.Arg(2))
		if !ok1 || !ok2 {
			return interval{}, false
		}
		r = interval{a.lo, a.hi}
		if b.lo.Cmp(r.lo) < 0 {
			r.lo = b.lo
		}
		if b.hi.Cmp(r.hi) > 0 {
			r.hi = b.hi
		}
	case rt.OpQuo, rt.OpRem:
		if r, ok, known := l.division(e); known {
			if !ok {
				return interval{}, false
			}
			return r, true
		}
		if !l.relax {
			return l.notLinear()
		}
		return l.abstractTerm(e)
	default:
		return l.notLinear()
	}
	if kr := kindRange(k); r.lo.Cmp(r.hi) <= 0 && !r.within(kr) {
		// May wrap around: within a box the query is not linear; otherwise
		// the encoding makes the wrap-around explicit, for at most maxWraps
		// terms.
		if l.box != nil || len(l.wraps) == maxWraps {
			return interval{}, false
		}
		l.wraps[e] = r
		return kr, true
	}
	return r, true
}

// maxWraps bounds the terms with an explicit wrap-around in a query the
// linear layer decides.
const maxWraps = 16

// linEncoder translates the terms of a linear query into Z3 integer and
// Boolean terms.
type linEncoder struct {
	z      *z3.Context
	l      *linear
	memo   map[*sym.Expr]z3.AST
	vars   map[int]z3.AST
	order  []int // inputs in creation order, for deterministic models
	domain []z3.AST
	abs    []absVar // the relaxation's fresh variables (core_relax.go)
}

func (en *linEncoder) encode(e *sym.Expr) (z3.AST, error) {
	if t, ok := en.memo[e]; ok {
		return t, nil
	}
	z := en.z
	var t z3.AST
	switch e.Op() {
	case rt.OpConst:
		if e.Kind() == rt.KBool {
			t = z.Bool(e.Bits()&1 == 1)
		} else {
			t = z.IntVal(value(e.Kind(), e.Bits()))
		}
		en.memo[e] = t
		return t, nil
	case rt.OpQuo, rt.OpRem, rt.OpMul:
		if en.l.isAbs[e] {
			return en.abstractVar(e)
		}
		if d, ok := en.l.divs[e]; ok {
			return en.division(e, d)
		}
	case rt.OpInput:
		i := e.Input()
		v, ok := en.vars[i]
		if !ok {
			if e.Kind() == rt.KBool {
				v = z.BoolVar()
			} else {
				v = z.IntVar()
				r := en.l.domain[i]
				en.domain = append(en.domain, z.Le(z.IntVal(r.lo), v), z.Le(v, z.IntVal(r.hi)))
			}
			en.vars[i] = v
			en.order = append(en.order, i)
		}
		en.memo[e] = v
		return v, nil
	}
	args := make([]z3.AST, e.NumArgs())
	for i := range args {
		a, err := en.encode(e.Arg(i))
		if err != nil {
			return t, err
		}
		args[i] = a
	}
	switch e.Op() {
	case rt.OpConv:
		t = args[0] // value-preserving: checked by linearQuery
	case rt.OpNot:
		t = z.Not(args[0])
	case rt.OpNeg:
		t = z.IntNeg(args[0])
	case rt.OpIte:
		t = z.Ite(args[0], args[1], args[2])
	case rt.OpAdd:
		t = z.Int(z3.IntAdd, args[0], args[1])
	case rt.OpSub:
		t = z.Int(z3.IntSub, args[0], args[1])
	case rt.OpMul:
		t = z.Int(z3.IntMul, args[0], args[1])
	case rt.OpLAnd:
		t = z.And(args[0], args[1])
	case rt.OpLOr:
		t = z.Or(args[0], args[1])
	case rt.OpEq:
		t = z.Eq(args[0], args[1])
	case rt.OpNe:
		t = z.Not(z.Eq(args[0], args[1]))
	case rt.OpLt:
		t = z.Lt(args[0], args[1])
	case rt.OpLe:
		t = z.Le(args[0], args[1])
	case rt.OpGt:
		t = z.Lt(args[1], args[0])
	case rt.OpGe:
		t = z.Le(args[1], args[0])
	default:
		return t, fmt.Errorf("linear encoding of %v", e.Op())
	}
	if _, ok := en.l.wraps[e]; ok {
		// Go's value: raw - 2^width·m, the one within the kind's range.
		k := e.Kind()
		m := z.IntVar()
		t = z.Int(z3.IntSub, t, z.Int(z3.IntMul, z.IntVal(new(big.Int).Lsh(big.NewInt(1), uint(k.Bits()))), m))
		r := kindRange(k)
		en.domain = append(en.domain, z.Le(z.IntVal(r.lo), t), z.Le(t, z.IntVal(r.hi)))
	}
	en.memo[e] = t
	return t, nil
}

// linearSolve decides q, which linearQuery accepted as l, over the
// integers, with the same preference rounds as the bit-vector encoding.
func (s *Z3) linearSolve(ctx context.Context, z *z3.Context, q Query, l *linear, timeout time.Duration) (Result, error) {
	sv, err := s.liaSolver(z)
	if err != nil {
		return Result{}, fmt.Errorf("solver: %w", err)
	}
	return s.linearSolveIn(ctx, z, sv, q, l, timeout)
}

// linearSolveIn is linearSolve in the kept solver sv.
func (s *Z3) linearSolveIn(ctx context.Context, z *z3.Context, sv *z3.Solver, q Query, l *linear, timeout time.Duration) (Result, error) {
	en := &linEncoder{z: z, l: l, memo: map[*sym.Expr]z3.AST{}, vars: map[int]z3.AST{}}
	var formulas []z3.AST
	for _, c := range q.Constraints {
		f, err := en.encode(c)
		if err != nil {
			return Result{}, fmt.Errorf("solver: %w", err)
		}
		formulas = append(formulas, f)
	}
	sv.Push()
	defer sv.Pop(1)
	for _, f := range formulas {
		sv.Assert(f)
	}
	for _, f := range en.domain {
		sv.Assert(f)
	}
	var prefs []preference
	if !s.opts.KeepSeed {
		for _, i := range en.order {
			v, pin := en.vars[i], z3.AST{}
			if k := q.Leaves[i].K; k == rt.KBool {
				pin = v
				if q.Seed[i].Bits&1 == 0 {
					pin = z.Not(v)
				}
			} else {
				pin = z.Eq(v, z.IntVal(value(k, q.Seed[i].Bits)))
			}
			prefs = append(prefs, preference{lit: z.BoolVar(), cond: pin})
		}
		for _, p := range prefs {
			sv.Assert(z.Implies(p.lit, p.cond))
		}
	}
	if err := z.Err(); err != nil {
		return Result{}, fmt.Errorf("solver: assert: %w", err)
	}
	return s.check(ctx, z, sv, prefs, timeout, func() (Result, error) {
		m, err := sv.Model()
		if err != nil {
			return Result{}, fmt.Errorf("solver: %w", err)
		}
		defer m.Close()
		vals := clone(q.Seed)
		for _, i := range en.order {
			v := en.vars[i]
			k := q.Leaves[i].K
			if k == rt.KBool {
				b, err := m.Bool(v)
				if err != nil {
					return Result{}, fmt.Errorf("solver: read model: %w", err)
				}
				vals[i] = rt.Value{}
				if b {
					vals[i].Bits = 1
				}
				continue
			}
			n, err := m.BigInt(v)
			if err != nil {
				return Result{}, fmt.Errorf("solver: read model: %w", err)
			}
			if n.Sign() < 0 {
				n.Add(n, new(big.Int).Lsh(big.NewInt(1), uint(k.Bits())))
			}
			vals[i] = rt.Value{Bits: sym.Truncate(k, n.Uint64())}
		}
		return Result{Status: Sat, Model: vals}, nil
	})
}

// smallBox bounds the magnitude of the inputs of the small-values attempt
// (boxQuery) that precedes the bit-vector encoding of a linear query whose
// terms could wrap around over the whole domain.
var smallBox = big.NewInt(1 << 20)
