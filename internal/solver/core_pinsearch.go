package solver

import (
	"maps"
	"math/big"
	"slices"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// This file decides the divisors' search's fixed queries (core_relax.go)
// without Z3 when a small search does.
//
// With a hash table's size fixed, what is left of its queries is which
// bucket each key falls in: keys[3] % 4 + 4 == 2, keys[4] % 4 + 4 == 2,
// keys[3] != keys[4]. Z3 decides such a query over the integers in 4–7
// ms (a solver check, then the seed preferences' rounds), and a hash
// table's search asks thousands. But every remainder by a fixed divisor
// d repeats with period d, so small values already take every bucket:
// the layer tries, for each input a failing constraint reads, the seed's
// value, then the values of smallest magnitude up to three times the
// lcm of the fixed divisors (each bucket three times on either side of
// zero), then the query's constants and the values within a period of
// each; inputs one after another,
// each value checked at once against the constraints whose inputs are
// all set. A vector on which every constraint holds by evaluation, in
// the domains, is the answer (and reads well: keys=-2, -6 rather than
// Z3's choices); the search is bounded, and a query it does not decide
// goes to Z3 as before. A constraint that reads only fixed inputs and
// is false makes the fixed query Unsat exactly, without Z3 (the table
// size the seed had, where the branch asks for another).

// pinLimits bound the search: the period (lcm of the fixed divisors) it
// enumerates, the values per input, and the constraint evaluations per
// query.
const (
	maxPinPeriod     = 64
	maxPinCandidates = 400
	maxPinEvals      = 1024
)

// pinnedSearch decides q with the inputs of pins fixed where a small
// search does: Sat with a model that holds by evaluation, Unsat when a
// constraint of fixed inputs alone is false, Unknown otherwise.
func pinnedSearch(q Query, pins map[int]*big.Int) ([]rt.Value, Status) {
	if len(q.Seed) != len(q.Leaves) {
		return nil, Unknown
	}
	model := clone(q.Seed)
	for i, v := range pins {
		if i >= len(model) {
			return nil, Unknown
		}
		model[i] = rt.Value{Bits: bitsOf(q.Leaves[i].K, v)}
	}
	if inDomain(q.Leaves, model) != nil {
		return nil, Unknown
	}
	ev := sym.NewEvaluator(model)
	// The constraints of fixed inputs alone decide the fixed query or
	// hold; the others that fail name the inputs to move.
	moved := map[int]bool{}
	var reading []*sym.Expr // constraints that read an input not fixed
	for _, c := range q.Constraints {
		vs := c.Vars()
		free := slices.ContainsFunc(vs, func(i int) bool { _, ok := pins[i]; return !ok })
		ok, err := ev.Holds(c)
		switch {
		case err != nil:
			if !free {
				return nil, Unknown
			}
		case !free && !ok:
			return nil, Unsat
		}
		if !free {
			continue
		}
		reading = append(reading, c)
		if err == nil && ok {
			continue
		}
		for _, i := range vs {
			if _, fixed := pins[i]; fixed {
				continue
			}
			l := q.Leaves[i]
			if !l.K.Integer() || l.Float || l.IsLen {
				return nil, Unknown
			}
			moved[i] = true
		}
	}
	if len(moved) == 0 {
		return model, Sat
	}
	// Inputs the query states equal move together: the lowest-numbered
	// of each class is searched, the others copy it.
	class := equalClasses(q)
	for i := range moved {
		for _, j := range class[i] {
			if _, fixed := pins[j]; fixed {
				return nil, Unknown
			}
			moved[j] = true
		}
	}
	var order []int
	for i := range moved {
		if len(class[i]) == 0 || class[i][0] == i {
			order = append(order, i)
		}
	}
	slices.Sort(order)
	// Each constraint is checked once all the moved inputs it reads are
	// set: after the last of them in order.
	checkAt := make([][]*sym.Expr, len(order))
	for _, c := range reading {
		at := -1
		for k, i := range order {
			if slices.ContainsFunc(c.Vars(), func(v int) bool { return v == i || slices.Contains(class[i], v) }) {
				at = k
			}
		}
		if at < 0 {
			continue // reads no moved input and holds on the seed
		}
		checkAt[at] = append(checkAt[at], c)
	}
	period := pinPeriod(q.Constraints, ev)
	consts := constantsOf(q.Constraints)
	cands := make([][]uint64, len(order))
	for k, i := range order {
		cands[k] = pinCandidates(q.Leaves[i].K, q.Seed[i].Bits, period, consts)
	}
	evals := 0
	var try func(k int) bool
	try = func(k int) bool {
		if k == len(order) {
			return true
		}
		i := order[k]
		for _, v := range cands[k] {
			if evals >= maxPinEvals {
				return false
			}
			model[i] = rt.Value{Bits: v}
			for _, j := range class[i] {
				model[j] = model[i]
			}
			ev.Reset()
			evals += len(checkAt[k])
			if holdsAll(ev, checkAt[k]) && try(k+1) {
				return true
			}
		}
		model[i] = q.Seed[i]
		for _, j := range class[i] {
			model[j] = q.Seed[j]
		}
		return false
	}
	if !try(0) {
		return nil, Unknown
	}
	ev.Reset()
	if !holdsAll(ev, q.Constraints) || inDomain(q.Leaves, model) != nil {
		return nil, Unknown
	}
	return model, Sat
}

// pinPeriod is the lcm of the magnitudes of the divisors of q's divisions
// and remainders, evaluated with the fixed inputs (those that do not
// evaluate are left out), at most maxPinPeriod.
func pinPeriod(cs []*sym.Expr, ev *sym.Evaluator) uint64 {
	m := uint64(1)
	seen := map[*sym.Expr]bool{}
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if seen[e] || m > maxPinPeriod {
			return
		}
		seen[e] = true
		if op := e.Op(); op == rt.OpQuo || op == rt.OpRem {
			if v, err := ev.Eval(e.Arg(1)); err == nil {
				k := e.Kind()
				d := sym.Truncate(k, v.Bits)
				if s := sym.SignExtend(k, v.Bits); k.Signed() && s < 0 {
					d = uint64(-s)
				}
				if d > 0 && d <= maxPinPeriod {
					m = lcm(m, d)
				} else {
					m = maxPinPeriod + 1
				}
			}
		}
		for i := range e.NumArgs() {
			walk(e.Arg(i))
		}
	}
	for _, c := range cs {
		walk(c)
	}
	return min(m, maxPinPeriod)
}

// pinCandidates lists the values an input of kind k tries, seed being
// its value: the seed, the values of smallest magnitude below three
// periods (0, 1, -1, 2, -2, ...; the non-negative ones for an unsigned
// kind: every remainder three times on either side of zero, for keys
// that must differ in one bucket), then the constants and the values
// within a period of each, nearest first; each once, within the kind, at
// most maxPinCandidates.
func pinCandidates(k rt.Kind, seed uint64, period uint64, consts []int64) []uint64 {
	lo, hi := bounds(k)
	out := []uint64{sym.Truncate(k, seed)}
	seen := map[uint64]bool{out[0]: true}
	add := func(v int64) {
		if len(out) >= maxPinCandidates || v < 0 && !k.Signed() || k != rt.KUint64 && (v < lo || v > hi) {
			return
		}
		b := sym.Truncate(k, uint64(v))
		if !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	for v := int64(0); v < 3*int64(period); v++ {
		add(v)
		add(-v)
	}
	for _, c := range consts {
		for d := int64(0); d <= int64(period); d++ {
			add(c + d)
			add(c - d)
		}
	}
	return out
}

// bitsOf is v as the bits of a value of kind k.
func bitsOf(k rt.Kind, v *big.Int) uint64 {
	if v.Sign() < 0 {
		return sym.Truncate(k, uint64(v.Int64()))
	}
	return sym.Truncate(k, v.Uint64())
}

// nearPins tries the small search with the divisors' inputs fixed next to
// their seed values: each input alone moved to its value plus or minus 1,
// times 2 and halved, in that order. It returns the first model found.
func nearPins(q Query, ins []int, seed map[int]*big.Int) ([]rt.Value, bool) {
	for _, i := range ins {
		v, kind := seed[i], kindRange(q.Leaves[i].K)
		for _, next := range []*big.Int{
			new(big.Int).Add(v, big.NewInt(1)),
			new(big.Int).Sub(v, big.NewInt(1)),
			new(big.Int).Lsh(v, 1),
			new(big.Int).Rsh(v, 1),
		} {
			if !(interval{next, next}).within(kind) {
				continue
			}
			pins := maps.Clone(seed)
			pins[i] = next
			if model, st := pinnedSearch(q, pins); st == Sat {
				return model, true
			}
		}
	}
	return nil, false
}

// seedPins fixes the inputs ins of q's divisors (divisorInputs) to their
// seed values.
func seedPins(q Query, ins []int) map[int]*big.Int {
	pins := map[int]*big.Int{}
	for _, i := range ins {
		pins[i] = value(q.Leaves[i].K, q.Seed[i].Bits)
	}
	return pins
}
