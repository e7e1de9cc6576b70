package solver

import (
	"context"
	"slices"
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
		{"an overflow, at the kind's least value", []*sym.Expr{c.Compare(rt.OpGt, n, c.Const(rt.KUint64, 0)), c.Compare(rt.OpGt, c.Binary(rt.OpSub, key, c.Conv(rt.KInt64, n)), key)},
			[]rt.Value{{Bits: 1}, {Bits: 1}, {}}, []rt.Value{{Bits: 1 << 63}, {Bits: 1}, {}}},
		{"a constant beyond the nearest moves", []*sym.Expr{c.Compare(rt.OpLt, key, i64(0)), c.Compare(rt.OpEq, c.Binary(rt.OpRem, key, i64(7)), i64(-3)), c.Or(c.Compare(rt.OpLe, key, i64(-5000)), c.Compare(rt.OpGe, key, i64(5000)))},
			[]rt.Value{{Bits: 5000}, {}, {}}, []rt.Value{{Bits: uint64(0xffffffffffffffff - 5000)}, {}, {}}}, // -5001
		{"two inputs must move", []*sym.Expr{c.Compare(rt.OpEq, key, i64(7)), c.Compare(rt.OpEq, c.Conv(rt.KUint64, key), n)},
			[]rt.Value{{}, {}, {}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkNeighbor(t, Query{Constraints: tt.cons, Leaves: leaves, Seed: tt.seed}, tt.want)
		})
	}
}

// checkNeighbor checks the layer's answer to q: the model want, or (nil)
// passed on to the next solver.
func checkNeighbor(t *testing.T, q Query, want []rt.Value) {
	t.Helper()
	called := false
	m := &Metrics{}
	r, err := NewNeighbors(record{&called}, m).Solve(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if want == nil {
		if !called {
			t.Fatalf("answered %v with %v, want it passed on", r.Status, r.Model)
		}
		return
	}
	if called || r.Status != Sat || m.Snapshot().NeighborHits != 1 || !slices.Equal(r.Model, want) {
		t.Fatalf("got %v %v (passed on %v), want %v", r.Status, r.Model, called, want)
	}
}

// TestNeighborsOverflow checks the moves of two inputs together, which
// only an overflow check gets: one input at an end of its kind, the other
// a step from the seed.
func TestNeighborsOverflow(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "a", K: rt.KUint64}, {Path: "b", K: rt.KUint64}, {Path: "c", K: rt.KInt64}, {Path: "d", K: rt.KInt64}}
	a, b, ci, d := c.Input(0, rt.KUint64), c.Input(1, rt.KUint64), c.Input(2, rt.KInt64), c.Input(3, rt.KInt64)
	u64 := func(v uint64) *sym.Expr { return c.Const(rt.KUint64, v) }
	i64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	const maxU, maxI = ^uint64(0), uint64(1<<63 - 1)
	tests := []struct {
		name string
		cons []*sym.Expr
		seed []rt.Value
		want []rt.Value // nil: passed on
	}{
		{"unsigned a + b < a", []*sym.Expr{c.Compare(rt.OpLt, c.Binary(rt.OpAdd, a, b), a)},
			[]rt.Value{{}, {}, {}, {}}, []rt.Value{{Bits: maxU}, {Bits: 1}, {}, {}}},
		{"negated, a > a + b", []*sym.Expr{c.Not(c.Compare(rt.OpLe, a, c.Binary(rt.OpAdd, a, b)))},
			[]rt.Value{{}, {}, {}, {}}, []rt.Value{{Bits: maxU}, {Bits: 1}, {}, {}}},
		{"a product divided back", []*sym.Expr{c.Compare(rt.OpNe, b, u64(0)), c.Compare(rt.OpNe, c.Binary(rt.OpQuo, c.Binary(rt.OpMul, a, b), b), a)},
			[]rt.Value{{}, {Bits: 1}, {}, {}}, []rt.Value{{Bits: maxU}, {Bits: 2}, {}, {}}},
		{"signed, with the other input positive", []*sym.Expr{c.Compare(rt.OpGt, d, i64(0)), c.Compare(rt.OpLt, c.Binary(rt.OpAdd, ci, d), ci)},
			[]rt.Value{{}, {}, {}, {}}, []rt.Value{{}, {}, {Bits: maxI}, {Bits: 1}}},
		{"a sum compared with a constant is not an overflow check", []*sym.Expr{c.Compare(rt.OpEq, a, b), c.Compare(rt.OpEq, c.Binary(rt.OpAdd, a, b), u64(10))},
			[]rt.Value{{}, {}, {}, {}}, nil},
		{"a sum of three inputs", []*sym.Expr{c.Compare(rt.OpLt, c.Binary(rt.OpAdd, c.Binary(rt.OpAdd, a, b), c.Conv(rt.KUint64, ci)), a)},
			[]rt.Value{{}, {}, {}, {}}, nil},
		{"another input's constraint fails on the seed", []*sym.Expr{c.Compare(rt.OpGt, d, i64(5)), c.Compare(rt.OpLt, c.Binary(rt.OpAdd, a, b), a)},
			[]rt.Value{{}, {}, {}, {}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkNeighbor(t, Query{Constraints: tt.cons, Leaves: leaves, Seed: tt.seed}, tt.want)
		})
	}
}

func TestNeighborsStrings(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "s", K: rt.KString, Max: 6}}
	s := c.Input(0, rt.KString)
	n := func(v int) *sym.Expr { return c.Const(rt.KInt, uint64(v)) }
	b := func(v byte) *sym.Expr { return c.Const(rt.KUint8, uint64(v)) }
	at := func(i int) *sym.Expr { return c.Index(s, n(i)) }
	dot := func(i int) *sym.Expr { return c.Compare(rt.OpEq, at(i), b('.')) }
	// The position of the first '.' of a 5-byte string, as the model of
	// strings.IndexByte builds it.
	first := c.Ite(dot(0), n(0), c.Ite(dot(1), n(1), c.Ite(dot(2), n(2), c.Ite(dot(3), n(3), c.Ite(dot(4), n(4), n(-1))))))
	tests := []struct {
		name string
		cons []*sym.Expr
		seed string
		want string // "": passed on
	}{
		{"a byte the last constraint compares with", []*sym.Expr{c.Compare(rt.OpEq, c.Len(s), n(5)), c.Compare(rt.OpGe, at(2), b(128))},
			"1.2.3", "1.\x80.3"},
		{"the first '.' moved to the front", []*sym.Expr{c.Compare(rt.OpEq, c.Len(s), n(5)), c.Compare(rt.OpEq, first, n(0))},
			"1.2.3", "..2.3"},
		{"a byte read through a slice", []*sym.Expr{c.Compare(rt.OpEq, c.Index(c.Slice(s, n(1), c.Len(s)), n(0)), b('='))},
			"x.2.3", "x=2.3"},
		{"a byte appended", []*sym.Expr{c.Compare(rt.OpGt, c.Len(s), n(5)), c.Compare(rt.OpEq, at(5), b('!'))},
			"1.2.3", "1.2.3!"},
		{"a string constant inserted", []*sym.Expr{c.Compare(rt.OpEq, at(2), b('1')), c.Compare(rt.OpEq, c.Slice(s, n(0), n(2)), c.Str(">="))},
			"1.2", ">=1.2"},
		{"bytes asked for at consecutive positions", []*sym.Expr{c.Compare(rt.OpEq, c.Len(s), n(5)), c.Compare(rt.OpEq, c.FromList([]*sym.Expr{at(0), at(1)}), c.Str("!="))},
			"1.2.3", "!=2.3"},
		{"two bytes must change", []*sym.Expr{c.Compare(rt.OpEq, c.Len(s), n(5)), c.And(dot(0), c.Compare(rt.OpEq, at(4), b('x')))},
			"1.2.3", ""},
		{"beyond the bound", []*sym.Expr{c.Compare(rt.OpGt, c.Len(s), n(6))},
			"1.2.3", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := Query{Constraints: tt.cons, Leaves: leaves, Seed: []rt.Value{{Str: tt.seed}}}
			called := false
			m := &Metrics{}
			r, err := NewNeighbors(record{&called}, m).Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if !called {
					t.Fatalf("answered %v with %q, want it passed on", r.Status, r.Model[0].Str)
				}
				return
			}
			if called || r.Status != Sat || m.Snapshot().NeighborHits != 1 {
				t.Fatalf("got %v (passed on %v), want Sat", r.Status, called)
			}
			if r.Model[0].Str != tt.want {
				t.Fatalf("model %q, want %q", r.Model[0].Str, tt.want)
			}
		})
	}
}

// TestMovesSmallValues: the small values an input tries are small in its
// kind, unsigned 64-bit included (not the values next to 2^63, where
// uint64's order puts int64's small numbers); only the kind's ends, last,
// are far from the seed.
func TestMovesSmallValues(t *testing.T) {
	for _, k := range []rt.Kind{rt.KUint64, rt.KInt64, rt.KUint8} {
		got := moves(rt.Leaf{K: k}, 100, nil)
		if !slices.Contains(got, 3) {
			t.Errorf("%v: moves from 100 %v, without 3", k, got)
		}
		for i, v := range got[:len(got)-4] {
			x := ordered(k, v)
			if k == rt.KUint64 {
				x = int64(v) // (negative for the values from 2^63)
			}
			if x < -1100 || x > 1200 {
				t.Errorf("%v: move %d from 100 is %d", k, i, v)
			}
		}
	}
}
