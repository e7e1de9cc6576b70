package explore

import (
	"math"
	"slices"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// finish fills in the verdict.
func (e *explorer) finish() {
	rep := e.rep
	if e.target.Regression {
		groupFailures(rep, e.leaves, 1, 0)
	} else {
		groupFailures(rep, e.leaves, MaxPerFinding, MaxFailures)
	}
	if !e.cfg.RowPerPath {
		limit := 0
		if e.target.Regression {
			limit = MaxRegressionRows
		}
		coverRows(rep, limit)
	}
	// A path that ends in t.Skip is kept as a row (which skips when run)
	// only if it reaches a branch outcome no other row reaches: code that
	// only inputs violating an assumption execute (a not-found return
	// behind a "skip unless found" assumption) is covered by the emitted
	// tests too.
	for _, s := range e.skipped {
		fresh := false
		for _, b := range s.outcomes {
			if !e.rowCovered[b] {
				fresh = true
				e.rowCovered[b] = true
			}
		}
		if fresh {
			rep.Rows = append(rep.Rows, s.row)
		}
	}
	for i := range rep.Rows {
		if r := &rep.Rows[i]; r.conds != nil {
			r.PathCondition, r.conds = sym.FormatAll(r.conds, e.leaves), nil
		}
	}
	for i := range rep.Failures {
		if f := &rep.Failures[i]; f.conds != nil {
			f.PathCondition, f.conds = sym.FormatAll(f.conds, e.leaves), nil
		}
	}
	rep.Elapsed = time.Since(e.start)
	rep.Pool = e.mut.pool
	for oc := range e.covered {
		rep.Covered = append(rep.Covered, oc)
	}
	sortBranches(rep.Covered)
	for oc := range e.infeasible {
		if !e.covered[oc] {
			rep.Infeasible = append(rep.Infeasible, oc)
		}
	}
	sortBranches(rep.Infeasible)
	for _, r := range reasonOrder {
		if e.hit[r] {
			rep.Incomplete = append(rep.Incomplete, r)
		}
	}
	switch {
	case e.stop != "":
		rep.StopReason = e.stop
	case len(rep.Incomplete) == 0:
		rep.StopReason = StopExhausted
		rep.Exhaustive = true
	default:
		rep.StopReason = rep.Incomplete[0]
	}
}

// distinctInputs is an input vector of small, distinct, non-zero values:
// leaf i gets i+2 (integers, masked to their width; floats i+2.5, whose
// fraction tells a float computation from an integer one), strings a short
// distinct word, lengths 1, choices "non-nil", bools alternate. A
// regression row whose values come from it tells more computations apart
// than one of zeros, where x+y, x*y and x-y all agree.
func distinctInputs(leaves []rt.Leaf) []rt.Value {
	in := make([]rt.Value, len(leaves))
	for i, l := range leaves {
		switch {
		case l.Choice:
			in[i].Bits = 1
		case l.IsLen:
			in[i].Bits = uint64(min(1, l.Max))
		case l.K == rt.KBool:
			in[i].Bits = uint64(i % 2)
		case l.K == rt.KString:
			w := string(rune('a'+i%26)) + string(rune('a'+(i/26)%26))
			in[i].Str = w[:min(len(w), l.Max)]
		case l.Float && l.K == rt.KUint32:
			in[i].Bits = uint64(math.Float32bits(float32(i+2) + 0.5))
		case l.Float:
			in[i].Bits = math.Float64bits(float64(i+2) + 0.5)
		default:
			v := uint64(i + 2)
			if b := l.K.Bits(); b < 64 {
				v &= 1<<uint(b) - 1
			}
			in[i].Bits = v
		}
	}
	return in
}

// coverRows reduces the passing rows of rep to a few that together reach
// every branch outcome the passing rows reach, chosen greedily (most new
// outcomes first, earliest on ties, so the choice is deterministic). Rows
// that fail or panic are all kept. Failure.Row indices follow the rows
// they name.
//
// With limit > 0 (regression targets), further passing rows are kept in
// the order found until limit passing rows are kept: paths that reach no
// new outcome still return different results.
func coverRows(rep *Report, limit int) {
	// Failing rows live in a table that skips by default, so they do not
	// count: the passing rows alone reach what all passing rows reach.
	reached := map[Branch]bool{}
	keep := make([]bool, len(rep.Rows))
	for i, r := range rep.Rows {
		keep[i] = r.Status != rt.StatusPass
	}
	for {
		best, bestNew := -1, 0
		for i, r := range rep.Rows {
			if keep[i] {
				continue
			}
			fresh := 0
			seen := map[Branch]bool{}
			for _, b := range r.Outcomes {
				if !reached[b] && !seen[b] {
					seen[b] = true
					fresh++
				}
			}
			if fresh > bestNew {
				best, bestNew = i, fresh
			}
		}
		if best < 0 {
			break
		}
		keep[best] = true
		for _, b := range rep.Rows[best].Outcomes {
			reached[b] = true
		}
	}
	if len(rep.Rows) > 0 && !slices.Contains(keep, true) {
		keep[0] = true // a target without branches still gets its row
	}
	kept := 0
	for i, r := range rep.Rows {
		if keep[i] && r.Status == rt.StatusPass {
			kept++
		}
	}
	for i, r := range rep.Rows {
		if kept >= limit {
			break
		}
		if !keep[i] && r.Status == rt.StatusPass {
			keep[i] = true
			kept++
		}
	}
	index := make([]int, len(rep.Rows))
	var rows []Row
	for i, r := range rep.Rows {
		index[i] = -1
		if keep[i] {
			index[i] = len(rows)
			rows = append(rows, r)
		}
	}
	for i := range rep.Failures {
		if f := &rep.Failures[i]; f.Row >= 0 {
			f.Row = index[f.Row]
		}
	}
	rep.Rows = rows
}

// dropRows removes the rows in drop and renumbers the failures' rows.
func dropRows(rep *Report, drop map[int]bool) {
	if len(drop) == 0 {
		return
	}
	index := make([]int, len(rep.Rows))
	var rows []Row
	for i, r := range rep.Rows {
		index[i] = -1
		if !drop[i] {
			index[i] = len(rows)
			rows = append(rows, r)
		}
	}
	rep.Rows = rows
	for i := range rep.Failures {
		if f := &rep.Failures[i]; f.Row >= 0 {
			f.Row = index[f.Row]
		}
	}
}

// nilParam reports whether a parameter itself is nil in the input vector
// in: its choice leaf, the first step of its path, is false, or, for an
// interface, its dynamic type leaf is 0 (nil).
func nilParam(leaves []rt.Leaf, in []rt.Value) bool {
	for i, l := range leaves {
		if len(l.Steps) != 1 || i >= len(in) {
			continue
		}
		if l.Choice && in[i].Bits&1 == 0 || l.Steps[0].Kind == rt.StepType && in[i].Bits == 0 {
			return true
		}
	}
	return false
}
