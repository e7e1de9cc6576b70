package solver

import (
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

var sampleStrings = []string{"", "a", "ab", "abc", "b", "\xff", "a\x00", "dowse!", "\x00"}

func strLeaves(maxLen int, kinds ...rt.Kind) ([]rt.Leaf, []rt.Value) {
	leaves, seed := layout(kinds...)
	for i := range leaves {
		leaves[i].Max = maxLen
	}
	return leaves, seed
}

// TestStringComparisonsMatchGo pins two strings and requires the encoded
// comparison to take exactly Go's value.
func TestStringComparisonsMatchGo(t *testing.T) {
	skipRaceCopy(t)
	c := sym.NewContext()
	core := NewZ3(Options{ContextQueries: 64})
	defer core.Close()
	s, u, r := c.Input(0, rt.KString), c.Input(1, rt.KString), c.Input(2, rt.KBool)
	leaves, seed := strLeaves(8, rt.KString, rt.KString, rt.KBool)
	ops := map[rt.Op]func(a, b string) bool{
		rt.OpEq: func(a, b string) bool { return a == b }, rt.OpNe: func(a, b string) bool { return a != b },
		rt.OpLt: func(a, b string) bool { return a < b }, rt.OpLe: func(a, b string) bool { return a <= b },
		rt.OpGt: func(a, b string) bool { return a > b }, rt.OpGe: func(a, b string) bool { return a >= b },
	}
	for op, goOp := range ops {
		for _, a := range sampleStrings {
			for _, b := range sampleStrings {
				pin := []*sym.Expr{c.Compare(rt.OpEq, s, c.Str(a)), c.Compare(rt.OpEq, u, c.Str(b)),
					c.Compare(rt.OpEq, r, c.Bool(goOp(a, b)))}
				eq := append(pin[:3:3], c.Compare(rt.OpEq, c.Compare(op, s, u), r))
				ne := append(pin[:3:3], c.Compare(rt.OpNe, c.Compare(op, s, u), r))
				q := Query{Constraints: eq, Leaves: leaves, Seed: seed}
				res := mustSolve(t, core, q)
				checkModel(t, q, res)
				if res.Model[0].Str != a || res.Model[1].Str != b {
					t.Fatalf("pinned %q, %q; model %q, %q", a, b, res.Model[0].Str, res.Model[1].Str)
				}
				if res := mustSolve(t, core, Query{Constraints: ne, Leaves: leaves, Seed: seed}); res.Status != Unsat {
					t.Fatalf("%s: %v, want unsat", sym.FormatAll(ne, leaves), res.Status)
				}
			}
		}
	}
}

// TestStringOperationsMatchGo pins inputs and compares len, index,
// slicing, concatenation and byte lists with Go's results.
func TestStringOperationsMatchGo(t *testing.T) {
	skipRaceCopy(t)
	c := sym.NewContext()
	core := NewZ3(Options{ContextQueries: 64})
	defer core.Close()
	s, u := c.Input(0, rt.KString), c.Input(1, rt.KString)
	i, j := c.Input(2, rt.KInt), c.Input(3, rt.KInt)
	b0, b1 := c.Input(4, rt.KUint8), c.Input(5, rt.KUint8)
	ri, rb, rs := c.Input(6, rt.KInt), c.Input(7, rt.KUint8), c.Input(8, rt.KString)
	leaves, seed := strLeaves(8, rt.KString, rt.KString, rt.KInt, rt.KInt, rt.KUint8, rt.KUint8, rt.KInt, rt.KUint8, rt.KString)
	leaves[8].Max = 16

	type check struct {
		name   string
		result *sym.Expr // compared with the pinned Go value
		target *sym.Expr // the input holding the Go value
		goVal  func(a, b string, i, j int, b0, b1 byte) (rt.Value, bool)
	}
	checks := []check{
		{"len", c.Len(s), ri, func(a, _ string, _, _ int, _, _ byte) (rt.Value, bool) {
			return rt.Value{Bits: uint64(len(a))}, true
		}},
		{"len-concat", c.Len(c.Concat(s, u)), ri, func(a, b string, _, _ int, _, _ byte) (rt.Value, bool) {
			return rt.Value{Bits: uint64(len(a + b))}, true
		}},
		{"index", c.Index(s, i), rb, func(a, _ string, i, _ int, _, _ byte) (rt.Value, bool) {
			if i >= len(a) {
				return rt.Value{}, false
			}
			return rt.Value{Bits: uint64(a[i])}, true
		}},
		{"index-uint8", c.Index(s, c.Conv(rt.KUint8, i)), rb, func(a, _ string, i, _ int, _, _ byte) (rt.Value, bool) {
			if i >= len(a) {
				return rt.Value{}, false
			}
			return rt.Value{Bits: uint64(a[uint8(i)])}, true
		}},
		{"index-concat", c.Index(c.Concat(s, u), i), rb, func(a, b string, i, _ int, _, _ byte) (rt.Value, bool) {
			if i >= len(a+b) {
				return rt.Value{}, false
			}
			return rt.Value{Bits: uint64((a + b)[i])}, true
		}},
		{"slice", c.Slice(s, i, j), rs, func(a, _ string, i, j int, _, _ byte) (rt.Value, bool) {
			if i > j || j > len(a) {
				return rt.Value{}, false
			}
			return rt.Value{Str: a[i:j]}, true
		}},
		{"slice-to-end", c.Slice(s, i, c.Len(s)), rs, func(a, _ string, i, _ int, _, _ byte) (rt.Value, bool) {
			if i > len(a) {
				return rt.Value{}, false
			}
			return rt.Value{Str: a[i:]}, true
		}},
		{"slice-const", c.Slice(s, c.Const(rt.KInt, 1), j), rs, func(a, _ string, _, j int, _, _ byte) (rt.Value, bool) {
			if 1 > j || j > len(a) {
				return rt.Value{}, false
			}
			return rt.Value{Str: a[1:j]}, true
		}},
		{"concat", c.Concat(s, u), rs, func(a, b string, _, _ int, _, _ byte) (rt.Value, bool) {
			return rt.Value{Str: a + b}, true
		}},
		{"concat-slice", c.Concat(c.Slice(u, i, c.Len(u)), s), rs, func(a, b string, i, _ int, _, _ byte) (rt.Value, bool) {
			if i > len(b) {
				return rt.Value{}, false
			}
			return rt.Value{Str: b[i:] + a}, true
		}},
		{"from-list", c.FromList([]*sym.Expr{b0, b1, b0}), rs, func(_, _ string, _, _ int, b0, b1 byte) (rt.Value, bool) {
			return rt.Value{Str: string([]byte{b0, b1, b0})}, true
		}},
		{"concat-list", c.Concat(s, c.FromList([]*sym.Expr{b1})), rs, func(a, _ string, _, _ int, _, b1 byte) (rt.Value, bool) {
			return rt.Value{Str: a + string([]byte{b1})}, true
		}},
		{"ite", c.Ite(c.Compare(rt.OpLt, i, j), s, u), rs, func(a, b string, i, j int, _, _ byte) (rt.Value, bool) {
			if i < j {
				return rt.Value{Str: a}, true
			}
			return rt.Value{Str: b}, true
		}},
	}
	pinned := func(e *sym.Expr, v rt.Value) *sym.Expr {
		if e.Kind() == rt.KString {
			return c.Compare(rt.OpEq, e, c.Str(v.Str))
		}
		return c.Compare(rt.OpEq, e, c.Const(e.Kind(), v.Bits))
	}
	for _, ch := range checks {
		t.Run(ch.name, func(t *testing.T) {
			n := 0
			for ai, a := range sampleStrings {
				b := sampleStrings[(ai*4+1)%len(sampleStrings)]
				for _, iv := range []int{0, 1, 2, 5} {
					jv := min(iv+2, len(a))
					want, ok := ch.goVal(a, b, iv, jv, 'x', 0xfe)
					if !ok {
						continue
					}
					in := []rt.Value{{Str: a}, {Str: b}, {Bits: uint64(iv)}, {Bits: uint64(jv)}, {Bits: 'x'}, {Bits: 0xfe}}
					var pins []*sym.Expr
					for k, v := range in {
						pins = append(pins, pinned(c.Input(k, leaves[k].K), v))
					}
					pins = append(pins, pinned(ch.target, want))
					eq := append(pins[:len(pins):len(pins)], c.Compare(rt.OpEq, ch.result, ch.target))
					ne := append(pins[:len(pins):len(pins)], c.Compare(rt.OpNe, ch.result, ch.target))
					q := Query{Constraints: eq, Leaves: leaves, Seed: seed}
					checkModel(t, q, mustSolve(t, core, q))
					if res := mustSolve(t, core, Query{Constraints: ne, Leaves: leaves, Seed: seed}); res.Status != Unsat {
						t.Fatalf("%s: %v with %+v, want unsat", sym.FormatAll(ne, leaves), res.Status, res.Model)
					}
					n++
				}
			}
			if n == 0 {
				t.Fatal("no defined sample")
			}
		})
	}
}

// TestSolvingStrings solves for string inputs and checks the models with
// Go's string operations.
func TestSolvingStrings(t *testing.T) {
	c := sym.NewContext()
	s := c.Input(0, rt.KString)
	n := func(v int) *sym.Expr { return c.Const(rt.KInt, uint64(v)) }
	by := func(v byte) *sym.Expr { return c.Const(rt.KUint8, uint64(v)) }
	tests := []struct {
		name   string
		max    int
		seed   string
		conds  []*sym.Expr
		want   Status
		holdGo func(s string) bool
	}{
		{"equal constant", 8, "hello", []*sym.Expr{c.Compare(rt.OpEq, s, c.Str("dowse!"))}, Sat,
			func(s string) bool { return s == "dowse!" }},
		{"equal constant beyond bound", 5, "", []*sym.Expr{c.Compare(rt.OpEq, s, c.Str("dowse!"))}, Unsat, nil},
		{"greater than", 2, "", []*sym.Expr{c.Compare(rt.OpGt, s, c.Str("zz"))}, Sat,
			func(s string) bool { return s > "zz" && len(s) <= 2 }},
		{"greater than the largest", 2, "", []*sym.Expr{c.Compare(rt.OpGt, s, c.Str("\xff\xff"))}, Unsat, nil},
		{"nothing between", 6, "", []*sym.Expr{c.Compare(rt.OpLt, c.Str("ab"), s), c.Compare(rt.OpLt, s, c.Str("ab\x00"))}, Unsat, nil},
		{"between", 6, "", []*sym.Expr{c.Compare(rt.OpLt, c.Str("ab"), s), c.Compare(rt.OpLt, s, c.Str("ac"))}, Sat,
			func(s string) bool { return "ab" < s && s < "ac" }},
		{"prefix and suffix", 8, "xxxxxxxx", []*sym.Expr{
			c.Compare(rt.OpGe, c.Len(s), n(4)),
			c.Compare(rt.OpEq, c.Slice(s, n(0), n(2)), c.Str("GO")),
			c.Compare(rt.OpEq, c.Slice(s, c.Binary(rt.OpSub, c.Len(s), n(2)), c.Len(s)), c.Str("!?")),
		}, Sat, func(s string) bool { return strings.HasPrefix(s, "GO") && strings.HasSuffix(s, "!?") && len(s) >= 4 }},
		{"symbolic index", 6, "", []*sym.Expr{
			c.Compare(rt.OpLt, c.Input(1, rt.KInt), c.Len(s)),
			c.Compare(rt.OpGe, c.Input(1, rt.KInt), n(3)),
			c.Compare(rt.OpEq, c.Index(s, c.Input(1, rt.KInt)), by('#')),
		}, Sat, func(s string) bool { return strings.LastIndexByte(s, '#') >= 3 }},
		{"concatenation", 4, "", []*sym.Expr{c.Compare(rt.OpEq, c.Concat(s, s), c.Str("abab"))}, Sat,
			func(s string) bool { return s == "ab" }},
		{"concatenation unsat", 4, "", []*sym.Expr{c.Compare(rt.OpEq, c.Concat(s, s), c.Str("aba"))}, Unsat, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leaves := []rt.Leaf{{Path: "s", K: rt.KString, Max: tt.max}, {Path: "i", K: rt.KInt}}
			seed := []rt.Value{{Str: tt.seed}, {}}
			core := NewZ3(Options{})
			defer core.Close()
			q := Query{Constraints: tt.conds, Leaves: leaves, Seed: seed}
			res := mustSolve(t, core, q)
			if res.Status != tt.want {
				t.Fatalf("%s: %v (%s), want %v", sym.FormatAll(tt.conds, leaves), res.Status, res.Why, tt.want)
			}
			if tt.want == Sat {
				checkModel(t, q, res)
				if !tt.holdGo(res.Model[0].Str) {
					t.Errorf("model s = %q does not satisfy the Go condition", res.Model[0].Str)
				}
			}
		})
	}
}
