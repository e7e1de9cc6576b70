package solver

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// selection is the term rt builds for bytes[at]: an if-then-else over
// every offset, the last one the fallback.
func selection(c *sym.Context, bytes []*sym.Expr, at *sym.Expr) *sym.Expr {
	r := bytes[0]
	for i := 1; i < len(bytes); i++ {
		r = c.Ite(c.Compare(rt.OpEq, at, c.Const(at.Kind(), uint64(i))), bytes[i], r)
	}
	return r
}

func countIte(cons []*sym.Expr) int {
	seen := map[*sym.Expr]bool{}
	n := 0
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if seen[e] {
			return
		}
		seen[e] = true
		if e.Op() == rt.OpIte {
			n++
		}
		for i := range e.NumArgs() {
			walk(e.Arg(i))
		}
	}
	for _, e := range cons {
		walk(e)
	}
	return n
}

// TestDecideGuards: an offset the path fixes through a conversion
// (int64(x) > 0 && int64(x) <= 1) reduces a selection at x to one byte;
// one it bounds, to the offsets within the bounds; one it says nothing
// of leaves the query as it was.
func TestDecideGuards(t *testing.T) {
	c := sym.NewContext()
	leaves, bytes := byteInputs(c, "b", 6)
	leaves = append(leaves, rt.Leaf{Path: "x", K: rt.KUint8})
	x := c.Input(6, rt.KUint8)
	wide := c.Conv(rt.KInt64, x)
	i64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	sel := selection(c, bytes, x)
	isA := c.Compare(rt.OpEq, sel, c.Const(rt.KUint8, 'A'))
	core := NewZ3(Options{})
	defer core.Close()
	for _, tt := range []struct {
		name string
		cons []*sym.Expr
		ites int // if-then-elses left
		want int // the byte that must be 'A', when the offset is fixed
	}{
		{"fixed by a conversion", []*sym.Expr{c.Compare(rt.OpGt, wide, i64(0)), c.Compare(rt.OpLe, wide, i64(1)), isA}, 0, 1},
		{"fixed by an equality", []*sym.Expr{c.Compare(rt.OpEq, x, c.Const(rt.KUint8, 4)), isA}, 0, 4},
		{"bounded", []*sym.Expr{c.Compare(rt.OpGt, wide, i64(0)), c.Compare(rt.OpLe, wide, i64(2)), isA}, 2, -1},
		{"free", []*sym.Expr{c.Compare(rt.OpNe, bytes[0], c.Const(rt.KUint8, 'A')), isA}, 5, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := Query{Constraints: tt.cons, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
			r, got := passedOn(t, core, q)
			if left := countIte(got.Constraints); left != tt.ites {
				t.Fatalf("%d if-then-elses left in %s, want %d", left, sym.FormatAll(got.Constraints, leaves), tt.ites)
			}
			if tt.ites == countIte(q.Constraints) && !slices.Equal(got.Constraints, q.Constraints) {
				t.Fatalf("query changed: %s", sym.FormatAll(got.Constraints, leaves))
			}
			if r.Status != Sat {
				t.Fatalf("got %v", r.Status)
			}
			if tt.want < 0 {
				return
			}
			if last := got.Constraints[len(got.Constraints)-1]; last.Hash() != c.Compare(rt.OpEq, bytes[tt.want], c.Const(rt.KUint8, 'A')).Hash() {
				t.Errorf("last constraint %s, want b[%d] == 'A'", sym.FormatAll([]*sym.Expr{last}, leaves), tt.want)
			}
			if r.Model[tt.want].Bits != 'A' || r.Model[6].Bits != uint64(tt.want) {
				t.Errorf("got %v %v", r.Status, r.Model)
			}
		})
	}
}

// TestDecideGuardsRounds: a query whose rewriting lets another argument
// of the layer refute it. The guard b == 1 is decided, which turns
// ite(b == 1, x, z) < y into x < y, and that contradicts x >= y: refuted
// in the second round, without Z3.
func TestDecideGuardsRounds(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "b", K: rt.KUint8}, {Path: "x", K: rt.KInt}, {Path: "y", K: rt.KInt}, {Path: "z", K: rt.KInt}}
	b, x, y, z := c.Input(0, rt.KUint8), c.Input(1, rt.KInt), c.Input(2, rt.KInt), c.Input(3, rt.KInt)
	cons := []*sym.Expr{
		c.Compare(rt.OpEq, b, c.Const(rt.KUint8, 1)),
		c.Compare(rt.OpLt, c.Ite(c.Compare(rt.OpEq, b, c.Const(rt.KUint8, 1)), x, z), y),
		c.Compare(rt.OpGe, x, y),
	}
	q := Query{Constraints: cons, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
	core := NewZ3(Options{})
	defer core.Close()
	rec := &recorder{next: core}
	m := &Metrics{}
	r, err := NewRefute(rec, m).Solve(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Unsat || len(rec.queries) != 0 || m.Snapshot().Refuted != 1 {
		t.Fatalf("got %v with %d queries passed on, %d refuted; want unsat, refuted by the layer", r.Status, len(rec.queries), m.Snapshot().Refuted)
	}
}

// TestFixedTermsSubstituted: a term the intervals fix to one value is
// passed on as that constant wherever it is an operand (x * 3 + y > 20
// with x == 4 becomes 12 + y > 20), with the term's equality to it
// among the constraints; a comparison of the term with a constant keeps
// the term.
func TestFixedTermsSubstituted(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "x", K: rt.KInt64}, {Path: "y", K: rt.KInt64}}
	x, y := c.Input(0, rt.KInt64), c.Input(1, rt.KInt64)
	i64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	fixX := c.Compare(rt.OpEq, x, i64(4))
	last := c.Compare(rt.OpGt, c.Binary(rt.OpAdd, c.Binary(rt.OpMul, x, i64(3)), y), i64(20))
	q := Query{Constraints: []*sym.Expr{fixX, c.Compare(rt.OpLt, y, i64(100)), last}, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
	core := NewZ3(Options{})
	defer core.Close()
	r, passed := passedOn(t, core, q)
	got := passed.Constraints
	// The layer builds the terms it passes on in its own context: equal
	// by structure, not by pointer.
	if !slices.ContainsFunc(got, func(e *sym.Expr) bool { return e.String() == fixX.String() }) {
		t.Errorf("x == 4 is not among %s", sym.FormatAll(got, leaves))
	}
	if l := got[len(got)-1]; !slices.Equal(l.Vars(), []int{1}) {
		t.Errorf("last constraint %s, want one of y alone", sym.FormatAll([]*sym.Expr{l}, leaves))
	}
	if r.Status != Sat || int64(r.Model[0].Bits) != 4 || int64(r.Model[1].Bits) <= 8 || int64(r.Model[1].Bits) >= 100 {
		t.Errorf("got %v %v", r.Status, r.Model)
	}
}

// TestRewrittenTermsShared: a rewriting round builds the terms it
// changes in the layer's context; (x*3 + b) * b with x fixed to 4 becomes
// (12 + b) * b, which must then be the same term as the (12 + b) * b
// another constraint reads in the query's context, or the intervals see
// two products, one above 5 and one at most 5 (a product of unknowns is
// not narrowed backwards), and do not refute the query.
func TestRewrittenTermsShared(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "x", K: rt.KInt64}, {Path: "b", K: rt.KUint8}}
	x := c.Input(0, rt.KInt64)
	b := c.Conv(rt.KInt64, c.Input(1, rt.KUint8))
	i64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	product := func(a *sym.Expr) *sym.Expr { return c.Binary(rt.OpMul, c.Binary(rt.OpAdd, a, b), b) }
	q := Query{Constraints: []*sym.Expr{
		c.Compare(rt.OpEq, x, i64(4)),
		c.Compare(rt.OpLe, product(i64(12)), i64(5)),
		c.Compare(rt.OpGt, product(c.Binary(rt.OpMul, x, i64(3))), i64(5)),
	}, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
	called := false
	r, err := NewRefute(record{&called}, nil).Solve(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if called || r.Status != Unsat {
		t.Errorf("%s: passed on (%v), want refuted", sym.FormatAll(q.Constraints, leaves), r.Status)
	}
}

// TestPointerFixed: a DNS compression pointer's offset below 64,
// (int64(m0) ^ 192) << 8 | int64(m1), with m0's top bits set, fixes m0 to
// 192 (backwards through the conversion, the or, the shift and the xor),
// and the offset computed after it is passed on as one of m1 alone.
func TestPointerFixed(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "m", K: rt.KUint8}, {Path: "m", K: rt.KUint8}}
	m0, m1 := c.Conv(rt.KInt64, c.Input(0, rt.KUint8)), c.Conv(rt.KInt64, c.Input(1, rt.KUint8))
	i64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	ptr := c.Binary(rt.OpOr, c.Binary(rt.OpShl, c.Binary(rt.OpXor, m0, i64(192)), c.Const(rt.KUint64, 8)), m1)
	q := Query{Constraints: []*sym.Expr{
		c.Compare(rt.OpEq, c.Binary(rt.OpAnd, m0, i64(192)), i64(192)),
		c.Compare(rt.OpLt, c.Conv(rt.KUint64, ptr), c.Const(rt.KUint64, 64)),
		c.Compare(rt.OpEq, c.Binary(rt.OpAdd, ptr, i64(1)), i64(13)),
	}, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
	core := NewZ3(Options{})
	defer core.Close()
	passed := layerAgreesWithZ3(t, core, q)
	if passed == nil {
		t.Fatal("refuted")
	}
	if l := passed.Constraints[len(passed.Constraints)-1]; !slices.Equal(l.Vars(), []int{1}) {
		t.Errorf("last constraint %s, want one of m1 alone", sym.FormatAll([]*sym.Expr{l}, leaves))
	}
}

// TestDecideGuardsAgreesWithZ3 builds random queries of selections at two
// offsets (in the second half, some read at an offset themselves), bounds of the offsets (directly and through conversions) and
// comparisons of the selected bytes: the query the refutation layer
// passes on must have Z3's verdict on the original, and its models must
// satisfy the original.
func TestDecideGuardsAgreesWithZ3(t *testing.T) {
	skipRaceCopy(t)
	c := sym.NewContext()
	const size = 6
	leaves, bytes := byteInputs(c, "b", size)
	leaves = append(leaves, rt.Leaf{Path: "x", K: rt.KUint8}, rt.Leaf{Path: "y", K: rt.KUint8})
	offsets := []*sym.Expr{c.Input(size, rt.KUint8), c.Input(size+1, rt.KUint8)}
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	nested := false // the second half of the queries reads offsets at offsets
	ops := comparisons
	op := func() rt.Op { return ops[rng.IntN(len(ops))] }
	offset := func() *sym.Expr {
		o := offsets[rng.IntN(2)]
		if nested && rng.IntN(3) == 0 {
			o = selection(c, bytes, o)
		}
		if rng.IntN(3) == 0 {
			o = c.Binary(rt.OpAdd, o, c.Const(rt.KUint8, 1))
		}
		return o
	}
	constraint := func() *sym.Expr {
		switch rng.IntN(5) {
		case 0, 1: // a bound of an offset
			o := offsets[rng.IntN(2)]
			if rng.IntN(2) == 0 {
				return c.Compare(op(), c.Conv(rt.KInt64, o), c.Const(rt.KInt64, uint64(rng.IntN(size+1))))
			}
			return c.Compare(op(), o, c.Const(rt.KUint8, uint64(rng.IntN(size+1))))
		case 2: // two selections compared
			return c.Compare(op(), selection(c, bytes, offset()), selection(c, bytes, offset()))
		case 3: // a selection in a sum
			s := c.Binary(rt.OpAdd, c.Conv(rt.KInt64, offset()), c.Conv(rt.KInt64, selection(c, bytes, offset())))
			return c.Compare(op(), s, c.Const(rt.KInt64, uint64(rng.IntN(12))))
		}
		return c.Compare(op(), selection(c, bytes, offset()), c.Const(rt.KUint8, uint64(rng.IntN(4))))
	}
	decided := 0
	const queries = 300
	for i := range 2 * queries {
		nested = i >= queries
		cons := conjunction(rng, 2, 5, constraint)
		passed := layerAgreesWithZ3(t, core, Query{Constraints: cons, Leaves: leaves, Seed: make([]rt.Value, len(leaves))})
		if passed != nil && countIte(passed.Constraints) < countIte(cons) {
			decided++
		}
	}
	if decided < queries/5 {
		t.Errorf("guards decided in %d of %d queries", decided, 2*queries)
	}
	t.Logf("guards decided in %d of %d queries", decided, 2*queries)
}

// layerAgreesWithZ3 fails t unless the refutation layer's verdict on q
// is Z3's and its model, if any, satisfies q. It returns the query the
// layer passed on, if it passed one on.
func layerAgreesWithZ3(t *testing.T, core *Z3, q Query) *Query {
	t.Helper()
	want, err := core.Solve(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{next: core}
	got, err := NewRefute(rec, nil).Solve(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != want.Status {
		t.Fatalf("%s: %v after the layer, Z3 says %v", sym.FormatAll(q.Constraints, q.Leaves), got.Status, want.Status)
	}
	if got.Status == Sat {
		for _, e := range q.Constraints {
			if v, err := sym.Eval(e, got.Model); err != nil || v.Bits != 1 {
				t.Fatalf("%s: model %v does not satisfy %s", sym.FormatAll(q.Constraints, q.Leaves), got.Model, sym.FormatAll([]*sym.Expr{e}, q.Leaves))
			}
		}
		if err := inDomain(q.Leaves, got.Model); err != nil {
			t.Fatalf("%s: model %v: %v", sym.FormatAll(q.Constraints, q.Leaves), got.Model, err)
		}
	}
	if len(rec.queries) == 0 {
		return nil
	}
	return &rec.queries[0]
}

// TestBitsAgreeWithZ3 builds random queries over bytes widened to int64
// in the shapes binary parsers build (masks, xor with constants, shifts
// by constants, ors of a shifted byte with another: compression
// pointers, big-endian fields; lengths left, a constant minus an
// offset), compared with constants, with each other and through
// conversions to uint64: the layer's verdict must be Z3's, and its
// models must satisfy the original.
func TestBitsAgreeWithZ3(t *testing.T) {
	skipRaceCopy(t)
	c := sym.NewContext()
	leaves, bytes := byteInputs(c, "m", 3)
	for i, b := range bytes {
		bytes[i] = c.Conv(rt.KInt64, b)
	}
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(11, 12))
	ops := comparisons
	i64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	masks := []int64{192, 63, 15, 128, 255}
	bound := func() int64 { return []int64{0, 1, 63, 64, 192, 255, 256, 16383, 16384, 65535}[rng.IntN(10)] }
	var term func(depth int) *sym.Expr
	term = func(depth int) *sym.Expr {
		b := bytes[rng.IntN(len(bytes))]
		if depth == 0 {
			return b
		}
		switch rng.IntN(6) {
		case 5: // a length left: 23 - (m + 1)
			return c.Binary(rt.OpSub, i64(bound()), c.Binary(rt.OpAdd, term(depth-1), i64(1)))
		case 0:
			return c.Binary(rt.OpXor, term(depth-1), i64(masks[rng.IntN(len(masks))]))
		case 1:
			return c.Binary(rt.OpAnd, term(depth-1), i64(masks[rng.IntN(len(masks))]))
		case 2:
			return c.Binary(rt.OpShr, term(depth-1), c.Const(rt.KUint64, uint64(rng.IntN(9))))
		case 3:
			return c.Binary(rt.OpOr, c.Binary(rt.OpShl, term(depth-1), c.Const(rt.KUint64, 8)), b)
		}
		return c.Binary(rt.OpShl, term(depth-1), c.Const(rt.KUint64, uint64(rng.IntN(12))))
	}
	constraint := func() *sym.Expr {
		op := ops[rng.IntN(len(ops))]
		switch rng.IntN(4) {
		case 0:
			return c.Compare(op, c.Conv(rt.KUint64, term(1+rng.IntN(2))), c.Const(rt.KUint64, uint64(bound())))
		case 1:
			return c.Compare(op, term(rng.IntN(3)), term(rng.IntN(2)))
		}
		return c.Compare(op, term(rng.IntN(3)), i64(bound()))
	}
	refuted, fixed := 0, 0
	const queries = 600
	for range queries {
		cons := conjunction(rng, 2, 4, constraint)
		passed := layerAgreesWithZ3(t, core, Query{Constraints: cons, Leaves: leaves, Seed: make([]rt.Value, len(leaves))})
		switch {
		case passed == nil:
			refuted++
		case !slices.Equal(passed.Constraints, cons):
			fixed++
		}
	}
	if refuted < queries/10 || fixed < queries/20 {
		t.Errorf("of %d queries, %d refuted and %d rewritten", queries, refuted, fixed)
	}
	t.Logf("of %d queries, %d refuted and %d rewritten", queries, refuted, fixed)
}

// passedOn solves q through the refutation layer in front of core and
// returns the result and the one query the layer passed on (t fails
// unless it passed on exactly one).
func passedOn(t *testing.T, core Solver, q Query) (Result, Query) {
	t.Helper()
	rec := &recorder{next: core}
	r, err := NewRefute(rec, nil).Solve(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.queries) != 1 {
		t.Fatalf("the layer passed on %d queries", len(rec.queries))
	}
	return r, rec.queries[0]
}

// byteInputs returns n byte leaves at path and their input terms.
func byteInputs(c *sym.Context, path string, n int) ([]rt.Leaf, []*sym.Expr) {
	var leaves []rt.Leaf
	var bytes []*sym.Expr
	for i := range n {
		leaves = append(leaves, rt.Leaf{Path: path, K: rt.KUint8})
		bytes = append(bytes, c.Input(i, rt.KUint8))
	}
	return leaves, bytes
}
