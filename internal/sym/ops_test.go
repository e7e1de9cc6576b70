package sym

import (
	"fmt"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

// boundary returns the values of kind k every operator is checked on.
func boundary(k rt.Kind) []uint64 {
	if k == rt.KBool {
		return []uint64{0, 1}
	}
	w := k.Bits()
	vals := []uint64{0, 1, 2, 3, 5, 7, 8, 63, 64, 100, uint64(w), uint64(w - 1), uint64(w + 1),
		1 << (w - 1), 1<<(w-1) - 1, 1<<(w-1) + 1, ^uint64(0), ^uint64(1), ^uint64(6), 0x5eedf00d5eedf00d}
	for i := range vals {
		vals[i] = truncate(k, vals[i])
	}
	return vals
}

// operandShapes builds a op b three ways: both constant (folding), both
// inputs (evaluation of an unsimplified term) and input op constant
// (simplification rules that look at one constant).
func operandShapes(c *Context, ka, kb rt.Kind, a, b uint64, build func(x, y *Expr) *Expr) map[string]*Expr {
	return map[string]*Expr{
		"const":       build(c.Const(ka, a), c.Const(kb, b)),
		"inputs":      build(c.Input(0, ka), c.Input(1, kb)),
		"input-const": build(c.Input(0, ka), c.Const(kb, b)),
		"const-input": build(c.Const(ka, a), c.Input(1, kb)),
	}
}

func checkShapes(t *testing.T, what string, shapes map[string]*Expr, in []rt.Value, want any, defined bool) {
	t.Helper()
	for shape, e := range shapes {
		got, err := Eval(e, in)
		if !defined {
			continue // Go panics; any result is acceptable
		}
		if err != nil {
			t.Fatalf("%s [%s] = %v: %v", what, shape, e, err)
		}
		if w := rtValue(want); got != w {
			t.Fatalf("%s [%s] = %v: got %+v, Go gives %v", what, shape, e, got, want)
		}
	}
}

func TestArithmeticMatchesGo(t *testing.T) {
	skipRaceCopy(t)
	c := NewContext()
	ops := []rt.Op{rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpQuo, rt.OpRem, rt.OpAnd, rt.OpOr, rt.OpXor, rt.OpAndNot}
	for _, k := range intKinds {
		for _, op := range ops {
			t.Run(fmt.Sprintf("%v/%s", k, opName(op)), func(t *testing.T) {
				for _, a := range boundary(k) {
					for _, b := range boundary(k) {
						in := []rt.Value{{Bits: a}, {Bits: b}}
						want, ok := goBinary(op, goValue(k, in[0]), goValue(k, in[1]))
						shapes := operandShapes(c, k, k, a, b, func(x, y *Expr) *Expr { return c.Binary(op, x, y) })
						checkShapes(t, fmt.Sprintf("%#x %s %#x", a, opSymbols[op], b), shapes, in, want, ok)
					}
				}
			})
		}
	}
}

func TestShiftsMatchGo(t *testing.T) {
	skipRaceCopy(t)
	c := NewContext()
	for _, k := range intKinds {
		for _, ck := range intKinds {
			for _, op := range []rt.Op{rt.OpShl, rt.OpShr} {
				t.Run(fmt.Sprintf("%v%s%v", k, opSymbols[op], ck), func(t *testing.T) {
					for _, a := range boundary(k) {
						for _, n := range boundary(ck) {
							in := []rt.Value{{Bits: a}, {Bits: n}}
							want, ok := goBinary(op, goValue(k, in[0]), goValue(ck, in[1]))
							shapes := operandShapes(c, k, ck, a, n, func(x, y *Expr) *Expr { return c.Binary(op, x, y) })
							checkShapes(t, fmt.Sprintf("%#x %s %d", a, opSymbols[op], n), shapes, in, want, ok)
						}
					}
				})
			}
		}
	}
}

func TestUnaryAndConversionsMatchGo(t *testing.T) {
	c := NewContext()
	for _, k := range intKinds {
		for _, a := range boundary(k) {
			in := []rt.Value{{Bits: a}}
			for _, op := range []rt.Op{rt.OpNeg, rt.OpCpl} {
				want := goUnaryAny(op, goValue(k, in[0]))
				for _, x := range []*Expr{c.Const(k, a), c.Input(0, k)} {
					e := c.Neg(x)
					if op == rt.OpCpl {
						e = c.Cpl(x)
					}
					checkShapes(t, fmt.Sprintf("%s%v(%#x)", opSymbols[op], k, a), map[string]*Expr{"": e}, in, want, true)
				}
			}
			for _, to := range intKinds {
				want := goConvertAny(to, goValue(k, in[0]))
				for _, x := range []*Expr{c.Const(k, a), c.Input(0, k)} {
					checkShapes(t, fmt.Sprintf("%v(%v %#x)", to, k, a), map[string]*Expr{"": c.Conv(to, x)}, in, want, true)
				}
			}
		}
	}
}

func TestComparisonsMatchGo(t *testing.T) {
	skipRaceCopy(t)
	c := NewContext()
	ops := []rt.Op{rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe}
	for _, k := range append([]rt.Kind{rt.KBool}, intKinds...) {
		for _, op := range ops {
			if k == rt.KBool && op != rt.OpEq && op != rt.OpNe {
				continue
			}
			t.Run(fmt.Sprintf("%v/%s", k, opName(op)), func(t *testing.T) {
				for _, a := range boundary(k) {
					for _, b := range boundary(k) {
						in := []rt.Value{{Bits: a}, {Bits: b}}
						want := goCompareAny(op, goValue(k, in[0]), goValue(k, in[1]))
						shapes := operandShapes(c, k, k, a, b, func(x, y *Expr) *Expr { return c.Compare(op, x, y) })
						checkShapes(t, fmt.Sprintf("%#x %s %#x", a, opSymbols[op], b), shapes, in, want, true)
						// Not must agree with Go's !.
						for shape, e := range shapes {
							checkShapes(t, "!("+shape+")", map[string]*Expr{shape: c.Not(e)}, in, !want, true)
						}
					}
				}
			})
		}
	}
	strs := []string{"", "a", "ab", "b", "\xff", "a\x00", "dowse!"}
	for _, op := range ops {
		for _, a := range strs {
			for _, b := range strs {
				in := []rt.Value{{Str: a}, {Str: b}}
				want := goCompareAny(op, a, b)
				shapes := map[string]*Expr{
					"const":       c.Compare(op, c.Str(a), c.Str(b)),
					"inputs":      c.Compare(op, c.Input(0, rt.KString), c.Input(1, rt.KString)),
					"input-const": c.Compare(op, c.Input(0, rt.KString), c.Str(b)),
					"const-input": c.Compare(op, c.Str(a), c.Input(1, rt.KString)),
				}
				checkShapes(t, fmt.Sprintf("%q %s %q", a, opSymbols[op], b), shapes, in, want, true)
			}
		}
	}
}

// TestComparisonOfExtensions covers the rule that moves a constant through
// an extending conversion, where a constant outside the narrow kind makes
// equality false.
func TestComparisonOfExtensions(t *testing.T) {
	c := NewContext()
	for _, from := range intKinds {
		for _, to := range intKinds {
			if to.Bits() < from.Bits() {
				continue
			}
			for _, a := range boundary(from) {
				for _, b := range boundary(to) {
					in := []rt.Value{{Bits: a}}
					x := goConvertAny(to, goValue(from, in[0]))
					for _, op := range []rt.Op{rt.OpEq, rt.OpNe} {
						want := goCompareAny(op, x, goValue(to, rt.Value{Bits: b}))
						e := c.Compare(op, c.Conv(to, c.Input(0, from)), c.Const(to, b))
						checkShapes(t, fmt.Sprintf("%v(%v %#x) %s %#x", to, from, a, opSymbols[op], b), map[string]*Expr{"": e}, in, want, true)
					}
				}
			}
		}
	}
}
