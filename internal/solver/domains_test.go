package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

func TestDomains(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "s", K: rt.KString, Max: 6}, {Path: "b", K: rt.KBool}, {Path: "i", K: rt.KInt8},
		{Path: "n", K: rt.KInt64}, {Path: "len(xs)", K: rt.KInt, IsLen: true, Max: 3}}
	s, b, i8, n, xs := c.Input(0, rt.KString), c.Input(1, rt.KBool), c.Input(2, rt.KInt8), c.Input(3, rt.KInt64), c.Input(4, rt.KInt)
	at := func(k int) *sym.Expr { return c.Conv(rt.KInt32, c.Index(s, c.Const(rt.KInt, uint64(k)))) }
	r32 := func(v rune) *sym.Expr { return c.Const(rt.KInt32, uint64(v)) }
	between := func(e *sym.Expr, lo, hi rune) *sym.Expr {
		return c.And(c.Compare(rt.OpGe, e, r32(lo)), c.Compare(rt.OpLe, e, r32(hi)))
	}
	lenS := c.Len(s)
	kInt := func(v int) *sym.Expr { return c.Const(rt.KInt, uint64(v)) }
	tests := []struct {
		name  string
		seed  string
		cons  []*sym.Expr
		want  Status // Unknown: must fall through to the next solver
		model string // the string input of a Sat model
	}{
		{"digit then upper", "ab", []*sym.Expr{c.Compare(rt.OpGt, lenS, kInt(1)), between(at(0), '0', '9'), between(at(1), 'A', 'Z')}, Sat, "0A"},
		{"seed byte kept", "7b", []*sym.Expr{c.Compare(rt.OpGt, lenS, kInt(1)), between(at(0), '0', '9'), between(at(1), 'A', 'Z')}, Sat, "7A"},
		{"longer, new bytes zero", "", []*sym.Expr{c.Compare(rt.OpGt, lenS, kInt(2)), between(at(2), 'a', 'z')}, Sat, "\x00\x00a"},
		{"not printable", "", []*sym.Expr{c.Compare(rt.OpGt, lenS, kInt(0)), c.Compare(rt.OpGe, at(0), r32(0x80))}, Sat, "\x80"},
		{"a byte beyond the length is free", "abcd", []*sym.Expr{c.Compare(rt.OpLe, lenS, kInt(1)), between(at(3), '0', '0'), between(at(3), '1', '1')}, Unsat, ""},
		{"a byte beyond the length", "abcd", []*sym.Expr{c.Compare(rt.OpLe, lenS, kInt(1)), between(at(3), '0', '0')}, Sat, "a"},
		{"empty class", "a", []*sym.Expr{c.Compare(rt.OpLt, at(0), r32(0x80)), c.Compare(rt.OpGe, at(0), r32(0x80))}, Unsat, ""},
		{"length beyond the bound", "", []*sym.Expr{c.Compare(rt.OpGt, lenS, kInt(6))}, Unsat, ""},
		{"bool and int8", "", []*sym.Expr{c.Compare(rt.OpEq, b, c.Bool(true)), c.Compare(rt.OpLt, i8, c.Const(rt.KInt8, uint64(0xfe)))}, Sat, ""},
		{"slice length", "", []*sym.Expr{c.Compare(rt.OpEq, xs, kInt(2))}, Sat, ""},
		{"two parts in one constraint", "ab", []*sym.Expr{c.Compare(rt.OpEq, at(0), at(1))}, Unknown, ""},
		{"length and byte in one constraint", "ab", []*sym.Expr{c.Or(c.Compare(rt.OpEq, lenS, kInt(0)), between(at(0), '0', '9'))}, Unknown, ""},
		{"64-bit input", "", []*sym.Expr{c.Compare(rt.OpGt, n, c.Const(rt.KInt64, 5))}, Unknown, ""},
		{"whole string", "", []*sym.Expr{c.Compare(rt.OpEq, s, c.Str("ok"))}, Unknown, ""},
		{"symbolic index", "ab", []*sym.Expr{c.Compare(rt.OpEq, c.Index(s, c.Conv(rt.KInt, i8)), c.Const(rt.KUint8, 'x'))}, Unknown, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seed := make([]rt.Value, len(leaves))
			seed[0].Str = tt.seed
			q := Query{Constraints: tt.cons, Leaves: leaves, Seed: seed}
			called := false
			var next Solver = record{&called}
			if tt.want != Unknown {
				next = refuse{t}
			}
			m := &Metrics{}
			r, err := NewDomains(next, m).Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == Unknown {
				if !called {
					t.Fatalf("decided %v; want the next solver to decide", r.Status)
				}
				return
			}
			if r.Status != tt.want || m.Snapshot().DomainHits != 1 {
				t.Fatalf("got %v (%d domain hits), want %v", r.Status, m.Snapshot().DomainHits, tt.want)
			}
			if r.Status != Sat {
				return
			}
			if got := r.Model[0].Str; got != tt.model {
				t.Errorf("model s = %q, want %q", got, tt.model)
			}
			for _, k := range tt.cons {
				f, _ := partOf(k, leaves)
				if f.pos >= len(r.Model[0].Str) {
					continue
				}
				if ok, err := sym.Holds(k, r.Model); err != nil || !ok {
					t.Errorf("model %v: %v does not hold (%v)", r.Model, sym.Format(k, leaves), err)
				}
			}
		})
	}
}

// TestDomainsAgreeWithZ3 decides random conjunctions of one-part
// constraints over a string's bytes and length, a bool and an int8 with
// the layer and with the Z3 core alone: the verdicts must be equal.
func TestDomainsAgreeWithZ3(t *testing.T) {
	skipRaceCopy(t)
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "s", K: rt.KString, Max: 4}, {Path: "b", K: rt.KBool}, {Path: "i", K: rt.KInt8}}
	s, b, i8 := c.Input(0, rt.KString), c.Input(1, rt.KBool), c.Input(2, rt.KInt8)
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	ops := comparisons
	atom := func() *sym.Expr {
		op := ops[rng.IntN(len(ops))]
		switch rng.IntN(5) {
		case 0:
			return c.Compare(op, c.Len(s), c.Const(rt.KInt, uint64(rng.IntN(6))))
		case 1:
			return c.Compare(ops[rng.IntN(2)], b, c.Bool(rng.IntN(2) == 1))
		case 2:
			return c.Compare(op, i8, c.Const(rt.KInt8, uint64(rng.IntN(256))))
		}
		// A byte, through the conversions and masks lexers use.
		e := c.Index(s, c.Const(rt.KInt, uint64(rng.IntN(4))))
		if rng.IntN(2) == 0 {
			e = c.Binary(rt.OpOr, e, c.Const(rt.KUint8, 32))
		}
		return c.Compare(op, c.Conv(rt.KInt32, e), c.Const(rt.KInt32, uint64(rng.IntN(256))))
	}
	constraint := func() *sym.Expr {
		e := atom()
		for rng.IntN(3) == 0 {
			// A connective over the same part: same template, other constant.
			other := atom()
			if p1, ok1 := partOf(e, leaves); !ok1 {
				break
			} else if p2, ok2 := partOf(other, leaves); !ok2 || p1 != p2 {
				continue
			}
			if rng.IntN(2) == 0 {
				e = c.And(e, other)
			} else {
				e = c.Or(e, other)
			}
		}
		return e
	}
	decided := 0
	for range 400 {
		var cons []*sym.Expr
		for range 1 + rng.IntN(6) {
			cons = append(cons, constraint())
		}
		seed := []rt.Value{{Str: "a\xffz"[:rng.IntN(4)]}, {}, {Bits: uint64(rng.IntN(256))}}
		q := Query{Constraints: cons, Leaves: leaves, Seed: seed}
		called := false
		got, err := NewDomains(record{&called}, nil).Solve(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if called {
			continue
		}
		decided++
		want, err := core.Solve(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != want.Status {
			t.Fatalf("%s: layer %v, Z3 %v", sym.FormatAll(cons, leaves), got.Status, want.Status)
		}
	}
	if decided < 200 {
		t.Errorf("the layer decided %d of 400 one-part queries", decided)
	}
}
