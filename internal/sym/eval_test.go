package sym

import (
	"testing"

	"github.com/dowse-go/dowse/rt"
)

// TestRandomExpressionsMatchGo builds random expressions of every kind,
// evaluates them with Go's operators on Go's types, and requires the
// simplified terms, and the terms decoded from an arena, to evaluate to the
// same values.
func TestRandomExpressionsMatchGo(t *testing.T) {
	skipRaceCopy(t)
	gen := newGenerator(1)
	c := NewContext()
	const exprs, vectors = 20000, 4
	checked := 0
	for n := range exprs {
		k := testLayout[gen.r.IntN(len(testLayout))]
		g := gen.expr(k, 1+gen.r.IntN(5))
		term, err := g.term(c)
		if err != nil {
			t.Fatalf("expr %d: build: %v", n, err)
		}
		decoded, err := c.Decode(g.arena())
		if err != nil {
			t.Fatalf("expr %d: decode: %v", n, err)
		}
		if root := decoded[len(decoded)-1]; root != term {
			t.Fatalf("expr %d: decoded term %v is not the built term %v", n, root, term)
		}
		for range vectors {
			in := gen.inputs()
			want, ok := g.eval(in)
			if !ok {
				continue // Go panics on this input
			}
			got, err := Eval(term, in)
			if err != nil {
				t.Fatalf("expr %d = %v on %v: %v, Go gives %#v", n, term, in, err, want)
			}
			if w := rtValue(want); got != w {
				t.Fatalf("expr %d = %v on %v: got %+v, Go gives %#v (%+v)", n, term, in, got, want, w)
			}
			checked++
		}
	}
	if checked < exprs*vectors/2 {
		t.Errorf("only %d of %d evaluations were defined", checked, exprs*vectors)
	}
	t.Logf("%d evaluations compared, %d live terms", checked, c.Terms())
}

func TestEvalUndefined(t *testing.T) {
	c := NewContext()
	x, y := c.Input(0, rt.KInt32), c.Input(1, rt.KInt32)
	s := c.Input(2, rt.KString)
	in := []rt.Value{{Bits: 5}, {Bits: 0}, {Str: "ab"}}
	tests := []struct {
		name string
		e    *Expr
	}{
		{"division by zero", c.Binary(rt.OpQuo, x, y)},
		{"remainder by zero", c.Binary(rt.OpRem, x, y)},
		{"index past the end", c.Index(s, c.Const(rt.KInt, 2))},
		{"negative index", c.Index(s, c.Const(rt.KInt8, 0xff))},
		{"slice past the end", c.Slice(s, c.Const(rt.KInt, 1), c.Const(rt.KInt, 3))},
		{"inverted slice", c.Slice(s, c.Const(rt.KInt, 2), c.Const(rt.KInt, 1))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if v, err := Eval(tt.e, in); err == nil {
				t.Errorf("Eval(%v) = %+v, want an error", tt.e, v)
			}
		})
	}
	if _, err := Eval(c.Input(7, rt.KInt8), in); err == nil {
		t.Error("Eval of an input beyond the vector succeeded")
	}
}
