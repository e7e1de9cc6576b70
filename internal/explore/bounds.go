package explore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/dowse-go/dowse/internal/query"
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// maxBoundChecks bounds the infeasible branches checkBounds asks about.
const maxBoundChecks = 16

// boundCandidate is an infeasible branch and the query that said so.
type boundCandidate struct {
	site  uint32
	taken bool
	conds []*sym.Expr
	seed  []rt.Value // the input of the run the branch was negated in
}

// hasLengthBound reports whether some leaf is a string or slice length,
// whose domain -max-len bounds.
func hasLengthBound(leaves []rt.Leaf) bool {
	return slices.ContainsFunc(leaves, func(l rt.Leaf) bool { return l.IsLen || l.K == rt.KString })
}

// checkBounds asks, for the branch outcomes found infeasible that no run
// reached (the first maxBoundChecks), whether they are feasible with longer strings and
// slices (lengths up to relaxedMax, or up to the longest length the
// branch's conditions name, lengthHint): a path that only a longer input takes
// is reported, with the lengths one solution needs, so that the verdict
// says which bound it holds for and what to raise. The questions are
// asked while the time bound allows; their answers are never run.
func (e *explorer) checkBounds(ctx context.Context) {
	if len(e.boundChecks) == 0 || e.solver == nil {
		return
	}
	relax := func(c boundCandidate) []rt.Leaf {
		hint := lengthHint(c.conds, e.leaves)
		relaxed := slices.Clone(e.leaves)
		for i, l := range relaxed {
			// Lengths and strings; not the choices that are leaves like
			// lengths (a dynamic type, a built value's method), whose range
			// is the number of alternatives, not a bound.
			if l.IsLen && len(l.Steps) > 0 && l.Steps[len(l.Steps)-1].Kind == rt.StepLen || l.K == rt.KString {
				relaxed[i].Max = max(relaxedMax(l.Max), min(hint, maxRelaxed))
			}
		}
		return relaxed
	}
	seen := map[Branch]bool{}
	// An outcome some run reached (a loop that would go round once more,
	// a helper called once more) is no news: it is not reported. A caller
	// that may raise the bound still learns about the first of them
	// (Report.Longer), when no outcome is news.
	var reached []boundCandidate
	for _, c := range e.boundChecks {
		b := Branch{c.site, c.taken}
		if seen[b] || !e.checkTime(ctx) {
			continue
		}
		if e.covered[b] {
			if len(reached) == 0 {
				reached = append(reached, c)
			}
			continue
		}
		if len(seen) == maxBoundChecks {
			break
		}
		seen[b] = true
		if l, ok := e.longer(ctx, c, relax(c)); ok {
			e.rep.BoundLimited = append(e.rep.BoundLimited, l)
		}
	}
	if e.cfg.Raisable && len(e.rep.BoundLimited) == 0 {
		for _, c := range reached {
			if l, ok := e.longer(ctx, c, relax(c)); ok {
				e.rep.Longer = append(e.rep.Longer, l)
			}
		}
	}
}

// longer asks whether the outcome of candidate c is feasible with the
// relaxed leaves and, if a solution needs inputs longer than the bound,
// returns it.
func (e *explorer) longer(ctx context.Context, c boundCandidate, relaxed []rt.Leaf) (BoundLimited, bool) {
	// Asked directly: an unknown answer here must not change the
	// verdict, which is about the bounded domain.
	q := query.Query{Constraints: c.conds, Leaves: relaxed, Seed: c.seed, Timeout: e.cfg.SolverTimeout}
	t0 := time.Now()
	ans, err := e.solver.Solve(e.bounded(ctx), q)
	e.rep.SolverTime += time.Since(t0)
	e.rep.Queries++
	if err != nil || ans.Status != query.Sat || len(ans.Model) != len(relaxed) {
		return BoundLimited{}, false
	}
	var lengths []string
	need := 0
	for i, l := range e.leaves {
		n := -1
		switch {
		case l.IsLen:
			n = int(signExtend(l.K, ans.Model[i].Bits))
		case l.K == rt.KString:
			n = len(ans.Model[i].Str)
		}
		if n > l.Max {
			need = max(need, n)
			path := l.Path
			if l.K == rt.KString {
				path = "len(" + path + ")"
			}
			lengths = append(lengths, fmt.Sprintf("%s=%d", path, n))
		}
	}
	if len(lengths) == 0 {
		return BoundLimited{}, false
	}
	return BoundLimited{Site: c.site, Taken: c.taken, Lengths: lengths, Need: need, Inputs: ans.Model}, true
}
