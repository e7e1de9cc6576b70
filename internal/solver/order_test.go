package solver

import (
	"context"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// refuse is a next solver that fails the test when called: the order
// layer must decide the query itself.
type refuse struct{ t *testing.T }

func (r refuse) Solve(context.Context, Query) (Result, error) {
	r.t.Helper()
	r.t.Fatal("query reached the next solver")
	return Result{}, nil
}

// record is a next solver that notes that it was called.
type record struct{ called *bool }

func (r record) Solve(context.Context, Query) (Result, error) {
	*r.called = true
	return Result{Status: Unknown, Why: "next"}, nil
}

func TestOrder(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "a", K: rt.KInt64}, {Path: "b", K: rt.KInt64}, {Path: "c", K: rt.KInt64},
		{Path: "u", K: rt.KUint64}, {Path: "s", K: rt.KInt8}, {Path: "len(xs)", K: rt.KInt, IsLen: true, Max: 3}, {Path: "t", K: rt.KInt8}}
	in := func(i int) *sym.Expr { return c.Input(i, leaves[i].K) }
	cmp := func(op rt.Op, x, y *sym.Expr) *sym.Expr {
		e, err := c.Make(op, rt.KBool, x.Kind(), []*sym.Expr{x, y}, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	a, b, cc, u, s, n := in(0), in(1), in(2), in(3), in(4), in(5)
	k64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	tests := []struct {
		name   string
		cons   []*sym.Expr
		want   Status // Unknown: must fall through to the next solver
		decide bool
	}{
		{"chain sat", []*sym.Expr{cmp(rt.OpLt, a, b), cmp(rt.OpLt, b, cc)}, Sat, true},
		{"cycle unsat", []*sym.Expr{cmp(rt.OpLt, a, b), cmp(rt.OpLt, b, cc), cmp(rt.OpLe, cc, a)}, Unsat, true},
		{"equal and less unsat", []*sym.Expr{cmp(rt.OpEq, a, b), cmp(rt.OpGt, a, b)}, Unsat, true},
		{"constants sat", []*sym.Expr{cmp(rt.OpGt, a, k64(5)), cmp(rt.OpLt, a, k64(7))}, Sat, true},
		{"constants unsat", []*sym.Expr{cmp(rt.OpGt, a, k64(5)), cmp(rt.OpLt, a, k64(6))}, Unsat, true},
		{"int8 range", []*sym.Expr{cmp(rt.OpGt, s, c.Const(rt.KInt8, 126))}, Sat, true},
		{"int8 range unsat", []*sym.Expr{cmp(rt.OpGt, s, c.Const(rt.KInt8, 125)), cmp(rt.OpLt, c.Const(rt.KInt8, 126), s), cmp(rt.OpLt, s, c.Input(6, rt.KInt8)), cmp(rt.OpGe, s, c.Const(rt.KInt8, 127))}, Unsat, true},
		{"uint64 order", []*sym.Expr{cmp(rt.OpGt, u, c.Const(rt.KUint64, 1<<63))}, Sat, true},
		{"length bound unsat", []*sym.Expr{cmp(rt.OpGt, n, c.Const(rt.KInt, 3))}, Unsat, true},
		{"min int64 reachable", []*sym.Expr{cmp(rt.OpLe, a, k64(-1<<63))}, Sat, true},
		{"disequality holds", []*sym.Expr{cmp(rt.OpNe, a, b), cmp(rt.OpLt, a, b)}, Sat, true},
		{"disequality repaired", []*sym.Expr{cmp(rt.OpNe, a, b)}, Sat, true},
		// The seed's repair moves a and b around each other; the split
		// into b < a and b > a solves it (a sorted run with one value
		// known to differ, as a map's key collisions ask).
		{"disequality split sat", []*sym.Expr{cmp(rt.OpGe, b, a), cmp(rt.OpGe, cc, b), cmp(rt.OpNe, b, a)}, Sat, true},
		{"disequality split unsat", []*sym.Expr{cmp(rt.OpLe, a, b), cmp(rt.OpLe, b, cc), cmp(rt.OpLe, cc, a), cmp(rt.OpNe, a, cc)}, Unsat, true},
		{"two disequalities split", []*sym.Expr{cmp(rt.OpGe, b, a), cmp(rt.OpGe, cc, b), cmp(rt.OpLe, cc, k64(1)), cmp(rt.OpGe, a, k64(0)), cmp(rt.OpNe, b, a), cmp(rt.OpNe, cc, b)}, Unsat, true},
		{"arithmetic left to next", []*sym.Expr{cmp(rt.OpLt, c.Binary(rt.OpAdd, a, k64(1)), b)}, Unknown, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := Query{Constraints: tt.cons, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
			called := false
			var next Solver = record{&called}
			if tt.decide {
				next = refuse{t}
			}
			r, err := NewOrder(next, &Metrics{}).Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tt.want {
				t.Fatalf("status %v, want %v", r.Status, tt.want)
			}
			if !tt.decide && !called {
				t.Fatal("the next solver was not consulted")
			}
			if r.Status == Sat {
				for _, con := range tt.cons {
					if ok, err := sym.Holds(con, r.Model); err != nil || !ok {
						t.Fatalf("model %v violates %v", r.Model, con)
					}
				}
			}
		})
	}
}
