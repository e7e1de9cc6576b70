package solver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

var intKinds = []rt.Kind{rt.KInt8, rt.KInt16, rt.KInt32, rt.KInt64, rt.KUint8, rt.KUint16, rt.KUint32, rt.KUint64}

// samples are operand values of kind k: boundaries and a few ordinary ones.
func samples(k rt.Kind) []uint64 {
	w := k.Bits()
	vs := []uint64{0, 1, 3, ^uint64(0), 1 << (w - 1), 1<<(w-1) - 1, 0x5eedf00d5eedf00d, uint64(w), ^uint64(6)}
	for i := range vs {
		vs[i] = vs[i] & (^uint64(0) >> (64 - w))
	}
	return vs
}

// mustSolve solves q with a fresh core and fails the test on an error.
func mustSolve(t testing.TB, s Solver, q Query) Result {
	t.Helper()
	r, err := s.Solve(context.Background(), q)
	if err != nil {
		t.Fatalf("Solve(%s): %v", sym.FormatAll(q.Constraints, q.Leaves), err)
	}
	return r
}

// checkModel requires a Sat result whose model satisfies every constraint
// (by sym.Eval, whose arithmetic is Go's) and lies in the leaves' domains.
func checkModel(t testing.TB, q Query, r Result) {
	t.Helper()
	if r.Status != Sat {
		t.Fatalf("%s: %v (%s), want sat", sym.FormatAll(q.Constraints, q.Leaves), r.Status, r.Why)
	}
	if len(r.Model) != len(q.Leaves) {
		t.Fatalf("model of %d values for %d leaves", len(r.Model), len(q.Leaves))
	}
	for _, c := range q.Constraints {
		ok, err := sym.Holds(c, r.Model)
		if err != nil || !ok {
			t.Fatalf("model %+v violates %s (%v)", r.Model, sym.Format(c, q.Leaves), err)
		}
	}
	if err := inDomain(q.Leaves, r.Model); err != nil {
		t.Fatalf("model %+v: %v", r.Model, err)
	}
}

func layout(kinds ...rt.Kind) ([]rt.Leaf, []rt.Value) {
	leaves := make([]rt.Leaf, len(kinds))
	for i, k := range kinds {
		leaves[i] = rt.Leaf{Path: fmt.Sprintf("x%d", i), K: k, Max: 8}
	}
	return leaves, make([]rt.Value, len(kinds))
}

// TestEveryOperatorMatchesGo pins the operands to sample values, computes
// the Go result c, and requires "op(x, y) == c" to be Sat and
// "op(x, y) != c" to be Unsat: the encoding then gives exactly Go's value.
func TestEveryOperatorMatchesGo(t *testing.T) {
	skipRaceCopy(t)
	c := sym.NewContext()
	core := NewZ3(Options{ContextQueries: 64})
	defer core.Close()
	type operation struct {
		name  string
		kinds func(k rt.Kind) (rt.Kind, rt.Kind) // operand kinds for result kind k
		build func(x, y *sym.Expr) *sym.Expr
	}
	same := func(k rt.Kind) (rt.Kind, rt.Kind) { return k, k }
	var ops []operation
	for _, op := range []rt.Op{rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpQuo, rt.OpRem, rt.OpAnd, rt.OpOr, rt.OpXor, rt.OpAndNot} {
		ops = append(ops, operation{fmt.Sprint("op", op), same, func(x, y *sym.Expr) *sym.Expr { return c.Binary(op, x, y) }})
	}
	for _, op := range []rt.Op{rt.OpShl, rt.OpShr} {
		for _, ck := range []rt.Kind{rt.KUint8, rt.KInt64, rt.KUint64} {
			ops = append(ops, operation{fmt.Sprintf("op%d-by-%v", op, ck),
				func(k rt.Kind) (rt.Kind, rt.Kind) { return k, ck },
				func(x, y *sym.Expr) *sym.Expr { return c.Binary(op, x, y) }})
		}
	}
	ops = append(ops,
		operation{"neg", same, func(x, _ *sym.Expr) *sym.Expr { return c.Neg(x) }},
		operation{"cpl", same, func(x, _ *sym.Expr) *sym.Expr { return c.Cpl(x) }})
	for _, from := range intKinds {
		ops = append(ops, operation{"conv-from-" + from.String(),
			func(k rt.Kind) (rt.Kind, rt.Kind) { return from, from },
			func(x, _ *sym.Expr) *sym.Expr { return c.Conv(x.Kind(), x) }})
	}
	for _, op := range []rt.Op{rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe} {
		ops = append(ops, operation{fmt.Sprint("cmp", op), same, func(x, y *sym.Expr) *sym.Expr { return c.Compare(op, x, y) }})
	}
	for _, k := range intKinds {
		for _, op := range ops {
			ka, kb := op.kinds(k)
			t.Run(fmt.Sprintf("%v/%s", k, op.name), func(t *testing.T) {
				x, y := c.Input(0, ka), c.Input(1, kb)
				e := op.build(x, y)
				if strings.HasPrefix(op.name, "conv") {
					e = c.Conv(k, x)
				}
				// The result is compared with a third input r rather than a
				// constant, so that no simplification moves the constant
				// into the operands and the encoding of e itself is tested.
				leaves, seed := layout(ka, kb, e.Kind())
				r := c.Input(2, e.Kind())
				as, bs := samples(ka), samples(kb)
				for i, a := range as {
					b := bs[(i*5+3)%len(bs)]
					want, err := sym.Eval(e, []rt.Value{{Bits: a}, {Bits: b}})
					if err != nil {
						continue // division by zero: recorded as a branch, never solved for
					}
					wantTerm := c.Const(e.Kind(), want.Bits)
					if e.Kind() == rt.KBool {
						wantTerm = c.Bool(want.Bits == 1)
					}
					pin := []*sym.Expr{c.Compare(rt.OpEq, x, c.Const(ka, a)), c.Compare(rt.OpEq, y, c.Const(kb, b)),
						c.Compare(rt.OpEq, r, wantTerm)}
					eq := append(pin[:3:3], c.Compare(rt.OpEq, e, r))
					ne := append(pin[:3:3], c.Compare(rt.OpNe, e, r))
					q := Query{Constraints: eq, Leaves: leaves, Seed: seed}
					checkModel(t, q, mustSolve(t, core, q))
					if res := mustSolve(t, core, Query{Constraints: ne, Leaves: leaves, Seed: seed}); res.Status != Unsat {
						t.Fatalf("%s: %v with model %+v, want unsat", sym.FormatAll(ne, leaves), res.Status, res.Model)
					}
				}
			})
		}
	}
}

// TestSolvingRecoversOperands leaves the operands free and requires models
// of "op(x, y) == c" to satisfy it under Go's semantics.
func TestSolvingRecoversOperands(t *testing.T) {
	c := sym.NewContext()
	core := NewZ3(Options{ContextQueries: 64})
	defer core.Close()
	for _, k := range intKinds {
		for _, op := range []rt.Op{rt.OpAdd, rt.OpMul, rt.OpQuo, rt.OpRem, rt.OpShl, rt.OpShr, rt.OpAndNot} {
			leaves, seed := layout(k, rt.KUint8)
			x, y := c.Input(0, k), c.Input(1, rt.KUint8)
			yy := y
			if op != rt.OpShl && op != rt.OpShr {
				yy = c.Conv(k, y)
			}
			for _, target := range samples(k)[:5] {
				cs := []*sym.Expr{c.Compare(rt.OpNe, yy, c.Const(yy.Kind(), 0)),
					c.Compare(rt.OpEq, c.Binary(op, x, yy), c.Const(k, target))}
				q := Query{Constraints: cs, Leaves: leaves, Seed: seed}
				r := mustSolve(t, core, q)
				if r.Status == Sat {
					checkModel(t, q, r)
				}
			}
		}
	}
}

// TestDivisionByConstantsMatchesGo checks division by constants, with the
// dividend pinned and the results compared with inputs holding Go's
// values, and solves for dividends.
func TestDivisionByConstantsMatchesGo(t *testing.T) {
	skipRaceCopy(t)
	c := sym.NewContext()
	core := NewZ3(Options{ContextQueries: 64})
	defer core.Close()
	for _, k := range intKinds {
		leaves, seed := layout(k, k, k)
		x, rq, rr := c.Input(0, k), c.Input(1, k), c.Input(2, k)
		for _, d := range append(samples(k), 10, 0xff&^uint64(9)) {
			d &= ^uint64(0) >> (64 - k.Bits())
			dc := c.Const(k, d)
			if v := dc.Signed(); v >= -1 && v <= 1 {
				continue
			}
			quo, rem := c.Binary(rt.OpQuo, x, dc), c.Binary(rt.OpRem, x, dc)
			for _, a := range samples(k) {
				in := []rt.Value{{Bits: a}}
				wq, _ := sym.Eval(quo, in)
				wr, _ := sym.Eval(rem, in)
				pin := []*sym.Expr{c.Compare(rt.OpEq, x, c.Const(k, a)), c.Compare(rt.OpEq, rq, c.Const(k, wq.Bits)), c.Compare(rt.OpEq, rr, c.Const(k, wr.Bits))}
				eq := append(pin[:3:3], c.Compare(rt.OpEq, quo, rq), c.Compare(rt.OpEq, rem, rr))
				q := Query{Constraints: eq, Leaves: leaves, Seed: seed}
				checkModel(t, q, mustSolve(t, core, q))
				for _, wrong := range []*sym.Expr{c.Compare(rt.OpNe, quo, rq), c.Compare(rt.OpNe, rem, rr)} {
					ne := append(pin[:3:3], wrong)
					if res := mustSolve(t, core, Query{Constraints: ne, Leaves: leaves, Seed: seed}); res.Status != Unsat {
						t.Fatalf("%s: %v with %+v, want unsat", sym.FormatAll(ne, leaves), res.Status, res.Model)
					}
				}
			}
			// Solving for the dividend.
			q := Query{Constraints: []*sym.Expr{c.Compare(rt.OpEq, rem, c.Const(k, 1)), c.Compare(rt.OpNe, quo, c.Const(k, 0))}, Leaves: leaves, Seed: seed}
			if r := mustSolve(t, core, q); r.Status == Sat {
				checkModel(t, q, r)
			}
		}
	}
}

// TestRemainderBoundsAreDecided asks what a hash table's bucket index
// produces: that a remainder by a positive divisor is at least the divisor.
// Z3 alone did not decide it within 5 s on 64-bit operands; with the
// division lemmas (core_encode.go) it is Unsat at once, for every kind.
func TestRemainderBoundsAreDecided(t *testing.T) {
	c := sym.NewContext()
	core := NewZ3(Options{ContextQueries: 64})
	defer core.Close()
	for _, k := range []rt.Kind{rt.KInt64, rt.KUint64, rt.KInt32} {
		leaves, seed := layout(k, k)
		key, n := c.Input(0, k), c.Input(1, k)
		zero := c.Const(k, 0)
		r := c.Binary(rt.OpRem, key, n)
		cs := []*sym.Expr{
			c.Compare(rt.OpGt, n, zero),
			c.Compare(rt.OpGe, r, zero),
			c.Compare(rt.OpGe, c.Conv(rt.KUint64, r), c.Conv(rt.KUint64, n)),
		}
		got := mustSolve(t, core, Query{Constraints: cs, Leaves: leaves, Seed: seed, Timeout: 5 * time.Second})
		if got.Status != Unsat {
			t.Errorf("%v: key %% n >= n with n > 0: %v (%s), want unsat", k, got.Status, got.Why)
		}
		// And the quotient of a non-negative dividend by a positive
		// divisor is at most the dividend.
		cs = []*sym.Expr{
			c.Compare(rt.OpGt, n, zero),
			c.Compare(rt.OpGe, key, zero),
			c.Compare(rt.OpGt, c.Binary(rt.OpQuo, key, n), key),
		}
		got = mustSolve(t, core, Query{Constraints: cs, Leaves: leaves, Seed: seed, Timeout: 5 * time.Second})
		if got.Status != Unsat {
			t.Errorf("%v: key / n > key with n > 0: %v (%s), want unsat", k, got.Status, got.Why)
		}
	}
}

// TestNarrowModels checks the narrow first attempt of queries with a
// divider or a product of unknowns: its models are used only when they
// are models at the real width, and a query whose narrow model relies on
// a narrow wrap-around is still solved at the real width.
func TestNarrowModels(t *testing.T) {
	c := sym.NewContext()
	var m Metrics
	// Without the divisors' search (core_relax.go) and the small search
	// (core_pinsearch.go), which answer x % y == 7 before the narrow attempt.
	// The narrow attempt gets a quarter of the query's time: a bound far
	// above the milliseconds these queries take, so that a machine loaded
	// by other tests (and the race detector's slowdown) cannot make the
	// narrow answer or the real-width one time out.
	core := NewZ3(Options{ContextQueries: 64, Metrics: &m, NoRelax: true, NoPinSearch: true, Timeout: 2 * time.Minute})
	defer core.Close()
	leaves, seed := layout(rt.KInt64, rt.KInt64)
	x, y := c.Input(0, rt.KInt64), c.Input(1, rt.KInt64)
	k := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }

	// x % y == 7 with y > 100: a 16-bit model is a 64-bit one.
	q := Query{Constraints: []*sym.Expr{
		c.Compare(rt.OpGt, y, k(100)),
		c.Compare(rt.OpGt, x, k(1000)),
		c.Compare(rt.OpEq, c.Binary(rt.OpRem, x, y), k(7)),
	}, Leaves: leaves, Seed: seed}
	checkModel(t, q, mustSolve(t, core, q))
	if n := m.Snapshot().Narrow; n != 1 {
		t.Errorf("x %% y == 7: %d narrow answers, want 1", n)
	}

	// x * y == 0 with both non-zero: 256 * 256 wraps to 0 in 16 bits, not
	// in 64; the answer must be a 64-bit model (such as 2^32 * 2^32).
	q = Query{Constraints: []*sym.Expr{
		c.Compare(rt.OpNe, x, k(0)),
		c.Compare(rt.OpNe, y, k(0)),
		c.Compare(rt.OpEq, c.Binary(rt.OpMul, x, y), k(0)),
	}, Leaves: leaves, Seed: seed}
	checkModel(t, q, mustSolve(t, core, q))
}

// TestNearSeed: a model's integer inputs move to the seed's values where
// the constraints allow, and otherwise by bisection to the value nearest
// the seed at the boundary the constraints draw; what is returned always
// satisfies them.
func TestNearSeed(t *testing.T) {
	c := sym.NewContext()
	v := c.Input(0, rt.KInt64)
	b := c.Input(1, rt.KInt8)
	u := c.Input(2, rt.KUint64)
	i64 := func(x int64) *sym.Expr { return c.Const(rt.KInt64, uint64(x)) }
	leaves := []rt.Leaf{{Path: "v", K: rt.KInt64}, {Path: "b", K: rt.KInt8}, {Path: "u", K: rt.KUint64}}
	tests := []struct {
		name        string
		cons        []*sym.Expr
		seed, model []int64
		want        []int64
	}{
		{"a range below zero, go-humanize's", []*sym.Expr{c.Compare(rt.OpLt, v, i64(0)), c.Compare(rt.OpGt, v, i64(-1000)), c.Or(c.Compare(rt.OpLe, v, i64(-100)), c.Compare(rt.OpGe, v, i64(100)))}, []int64{100, 0, 0}, []int64{-961, 0, 0}, []int64{-100, 0, 0}},
		{"the seed's value where it holds", []*sym.Expr{c.Compare(rt.OpGt, v, i64(5))}, []int64{7, 3, 9}, []int64{123456, -5, 1}, []int64{7, 3, 9}},
		{"a bound at the ends of a byte", []*sym.Expr{c.Compare(rt.OpGt, b, c.Const(rt.KInt8, 100))}, []int64{0, -128, 0}, []int64{0, 127, 0}, []int64{0, 101, 0}},
		{"unsigned across the sign bit", []*sym.Expr{c.Compare(rt.OpGe, u, c.Const(rt.KUint64, 1<<63+5))}, []int64{0, 0, 3}, []int64{0, 0, -1}, []int64{0, 0, -1<<63 + 5}},
		{"a residue, not monotone", []*sym.Expr{c.Compare(rt.OpEq, c.Binary(rt.OpRem, v, i64(7)), i64(3))}, []int64{0, 0, 0}, []int64{1000003, 0, 0}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := Query{Constraints: tt.cons, Leaves: leaves}
			model := make([]rt.Value, len(leaves))
			for i := range leaves {
				q.Seed = append(q.Seed, rt.Value{Bits: uint64(tt.seed[i])})
				model[i] = rt.Value{Bits: uint64(tt.model[i])}
			}
			for i, l := range leaves {
				model[i].Bits = sym.Truncate(l.K, model[i].Bits)
				q.Seed[i].Bits = sym.Truncate(l.K, q.Seed[i].Bits)
			}
			nearSeed(q, model)
			for _, e := range tt.cons {
				if ok, err := sym.Holds(e, model); err != nil || !ok {
					t.Fatalf("%v does not satisfy %s", model, sym.Format(e, leaves))
				}
			}
			for i, w := range tt.want {
				if got := model[i].Bits; got != sym.Truncate(leaves[i].K, uint64(w)) {
					t.Errorf("%s = %d, want %d", leaves[i].Path, ordered(leaves[i].K, got), w)
				}
			}
		})
	}
}
