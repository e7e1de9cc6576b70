package solver

import (
	"math"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Z3 decides float queries by bit-blasting the IEEE operations, which is
// slow for 64-bit multiplications and divisions (1/x < -1e300 && x == 0
// runs past 10 s). Most branches real code takes on floats compare with
// constants, so before Z3 the core tries, one float input at a time, the
// values such branches turn on: the constants of the query, their
// neighbours, sums, products and quotients, and the special values. A
// candidate is kept only if every constraint holds by evaluation, which
// is Go's arithmetic: the search can miss, never answer wrongly.

// maxFloatCandidates bounds the values tried per float input.
const maxFloatCandidates = 4096

// floatInput is a float input: its leaf index and float kind.
type floatInput struct {
	in int
	k  rt.Kind
}

// floatSearch looks for a model of q among the candidate values of its
// float inputs, changing one input of the seed at a time.
func floatSearch(q Query) ([]rt.Value, bool) {
	ins, consts := floatParts(q.Constraints)
	if len(ins) == 0 {
		return nil, false
	}
	model := clone(q.Seed)
	ev := sym.NewEvaluator(model)
	holds := func() bool {
		ev.Reset()
		for _, c := range q.Constraints {
			if ok, err := ev.Holds(c); err != nil || !ok {
				return false
			}
		}
		return true
	}
	if holds() {
		return model, true
	}
	for _, fi := range ins {
		old := model[fi.in]
		for _, v := range floatCandidates(consts) {
			model[fi.in] = rt.Value{Bits: bitsOfFloat(fi.k, v)}
			if holds() {
				return model, true
			}
		}
		model[fi.in] = old
	}
	return nil, false
}

// floatParts returns the float inputs of cs (the leaves read as floats)
// and the values of their float constants, and of the integer constants
// compared with or converted to floats.
func floatParts(cs []*sym.Expr) ([]floatInput, []float64) {
	var ins []floatInput
	var consts []float64
	seen := map[*sym.Expr]bool{}
	seenIn := map[int]bool{}
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if seen[e] || !sym.HasFloat(e) && !e.IsConst() {
			return
		}
		seen[e] = true
		switch {
		case e.Op() == rt.OpFromBits && e.Arg(0).Op() == rt.OpInput:
			if i := e.Arg(0).Input(); !seenIn[i] {
				seenIn[i] = true
				ins = append(ins, floatInput{i, e.Kind()})
			}
		case e.IsConst() && e.Kind().Float():
			consts = append(consts, floatValue(e.Kind(), e.Bits()))
		case e.IsConst() && e.Kind().Integer():
			if e.Kind().Signed() {
				consts = append(consts, float64(e.Signed()))
			} else {
				consts = append(consts, float64(e.Bits()))
			}
		}
		for i := range e.NumArgs() {
			walk(e.Arg(i))
		}
	}
	for _, c := range cs {
		walk(c)
	}
	return ins, consts
}

// floatCandidates are the values tried for a float input: the special
// values, then the constants, their neighbours and negations, then their
// pairwise sums, products and quotients with neighbours, at most
// maxFloatCandidates in all.
func floatCandidates(consts []float64) []float64 {
	var out []float64
	seen := map[uint64]bool{}
	add := func(v float64) {
		if b := math.Float64bits(v); !seen[b] && len(out) < maxFloatCandidates {
			seen[b] = true
			out = append(out, v)
		}
	}
	near := func(v float64) {
		add(v)
		add(math.Nextafter(v, math.Inf(1)))
		add(math.Nextafter(v, math.Inf(-1)))
		add(float64(math.Nextafter32(float32(v), float32(math.Inf(1)))))
		add(float64(math.Nextafter32(float32(v), float32(math.Inf(-1)))))
	}
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, math.Inf(1), math.Inf(-1), math.NaN(),
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxFloat32, -math.MaxFloat32} {
		add(v)
	}
	for _, c := range consts {
		near(c)
		near(-c)
		near(math.Trunc(c))
	}
	for _, a := range consts {
		for _, b := range consts {
			near(a + b)
			near(a - b)
			near(a * b)
			if b != 0 {
				near(a / b)
			}
		}
	}
	return out
}

// floatValue is the float64 value of the bits v of float kind k.
func floatValue(k rt.Kind, v uint64) float64 {
	if k == rt.KFloat32 {
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(v)
}

// bitsOfFloat is x as the bits of float kind k.
func bitsOfFloat(k rt.Kind, x float64) uint64 {
	if k == rt.KFloat32 {
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(x)
}
