package solver

import (
	"bytes"
	"context"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// TestRecordingRoundTrip records queries through a chain and reads them
// back: the same terms (interned in the same context), leaves, seeds and
// answers.
func TestRecordingRoundTrip(t *testing.T) {
	c := sym.NewContext()
	b := linTerms{t, c}
	leaves := []rt.Leaf{{Path: "a", K: rt.KInt64}, {Path: "s", K: rt.KString, Max: 3}}
	a, s := c.Input(0, rt.KInt64), c.Input(1, rt.KString)
	k := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	shared := b.arith(rt.OpAdd, a, k(1))
	queries := []Query{
		{Constraints: []*sym.Expr{b.cmp(rt.OpGt, shared, k(5)), b.cmp(rt.OpLt, shared, k(9))}, Leaves: leaves, Seed: []rt.Value{{Bits: 2}, {Str: "x"}}},
		{Constraints: []*sym.Expr{b.cmp(rt.OpGt, shared, k(5)), b.cmp(rt.OpLt, shared, k(5))}, Leaves: leaves, Seed: []rt.Value{{}, {}}},
		{Constraints: []*sym.Expr{b.cmp(rt.OpEq, b.make(rt.OpLen, rt.KInt, 0, s), c.Const(rt.KInt, 2))}, Leaves: leaves, Seed: []rt.Value{{}, {}}},
	}
	chain := New(Config{})
	defer chain.Close()
	var buf bytes.Buffer
	rec := NewRecording(chain, &buf)
	var want []Status
	for _, q := range queries {
		r, err := rec.Solve(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, r.Status)
	}
	got, sts, err := ReadCorpus(&buf, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(queries) {
		t.Fatalf("%d queries read, %d recorded", len(got), len(queries))
	}
	for i, q := range got {
		if sts[i] != want[i] {
			t.Errorf("query %d: status %s, recorded %s", i, sts[i], want[i])
		}
		if len(q.Constraints) != len(queries[i].Constraints) || len(q.Seed) != len(queries[i].Seed) || len(q.Leaves) != len(leaves) {
			t.Fatalf("query %d read back with another shape", i)
		}
		for j, e := range q.Constraints {
			if e != queries[i].Constraints[j] {
				t.Errorf("query %d constraint %d: %v, want %v", i, j, e, queries[i].Constraints[j])
			}
		}
	}
	if want[0] != Sat || want[1] != Unsat {
		t.Errorf("answers %v, want sat, unsat, ...", want)
	}
}
