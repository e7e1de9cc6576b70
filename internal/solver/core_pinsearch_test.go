package solver

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// TestPinnedSearch lists fixed queries the search must decide, and how,
// and ones it must leave to Z3.
func TestPinnedSearch(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "n", K: rt.KInt64}, {Path: "k1", K: rt.KInt64}, {Path: "k2", K: rt.KInt64}, {Path: "s", K: rt.KString, Max: 4}}
	n, k1, k2, str := c.Input(0, rt.KInt64), c.Input(1, rt.KInt64), c.Input(2, rt.KInt64), c.Input(3, rt.KString)
	i64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	cmp := c.Compare
	rem := func(a, b *sym.Expr) *sym.Expr { return c.Binary(rt.OpRem, a, b) }
	add := func(a, b *sym.Expr) *sym.Expr { return c.Binary(rt.OpAdd, a, b) }
	mul := func(a, b *sym.Expr) *sym.Expr { return c.Binary(rt.OpMul, a, b) }
	seed := []rt.Value{{Bits: 3}, {Bits: uint64(1)}, {Bits: uint64(4)}, {Str: "ab"}}
	tests := []struct {
		name string
		cons []*sym.Expr
		pin  int64
		want Status
		// model, for Sat: the values of k1 and k2.
		k1, k2 int64
	}{
		{"the seed holds", []*sym.Expr{cmp(rt.OpEq, rem(k1, n), i64(1))}, 3, Sat, 1, 4},
		{"another bucket", []*sym.Expr{cmp(rt.OpEq, rem(k1, n), i64(1)), cmp(rt.OpEq, rem(k2, n), i64(2))}, 3, Sat, 1, 2},
		{"a negative remainder shifted into range", []*sym.Expr{cmp(rt.OpLt, rem(k2, n), i64(0)), cmp(rt.OpEq, add(rem(k2, n), n), i64(2))}, 4, Sat, 1, -2},
		{"two keys, distinct, one bucket", []*sym.Expr{cmp(rt.OpLt, rem(k1, n), i64(0)), cmp(rt.OpEq, add(rem(k1, n), n), i64(2)), cmp(rt.OpLt, rem(k2, n), i64(0)), cmp(rt.OpEq, add(rem(k2, n), n), i64(2)), cmp(rt.OpNe, k1, k2)}, 4, Sat, -2, -6},
		{"two keys equal", []*sym.Expr{cmp(rt.OpEq, rem(k1, mul(n, i64(2))), i64(3)), cmp(rt.OpEq, k1, k2)}, 4, Sat, 3, 3},
		{"a bound of the fixed size alone", []*sym.Expr{cmp(rt.OpEq, rem(k1, n), i64(1)), cmp(rt.OpGe, mul(n, i64(3)), i64(12))}, 3, Unsat, 0, 0},
		{"a constant far from small values", []*sym.Expr{cmp(rt.OpEq, rem(k1, n), i64(1)), cmp(rt.OpGt, k1, i64(1000))}, 3, Sat, 1003, 4},
		{"a bound of another key", []*sym.Expr{cmp(rt.OpEq, rem(k1, n), i64(1)), cmp(rt.OpGt, k1, mul(k2, i64(1000)))}, 3, Sat, 1, 0},
		{"no small value", []*sym.Expr{cmp(rt.OpEq, rem(k1, n), i64(1)), cmp(rt.OpEq, mul(k1, k1), i64(1369))}, 3, Unknown, 0, 0},
		{"a string", []*sym.Expr{cmp(rt.OpEq, rem(k1, n), i64(1)), cmp(rt.OpEq, c.Len(str), i64(3))}, 3, Unknown, 0, 0},
	}
	core := NewZ3(Options{})
	defer core.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := Query{Constraints: tt.cons, Leaves: leaves, Seed: seed}
			model, st := pinnedSearch(q, map[int]*big.Int{0: big.NewInt(tt.pin)})
			if st != tt.want {
				t.Fatalf("%s with n = %d: %v, want %v", sym.FormatAll(tt.cons, leaves), tt.pin, st, tt.want)
			}
			switch st {
			case Sat:
				if model[0].Bits != uint64(tt.pin) {
					t.Errorf("n = %d, fixed to %d", model[0].Bits, tt.pin)
				}
				if got1, got2 := int64(model[1].Bits), int64(model[2].Bits); got1 != tt.k1 || got2 != tt.k2 {
					t.Errorf("k1, k2 = %d, %d, want %d, %d", got1, got2, tt.k1, tt.k2)
				}
				if !holdsAll(sym.NewEvaluator(model), tt.cons) {
					t.Errorf("model %v does not satisfy the query", model)
				}
			case Unsat:
				fixed := q
				fixed.Constraints = append([]*sym.Expr{cmp(rt.OpEq, n, i64(tt.pin))}, tt.cons...)
				if r, err := core.Solve(context.Background(), fixed); err != nil || r.Status != Unsat {
					t.Errorf("Z3 says %v (%v)", r.Status, err)
				}
			}
		})
	}
}

// TestPinnedSearchAgreesWithZ3 fixes the divisor of random queries over
// int8 inputs (remainders and quotients by it and by its multiples,
// sums, equalities and comparisons between inputs) to random values:
// every model the search returns must satisfy the query with the divisor
// fixed, and every Unsat must be Z3's.
func TestPinnedSearchAgreesWithZ3(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "n", K: rt.KInt8}, {Path: "a", K: rt.KInt8}, {Path: "b", K: rt.KInt8}, {Path: "u", K: rt.KUint8}}
	n := c.Input(0, rt.KInt8)
	ins := []*sym.Expr{c.Input(1, rt.KInt8), c.Input(2, rt.KInt8)}
	u := c.Input(3, rt.KUint8)
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(17, 18))
	ops := comparisons
	i8 := func(v int64) *sym.Expr { return c.Const(rt.KInt8, uint64(v)) }
	divisor := func() *sym.Expr {
		if rng.IntN(3) == 0 {
			return c.Binary(rt.OpMul, n, i8(2))
		}
		return n
	}
	term := func() *sym.Expr {
		x := ins[rng.IntN(len(ins))]
		switch rng.IntN(5) {
		case 0, 1:
			return c.Binary(rt.OpRem, x, divisor())
		case 2:
			return c.Binary(rt.OpQuo, x, divisor())
		case 3:
			return c.Binary(rt.OpAdd, c.Binary(rt.OpRem, x, divisor()), divisor())
		}
		return x
	}
	constraint := func() *sym.Expr {
		switch rng.IntN(7) {
		case 0:
			return c.Compare(rt.OpEq, ins[0], ins[1])
		case 1:
			return c.Compare(ops[rng.IntN(len(ops))], ins[0], ins[1])
		case 2:
			return c.Compare(ops[rng.IntN(len(ops))], c.Binary(rt.OpRem, u, c.Conv(rt.KUint8, n)), c.Const(rt.KUint8, uint64(rng.IntN(6))))
		case 3:
			return c.Compare(ops[rng.IntN(len(ops))], c.Binary(rt.OpMul, n, i8(3)), i8(int64(rng.IntN(20))))
		}
		return c.Compare(ops[rng.IntN(len(ops))], term(), i8(int64(rng.IntN(13))-6))
	}
	counts := map[Status]int{}
	const queries = 600
	for range queries {
		cons := append([]*sym.Expr{c.Compare(rt.OpGt, n, i8(0))}, conjunction(rng, 2, 5, constraint)...)
		seed := []rt.Value{{Bits: uint64(1 + rng.IntN(6))}, {Bits: uint64(rng.IntN(256))}, {Bits: uint64(rng.IntN(256))}, {Bits: uint64(rng.IntN(256))}}
		q := Query{Constraints: cons, Leaves: leaves, Seed: seed}
		pin := int64(1 + rng.IntN(7))
		model, st := pinnedSearch(q, map[int]*big.Int{0: big.NewInt(pin)})
		counts[st]++
		fixed := q
		fixed.Constraints = append([]*sym.Expr{c.Compare(rt.OpEq, n, i8(pin))}, cons...)
		switch st {
		case Sat:
			if !holdsAll(sym.NewEvaluator(model), fixed.Constraints) || inDomain(leaves, model) != nil {
				t.Fatalf("%s, n = %d: model %v does not satisfy it", sym.FormatAll(cons, leaves), pin, model)
			}
		case Unsat:
			if r, err := core.Solve(context.Background(), fixed); err != nil || r.Status != Unsat {
				t.Fatalf("%s, n = %d: Unsat, Z3 says %v (%v)", sym.FormatAll(cons, leaves), pin, r.Status, err)
			}
		}
	}
	if counts[Sat] < queries/5 || counts[Unsat] < queries/10 {
		t.Errorf("of %d queries: %d Sat, %d Unsat, %d left to Z3", queries, counts[Sat], counts[Unsat], counts[Unknown])
	}
	t.Logf("of %d queries: %d Sat, %d Unsat, %d left to Z3", queries, counts[Sat], counts[Unsat], counts[Unknown])
}
