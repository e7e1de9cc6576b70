package solver

import (
	"context"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

func TestNeighbors(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "key", K: rt.KInt64}, {Path: "n", K: rt.KUint64}, {Path: "len(xs)", K: rt.KInt, IsLen: true, Max: 3}}
	key, n, l := c.Input(0, rt.KInt64), c.Input(1, rt.KUint64), c.Input(2, rt.KInt)
	i64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	tests := []struct {
		name string
		cons []*sym.Expr
		seed []rt.Value
		want []rt.Value // nil: passed on
	}{
		{"the next bucket", []*sym.Expr{c.Compare(rt.OpGe, key, i64(0)), c.Compare(rt.OpEq, c.Binary(rt.OpRem, key, i64(4)), i64(0))},
			[]rt.Value{{Bits: 3}, {Bits: 9}, {Bits: 1}}, []rt.Value{{Bits: 4}, {Bits: 9}, {Bits: 1}}},
		{"a constant far from the seed", []*sym.Expr{c.Compare(rt.OpEq, key, i64(-1000))},
			[]rt.Value{{Bits: 3}, {}, {}}, []rt.Value{{Bits: uint64(0xffffffffffffffff - 999)}, {}, {}}},
		{"a length within its bound", []*sym.Expr{c.Compare(rt.OpGt, l, c.Const(rt.KInt, 2))},
			[]rt.Value{{}, {}, {Bits: 1}}, []rt.Value{{}, {}, {Bits: 3}}},
		{"a length beyond its bound", []*sym.Expr{c.Compare(rt.OpGt, l, c.Const(rt.KInt, 3))},
			[]rt.Value{{}, {}, {Bits: 1}}, nil},
		{"another input's constraint fails on the seed", []*sym.Expr{c.Compare(rt.OpGt, n, c.Const(rt.KUint64, 1<<40)), c.Compare(rt.OpEq, c.Binary(rt.OpAdd, key, c.Conv(rt.KInt64, n)), i64(5))},
			[]rt.Value{{}, {}, {}}, nil},
		{"two inputs must move", []*sym.Expr{c.Compare(rt.OpEq, key, i64(7)), c.Compare(rt.OpEq, c.Conv(rt.KUint64, key), n)},
			[]rt.Value{{}, {}, {}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := Query{Constraints: tt.cons, Leaves: leaves, Seed: tt.seed}
			called := false
			m := &Metrics{}
			r, err := NewNeighbors(record{&called}, m).Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == nil {
				if !called {
					t.Fatalf("answered %v with %v, want it passed on", r.Status, r.Model)
				}
				return
			}
			if called || r.Status != Sat || m.Snapshot().NeighborHits != 1 {
				t.Fatalf("got %v (passed on %v), want Sat", r.Status, called)
			}
			for i := range tt.want {
				if r.Model[i] != tt.want[i] {
					t.Fatalf("model %v, want %v", r.Model, tt.want)
				}
			}
		})
	}
}
