package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// linTerms builds terms for the tests of the linear layer.
type linTerms struct {
	t *testing.T
	c *sym.Context
}

func (b linTerms) make(op rt.Op, k, k2 rt.Kind, args ...*sym.Expr) *sym.Expr {
	b.t.Helper()
	e, err := b.c.Make(op, k, k2, args, 0, "")
	if err != nil {
		b.t.Fatal(err)
	}
	return e
}

func (b linTerms) cmp(op rt.Op, x, y *sym.Expr) *sym.Expr {
	return b.make(op, rt.KBool, x.Kind(), x, y)
}
func (b linTerms) arith(op rt.Op, x, y *sym.Expr) *sym.Expr {
	return b.make(op, x.Kind(), 0, x, y)
}

func TestLinearQuery(t *testing.T) {
	c := sym.NewContext()
	b := linTerms{t, c}
	leaves := []rt.Leaf{{Path: "a", K: rt.KInt64}, {Path: "b", K: rt.KInt64}, {Path: "c", K: rt.KInt64}, {Path: "s", K: rt.KInt8}, {Path: "n", K: rt.KInt, IsLen: true, Max: 3}}
	a, bb, cc, s, n := c.Input(0, rt.KInt64), c.Input(1, rt.KInt64), c.Input(2, rt.KInt64), c.Input(3, rt.KInt8), c.Input(4, rt.KInt)
	k := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	pos := []*sym.Expr{b.cmp(rt.OpGt, a, k(0)), b.cmp(rt.OpGt, bb, k(0)), b.cmp(rt.OpGt, cc, k(0))}
	for _, tt := range []struct {
		name  string
		cons  []*sym.Expr
		want  bool
		wraps int // terms encoded with an explicit wrap-around
	}{
		{"positive differences", append(pos[:3:3], b.cmp(rt.OpLe, a, b.arith(rt.OpSub, cc, bb))), true, 0},
		{"difference without bounds", []*sym.Expr{b.cmp(rt.OpLe, a, b.arith(rt.OpSub, cc, bb))}, true, 1},
		{"sum of positives may wrap", append(pos[:3:3], b.cmp(rt.OpGt, b.arith(rt.OpAdd, a, bb), cc)), true, 1},
		{"sum of bounded values", []*sym.Expr{b.cmp(rt.OpLt, a, k(1000)), b.cmp(rt.OpGt, a, k(-1000)), b.cmp(rt.OpLt, bb, k(1000)), b.cmp(rt.OpGt, bb, k(-1000)), b.cmp(rt.OpEq, b.arith(rt.OpAdd, a, bb), k(7))}, true, 0},
		{"int8 increment may wrap", []*sym.Expr{b.cmp(rt.OpGt, b.arith(rt.OpAdd, s, c.Const(rt.KInt8, 1)), s)}, true, 1},
		{"int8 increment below the top", []*sym.Expr{b.cmp(rt.OpLt, s, c.Const(rt.KInt8, 100)), b.cmp(rt.OpGt, b.arith(rt.OpAdd, s, c.Const(rt.KInt8, 1)), s)}, true, 0},
		{"length plus one", []*sym.Expr{b.cmp(rt.OpEq, b.arith(rt.OpAdd, n, c.Const(rt.KInt, 1)), c.Const(rt.KInt, 3))}, true, 0},
		{"too many wrapping terms", []*sym.Expr{b.cmp(rt.OpEq, chain(b, a, maxWraps+1), k(1))}, false, 0},
		{"product of unknowns", []*sym.Expr{b.cmp(rt.OpLt, a, k(10)), b.cmp(rt.OpGt, a, k(0)), b.cmp(rt.OpEq, b.arith(rt.OpMul, a, a), k(9))}, false, 0},
		{"division by an unknown", []*sym.Expr{b.cmp(rt.OpGt, bb, k(0)), b.cmp(rt.OpEq, b.arith(rt.OpQuo, a, bb), k(2))}, false, 0},
	} {
		l, got := linearQuery(Query{Constraints: tt.cons, Leaves: leaves})
		if got != tt.want {
			t.Errorf("%s: linear %v, want %v", tt.name, got, tt.want)
		}
		if got && len(l.wraps) != tt.wraps {
			t.Errorf("%s: %d wrapping terms, want %d", tt.name, len(l.wraps), tt.wraps)
		}
	}
}

// chain is x·31 + x, n times over: a hash-like term of n wrapping steps.
func chain(b linTerms, x *sym.Expr, n int) *sym.Expr {
	h := x
	for range n {
		h = b.arith(rt.OpAdd, b.arith(rt.OpMul, h, b.c.Const(x.Kind(), 31)), x)
	}
	return h
}

// TestLinearAgreesWithBruteForce decides random linear queries (sums,
// differences, negations, products with constants, divisions and
// remainders by constants) over two 8-bit inputs with the core (linear layer on) and checks every answer
// against all 65,536 assignments: satisfiability must agree and models
// must hold. Queries the layer takes and queries it leaves to the
// bit-vector encoding are both checked; enough must be taken for the test
// to say something about the layer.
func TestLinearAgreesWithBruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of solver queries")
	}
	c := sym.NewContext()
	b := linTerms{t, c}
	kinds := []rt.Kind{rt.KInt8, rt.KUint8}
	rng := rand.New(rand.NewPCG(1, 2))
	core := NewZ3(Options{})
	defer core.Close()
	taken := 0
	for q := 0; q < 300; q++ {
		k := kinds[q%2]
		leaves := []rt.Leaf{{Path: "x", K: k}, {Path: "y", K: k}}
		x, y := c.Input(0, k), c.Input(1, k)
		konst := func() *sym.Expr { return c.Const(k, uint64(rng.IntN(256))) }
		var term func(depth int) *sym.Expr
		term = func(depth int) *sym.Expr {
			switch r := rng.IntN(7); {
			case depth == 0 || r == 0:
				return []*sym.Expr{x, y, konst()}[rng.IntN(3)]
			case r == 1:
				return b.arith(rt.OpAdd, term(depth-1), term(depth-1))
			case r == 2:
				return b.arith(rt.OpSub, term(depth-1), term(depth-1))
			case r == 3:
				return b.arith(rt.OpMul, term(depth-1), c.Const(k, uint64(rng.IntN(5))))
			case r == 4 && k.Signed():
				return b.make(rt.OpNeg, k, 0, term(depth-1))
			case r == 5:
				// Divisions by constants are exact: a = d·q + r.
				d := c.Const(k, uint64(1+rng.IntN(255)))
				return b.arith([]rt.Op{rt.OpQuo, rt.OpRem}[rng.IntN(2)], term(depth-1), d)
			}
			return []*sym.Expr{x, y}[rng.IntN(2)]
		}
		ops := comparisons
		var cons []*sym.Expr
		// Bounds on the inputs make many queries linear.
		for _, v := range []*sym.Expr{x, y} {
			if rng.IntN(3) > 0 {
				cons = append(cons, b.cmp(rt.OpGe, v, c.Const(k, uint64(rng.IntN(40)))))
				cons = append(cons, b.cmp(rt.OpLe, v, c.Const(k, uint64(40+rng.IntN(40)))))
			}
		}
		for range 1 + rng.IntN(3) {
			cons = append(cons, b.cmp(ops[rng.IntN(len(ops))], term(2), term(2)))
		}
		query := Query{Constraints: cons, Leaves: leaves, Seed: []rt.Value{{}, {}}}
		if _, ok := linearQuery(query); ok {
			taken++
		}
		res, err := core.Solve(context.Background(), query)
		if err != nil {
			t.Fatal(err)
		}
		sat := false
		for v := 0; v < 1<<16 && !sat; v++ {
			sat = holdsEvery(t, cons, []rt.Value{{Bits: uint64(v & 0xff)}, {Bits: uint64(v >> 8)}})
		}
		switch {
		case res.Status == Unknown:
			t.Fatalf("query %d: unknown (%s)", q, res.Why)
		case (res.Status == Sat) != sat:
			t.Fatalf("query %d %v: %s, brute force says sat=%v", q, cons, res.Status, sat)
		case sat && !holdsEvery(t, cons, res.Model):
			t.Fatalf("query %d %v: model %v does not hold", q, cons, res.Model)
		}
	}
	if taken < 60 {
		t.Errorf("the linear layer took %d of 300 queries: the test says little about it", taken)
	}
}

func holdsEvery(t *testing.T, cons []*sym.Expr, in []rt.Value) bool {
	t.Helper()
	for _, c := range cons {
		ok, err := sym.Holds(c, in)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return false
		}
	}
	return true
}

// TestBoxModels checks that a satisfiable query whose terms may wrap over
// the whole domain gets a model of small values from the box attempt, and
// that the model holds (with Go's wrap-around semantics).
func TestBoxModels(t *testing.T) {
	c := sym.NewContext()
	b := linTerms{t, c}
	leaves := []rt.Leaf{{Path: "a", K: rt.KInt64}, {Path: "b", K: rt.KInt64}}
	a, bb := c.Input(0, rt.KInt64), c.Input(1, rt.KInt64)
	k := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	cons := []*sym.Expr{b.cmp(rt.OpGt, a, k(0)), b.cmp(rt.OpGt, bb, a), b.cmp(rt.OpEq, b.arith(rt.OpAdd, a, bb), k(1000))}
	q := Query{Constraints: cons, Leaves: leaves, Seed: []rt.Value{{}, {}}}
	if l, ok := linearQuery(q); !ok || len(l.wraps) == 0 {
		t.Fatal("a + b may wrap: the query must be linear with an explicit wrap-around")
	}
	if _, ok := boxQuery(q, smallBox); !ok {
		t.Fatal("within the box the query is linear")
	}
	core := NewZ3(Options{})
	defer core.Close()
	res, err := core.Solve(context.Background(), q)
	if err != nil || res.Status != Sat {
		t.Fatalf("%v, %v; want sat", res.Status, err)
	}
	if !holdsEvery(t, cons, res.Model) {
		t.Fatalf("model %v does not hold", res.Model)
	}
	for i, v := range res.Model {
		if n := int64(v.Bits); n < -smallBox.Int64() || n > smallBox.Int64() {
			t.Errorf("leaf %d = %d, outside the small box", i, n)
		}
	}
}
