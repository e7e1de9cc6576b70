package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

func TestSums(t *testing.T) {
	c := sym.NewContext()
	x, y := c.Input(0, rt.KInt64), c.Input(1, rt.KInt64)
	i64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	add := func(a, b *sym.Expr) *sym.Expr { return c.Binary(rt.OpAdd, a, b) }
	sub := func(a, b *sym.Expr) *sym.Expr { return c.Binary(rt.OpSub, a, b) }
	mul := func(a, b *sym.Expr) *sym.Expr { return c.Binary(rt.OpMul, a, b) }
	b := c.Input(2, rt.KUint8)
	u8 := func(v uint64) *sym.Expr { return c.Const(rt.KUint8, v) }
	xy := mul(x, y)
	tests := []struct {
		name string
		e    *sym.Expr
		want string
	}{
		{"a constant", i64(-3), "-3"},
		{"an atom", x, "1·x"},
		{"a difference that cancels", sub(sub(x, i64(1)), sub(x, i64(5))), "4"},
		{"coefficients merged", add(mul(x, i64(3)), sub(y, mul(i64(2), x))), "1·x + 1·y"},
		{"a product of two unknowns is an atom", sub(add(xy, x), xy), "1·x"},
		{"a negation", c.Neg(sub(x, y)), "-1·x + 1·y"},
		{"bytes wrap", sub(add(b, u8(200)), b), "-56"},
		{"a byte's coefficient wraps", mul(mul(b, u8(16)), u8(16)), "0"},
	}
	leaves := []rt.Leaf{{Path: "x", K: rt.KInt64}, {Path: "y", K: rt.KInt64}, {Path: "b", K: rt.KUint8}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			iv := newIntervals(leaves, []*sym.Expr{tt.e})
			defer iv.release()
			if got := formatSum(iv.sumOf(tt.e), leaves); got != tt.want {
				t.Errorf("sum of %s = %s, want %s", sym.Format(tt.e, leaves), got, tt.want)
			}
		})
	}
}

// formatSum writes s with its atoms in order, the constant last.
func formatSum(s sum, leaves []rt.Leaf) string {
	out := ""
	for _, a := range s.atoms {
		if out != "" {
			out += " + "
		}
		out += fmt.Sprintf("%d·%s", a.coef, sym.Format(a.t, leaves))
	}
	switch {
	case out == "":
		return fmt.Sprint(s.c)
	case s.c != 0:
		out += fmt.Sprintf(" + %d", s.c)
	}
	return out
}

// TestSumIntervalsHoldOnModels builds random queries of sums and
// differences that share their terms, in kinds that wrap around (int8,
// uint8) and 64-bit ones, compared with constants, with each other and
// as uint64 bounds checks: every query the intervals refute, Z3 must find
// unsatisfiable, and on every model Z3 finds each term of the query must
// take a value within the interval the intervals (forward and backward)
// give it.
func TestSumIntervalsHoldOnModels(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "a", K: rt.KInt8}, {Path: "b", K: rt.KUint8}, {Path: "x", K: rt.KInt64}, {Path: "u", K: rt.KUint64}, {Path: "n", K: rt.KInt, IsLen: true, Max: 10}}
	ins := []*sym.Expr{c.Input(0, rt.KInt8), c.Input(1, rt.KUint8), c.Input(2, rt.KInt64), c.Input(3, rt.KUint64), c.Input(4, rt.KInt)}
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(61, 62))
	small := func() int64 { return int64(rng.IntN(21)) - 10 }
	// atom returns a term of kind k that is not a sum.
	atom := func(k rt.Kind) *sym.Expr {
		var pick []*sym.Expr
		for _, in := range ins {
			if in.Kind() == k {
				pick = append(pick, in)
			}
		}
		switch rng.IntN(4) {
		case 0:
			in := ins[rng.IntN(len(ins))]
			if in.Kind() != k {
				return c.Conv(k, in)
			}
		case 1:
			if len(pick) > 0 {
				return c.Binary(rt.OpRem, pick[0], c.Const(k, 3))
			}
		}
		if len(pick) == 0 {
			return c.Conv(k, ins[rng.IntN(len(ins))])
		}
		return pick[rng.IntN(len(pick))]
	}
	// term returns a sum of kind k that reads its atoms more than once.
	var term func(k rt.Kind, depth int) *sym.Expr
	term = func(k rt.Kind, depth int) *sym.Expr {
		if depth == 0 {
			return atom(k)
		}
		a := term(k, depth-1)
		switch rng.IntN(6) {
		case 0:
			return c.Binary(rt.OpSub, a, term(k, depth-1))
		case 1:
			return c.Binary(rt.OpAdd, a, term(k, depth-1))
		case 2:
			return c.Binary(rt.OpMul, a, c.Const(k, uint64(small())))
		case 3:
			return c.Neg(a)
		case 4:
			return c.Binary(rt.OpSub, a, c.Binary(rt.OpSub, a, c.Const(k, uint64(small())))) // cancels
		}
		return c.Binary(rt.OpAdd, a, c.Const(k, uint64(small())))
	}
	kinds := []rt.Kind{rt.KInt8, rt.KUint8, rt.KInt64, rt.KUint64, rt.KInt}
	constraint := func() *sym.Expr {
		k := kinds[rng.IntN(len(kinds))]
		op := comparisons[rng.IntN(len(comparisons))]
		switch rng.IntN(3) {
		case 0:
			return c.Compare(op, term(k, 1+rng.IntN(3)), term(k, rng.IntN(3)))
		case 1:
			return c.Compare(op, c.Conv(rt.KUint64, term(k, 1+rng.IntN(3))), c.Conv(rt.KUint64, term(k, rng.IntN(2))))
		}
		return c.Compare(op, term(k, 1+rng.IntN(3)), c.Const(k, uint64(small())))
	}
	refuted, checked := 0, 0
	for range 300 {
		q := Query{Constraints: conjunction(rng, 1, 5, constraint), Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
		iv, no := byIntervals(q)
		want, err := core.Solve(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if no {
			if want.Status != Unsat {
				t.Fatalf("%s: refuted, Z3 says %v with %v", sym.FormatAll(q.Constraints, leaves), want.Status, want.Model)
			}
			refuted++
			iv.release()
			continue
		}
		if want.Status != Sat {
			iv.release()
			continue
		}
		ev := sym.NewEvaluator(want.Model)
		for _, e := range slices.Clone(iv.terms) {
			if !e.Kind().Integer() && e.Kind() != rt.KBool {
				continue
			}
			v, err := ev.Eval(e)
			if err != nil {
				continue // undefined (a remainder by 0 is not asked here)
			}
			r := iv.interval(e)
			if o := ordered(e.Kind(), v.Bits); o < r.lo || o > r.hi {
				t.Fatalf("%s: model %v gives %s the value %d, outside its interval %v", sym.FormatAll(q.Constraints, leaves), want.Model, sym.Format(e, leaves), o, r)
			}
			checked++
		}
		iv.release()
	}
	if refuted < 40 || checked < 2000 {
		t.Errorf("refuted %d queries and checked %d values: the test checks too little", refuted, checked)
	}
	t.Logf("refuted %d of 300, checked %d values on models", refuted, checked)
}
