package solver

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// TestRelaxationIsSound builds random queries over two 8-bit inputs with
// remainders, quotients and products of unknowns, and checks every
// answer of the divisors' search (core_relax.go) against all 65,536
// assignments: a refuted query must have no solution, a model must hold.
// The core's answers must agree with brute force too. Enough queries must
// be decided for the test to say something about the search.
func TestRelaxationIsSound(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of solver queries")
	}
	c := sym.NewContext()
	b := linTerms{t, c}
	kinds := []rt.Kind{rt.KInt8, rt.KUint8}
	rng := rand.New(rand.NewPCG(3, 4))
	core := NewZ3(Options{})
	defer core.Close()
	refuted, found := 0, 0
	for q := 0; q < 300; q++ {
		k := kinds[q%2]
		leaves := []rt.Leaf{{Path: "x", K: k}, {Path: "y", K: k}}
		x, y := c.Input(0, k), c.Input(1, k)
		small := func() *sym.Expr { return c.Const(k, uint64(rng.IntN(5))-2) }
		// Atoms compare a remainder, quotient or product of the inputs
		// with an input, a constant or the like: the edges of the facts
		// the relaxation uses (x % y == y - 1, x / y == x, ...).
		var term func(depth int) *sym.Expr
		term = func(depth int) *sym.Expr {
			v := []*sym.Expr{x, y}[rng.IntN(2)]
			switch r := rng.IntN(8); {
			case depth == 0 || r == 0:
				return []*sym.Expr{x, y, small(), c.Const(k, uint64(rng.IntN(256)))}[rng.IntN(4)]
			case r == 1:
				return b.arith(rt.OpAdd, term(depth-1), small())
			case r == 2:
				return b.arith(rt.OpSub, term(depth-1), term(depth-1))
			case r <= 4:
				return b.arith(rt.OpRem, term(depth-1), v)
			case r == 5:
				return b.arith(rt.OpQuo, term(depth-1), v)
			case r == 6:
				return b.arith(rt.OpMul, x, y)
			}
			return b.make(rt.OpNeg, k, 0, term(depth-1))
		}
		ops := comparisons
		var cons []*sym.Expr
		// The guards a run records before it divides.
		cons = append(cons, b.cmp(rt.OpNe, x, c.Const(k, 0)), b.cmp(rt.OpNe, y, c.Const(k, 0)))
		for range 1 + rng.IntN(3) {
			cons = append(cons, b.cmp(ops[rng.IntN(len(ops))], term(2), term(1)))
		}
		if q < 2*len(edges) {
			// First the edges of every fact, each satisfiable.
			cons = edges[q/2](b, x, y, k)
		}
		query := Query{Constraints: cons, Leaves: leaves, Seed: []rt.Value{{}, {}}}
		sat := false
		for v := 0; v < 1<<16 && !sat; v++ {
			sat = holdsGo(t, cons, []rt.Value{{Bits: uint64(v & 0xff)}, {Bits: uint64(v >> 8)}})
		}
		if l, ok := relaxedQuery(query); ok {
			res, ok := core.divisorSearch(context.Background(), core.context(), query, l, DefaultTimeout, Unknown)
			switch {
			case !ok:
			case res.Status == Unsat && sat:
				t.Fatalf("query %d %v: refuted by its divisors' search, but brute force finds a solution", q, cons)
			case res.Status == Sat && !holdsGo(t, cons, res.Model):
				t.Fatalf("query %d %v: the divisors' search's model %v does not hold", q, cons, res.Model)
			case res.Status == Unsat:
				refuted++
			default:
				found++
			}
		}
		res, err := core.Solve(context.Background(), query)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case res.Status == Unknown:
			t.Fatalf("query %d: unknown (%s)", q, res.Why)
		case (res.Status == Sat) != sat:
			t.Fatalf("query %d %v: %s, brute force says sat=%v", q, cons, res.Status, sat)
		case sat && !holdsGo(t, cons, res.Model):
			t.Fatalf("query %d %v: model %v does not hold", q, cons, res.Model)
		}
	}
	t.Logf("the divisors' search refuted %d and solved %d of 300 queries", refuted, found)
	if refuted < 20 || found < 20 {
		t.Errorf("the divisors' search refuted %d and solved %d of 300 queries: the test says little about it", refuted, found)
	}
}

// edges are queries at the edges of the relaxation's facts: each has a
// solution (x % y == y - 1, x % y == x, x / y == x, x / y == -x, ...), so
// a fact stated one too tight refutes one of them.
var edges = []func(b linTerms, x, y *sym.Expr, k rt.Kind) []*sym.Expr{
	func(b linTerms, x, y *sym.Expr, k rt.Kind) []*sym.Expr { // x % y == y - 1, y > 2
		return []*sym.Expr{b.cmp(rt.OpGt, y, b.c.Const(k, 2)), b.cmp(rt.OpEq, b.arith(rt.OpRem, x, y), b.arith(rt.OpSub, y, b.c.Const(k, 1)))}
	},
	func(b linTerms, x, y *sym.Expr, k rt.Kind) []*sym.Expr { // x % y == x, x > 0
		return []*sym.Expr{b.cmp(rt.OpGt, x, b.c.Const(k, 0)), b.cmp(rt.OpNe, y, b.c.Const(k, 0)), b.cmp(rt.OpEq, b.arith(rt.OpRem, x, y), x)}
	},
	func(b linTerms, x, y *sym.Expr, k rt.Kind) []*sym.Expr { // x / y == x, x > 1
		return []*sym.Expr{b.cmp(rt.OpGt, x, b.c.Const(k, 1)), b.cmp(rt.OpNe, y, b.c.Const(k, 0)), b.cmp(rt.OpEq, b.arith(rt.OpQuo, x, y), x)}
	},
	func(b linTerms, x, y *sym.Expr, k rt.Kind) []*sym.Expr { // x * y == 0 with neither 0
		return []*sym.Expr{b.cmp(rt.OpNe, x, b.c.Const(k, 0)), b.cmp(rt.OpNe, y, b.c.Const(k, 0)), b.cmp(rt.OpEq, b.arith(rt.OpMul, x, y), b.c.Const(k, 0))}
	},
	func(b linTerms, x, y *sym.Expr, k rt.Kind) []*sym.Expr { // x % y == 1 - y (signed), y > 2 and x < 0
		return []*sym.Expr{b.cmp(rt.OpGt, y, b.c.Const(k, 2)), b.cmp(rt.OpLt, x, b.c.Const(k, 0)),
			b.cmp(rt.OpEq, b.arith(rt.OpRem, x, y), b.arith(rt.OpSub, b.c.Const(k, 1), y))}
	},
	func(b linTerms, x, y *sym.Expr, k rt.Kind) []*sym.Expr { // x % y == y + 1 (signed), y < -2
		return []*sym.Expr{b.cmp(rt.OpLt, y, b.c.Const(k, 0)), b.cmp(rt.OpLt, y, b.c.Const(k, 0xfe)),
			b.cmp(rt.OpEq, b.arith(rt.OpRem, x, y), b.arith(rt.OpAdd, y, b.c.Const(k, 1)))}
	},
	func(b linTerms, x, y *sym.Expr, k rt.Kind) []*sym.Expr { // x / y == x with x < -1
		return []*sym.Expr{b.cmp(rt.OpLt, x, b.c.Const(k, 0xff)), b.cmp(rt.OpNe, y, b.c.Const(k, 0)), b.cmp(rt.OpEq, b.arith(rt.OpQuo, x, y), x)}
	},
}

// holdsGo reports whether every constraint holds on in with Go's
// semantics; an undefined operation (a division by zero) is no solution.
func holdsGo(t *testing.T, cons []*sym.Expr, in []rt.Value) bool {
	t.Helper()
	for _, c := range cons {
		ok, err := sym.Holds(c, in)
		if errors.Is(err, sym.ErrUndefined) {
			return false
		}
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return false
		}
	}
	return true
}

// TestRelaxationRefutesBuckets asks the queries a hash table's search
// asks about its bucket index key % n (64-bit inputs, n > 0): the
// divisors' search decides them, refuting the infeasible ones and giving
// the feasible ones models with small tables. (Queries it leaves to the
// bit-vector encoding are checked by TestRelaxationIsSound.)
func TestRelaxationRefutesBuckets(t *testing.T) {
	c := sym.NewContext()
	b := linTerms{t, c}
	leaves := []rt.Leaf{{Path: "n", K: rt.KInt}, {Path: "key", K: rt.KInt}, {Path: "k0", K: rt.KInt}}
	n, key, k0 := c.Input(0, rt.KInt), c.Input(1, rt.KInt), c.Input(2, rt.KInt)
	k := func(v int64) *sym.Expr { return c.Const(rt.KInt, uint64(v)) }
	u := func(e *sym.Expr) *sym.Expr { return b.make(rt.OpConv, rt.KUint64, rt.KInt, e) }
	r, r0 := b.arith(rt.OpRem, key, n), b.arith(rt.OpRem, k0, n)
	guard := []*sym.Expr{b.cmp(rt.OpGe, n, k(0)), b.cmp(rt.OpNe, n, k(0)), b.cmp(rt.OpLe, n, k(0x10000))}
	with := func(cs ...*sym.Expr) []*sym.Expr { return append(guard[:len(guard):len(guard)], cs...) }
	for _, tt := range []struct {
		name string
		cons []*sym.Expr
		want Status
	}{
		{"bounds check of a non-negative remainder", with(b.cmp(rt.OpGe, r, k(0)), b.cmp(rt.OpGe, u(r), u(n))), Unsat},
		{"bounds check of a negative remainder made positive", with(b.cmp(rt.OpLt, r, k(0)), b.cmp(rt.OpGe, u(b.arith(rt.OpAdd, r, n)), u(n))), Unsat},
		{"bucket beyond a small table", with(b.cmp(rt.OpEq, r0, k(13830)), b.cmp(rt.OpLt, b.arith(rt.OpMul, n, k(3)), k(8))), Unsat},
		{"same key, other bucket", with(b.cmp(rt.OpEq, key, k0), b.cmp(rt.OpEq, r, k(1)), b.cmp(rt.OpEq, r0, k(2))), Unsat},
		{"bucket of a negative key", with(b.cmp(rt.OpLt, r, k(0))), Sat},
		{"two keys in one bucket", with(b.cmp(rt.OpNe, key, k0), b.cmp(rt.OpEq, r, r0), b.cmp(rt.OpGt, n, k(1))), Sat},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := &Metrics{}
			core := NewZ3(Options{Metrics: m})
			defer core.Close()
			q := Query{Constraints: tt.cons, Leaves: leaves, Seed: make([]rt.Value, 3)}
			res, err := core.Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tt.want {
				t.Fatalf("%s, want %s", res.Status, tt.want)
			}
			if st := m.Snapshot(); st.Relaxed+st.Pinned+st.PinSearched != 1 {
				t.Errorf("decided by the divisors' search or the small search: %+v", st)
			}
			if res.Status == Sat && !holdsGo(t, tt.cons, res.Model) {
				t.Errorf("model %v does not hold", res.Model)
			}
			if res.Status == Sat && res.Model[0].Bits > 16 {
				t.Errorf("model %v: a table of %d buckets, want a small one", res.Model, res.Model[0].Bits)
			}
		})
	}
}
