package explore

import (
	"context"

	"github.com/dowse-go/dowse/internal/query"
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Length-free queries.
//
// A loop over an input (for i := 0; i < len(s); i++) leaves in the path
// condition one comparison of its counter with the input's length per
// iteration, and the last one, false, pins the length: len(s) <= 5 after
// five iterations. A branch later in the path that only a longer (or
// shorter) input takes is then infeasible under the path's prefix. The
// search reaches it only by first changing the length through the loop's
// exit — a child whose rest of path is whatever the model's new bytes
// make it — and then negating the later branch again on that child,
// which the search may never come back to when that child covers
// nothing new. A parser that scans its input before parsing it (a range
// parser's tokenizer ahead of a version parser) pins every later branch
// that way.
//
// So when a negated branch is infeasible and the prefix holds conditions
// on lengths alone, the query is asked once more without them, as QSYM's
// optimistic solving asks for a negated branch without the path that
// made it infeasible. Its solution keeps every other condition of the
// prefix — the bytes the path read — and takes the branch if the loops
// over the input of the new length do not change the rest. It runs as a
// child like any other; that its run follows another prefix (the loops
// ran longer) is expected and not counted as a divergence. The answer
// to the original query stands: the relaxed query only adds runs, so a
// verdict never rests on it (nor on the relaxed query's time-out).
//
// Only the runs that covered a branch outcome first are expanded so: the
// relaxed query is one more query per infeasible negation, and on an
// enumeration with no length left to change (a list's paths, explored
// exhaustively) every such run would take a path the search finds
// anyway. A run that covered something new is where the search is
// making progress, and where a pinned length most likely holds it up.

// lengthFree asks the query q, found infeasible while expanding event j
// of n, without the conditions of its prefix on lengths alone, and
// returns the child its solution makes; the query counts in the
// expansion's asked. ok is false when n covered nothing first, q has no
// such condition, or the relaxed query has no solution.
func (e *explorer) lengthFree(ctx context.Context, n *node, j int, q query.Query, asked *int) (kid child, ok bool, err error) {
	if n.score == 0 || len(q.Constraints) < 2 {
		return child{}, false, nil
	}
	if e.refs == nil || len(e.refs) > maxRefs {
		e.refs = map[uint64]refs{} // terms die and IDs are not reused: start over
	}
	last := len(q.Constraints) - 1
	var keep []*sym.Expr
	for _, c := range q.Constraints[:last] {
		if !lengthsOnly(c, e.leaves, e.refs) {
			keep = append(keep, c)
		}
	}
	if len(keep) == last {
		return child{}, false, nil
	}
	rq := query.Query{Constraints: append(keep, q.Constraints[last]), Leaves: q.Leaves, Seed: q.Seed, Timeout: q.Timeout}
	*asked++
	ans, err := e.ask(ctx, rq)
	if err == errInterrupted {
		e.interrupted(ctx)
		return child{}, false, nil
	}
	if err != nil || ans.Status != query.Sat || len(ans.Model) != len(e.leaves) {
		return child{}, false, err
	}
	return child{inputs: ans.Model, parent: n, flip: j, lengthFree: true}, true, nil
}

// maxRefs bounds the terms whose reads lengthFree remembers.
const maxRefs = 1 << 16

// refs says how a term reads the inputs: through their lengths, and
// otherwise.
type refs uint8

const (
	refLen   refs = 1 << iota // the length of a string input, or a length leaf
	refOther                  // any other read of an input
)

// lengthsOnly reports whether condition c reads inputs only through
// their lengths: len(s) of a string input s, or the length leaf of a
// slice.
func lengthsOnly(c *sym.Expr, leaves []rt.Leaf, memo map[uint64]refs) bool {
	return termRefs(c, leaves, memo) == refLen
}

func termRefs(t *sym.Expr, leaves []rt.Leaf, memo map[uint64]refs) refs {
	if len(t.Vars()) == 0 {
		return 0
	}
	if r, ok := memo[t.ID()]; ok {
		return r
	}
	var r refs
	switch {
	case t.Op() == rt.OpInput:
		if i := t.Input(); i < len(leaves) && leaves[i].IsLen {
			r = refLen
		} else {
			r = refOther
		}
	case t.Op() == rt.OpLen && t.Arg(0).Op() == rt.OpInput:
		r = refLen
	default:
		for i := range t.NumArgs() {
			if r |= termRefs(t.Arg(i), leaves, memo); r&refOther != 0 {
				break
			}
		}
	}
	memo[t.ID()] = r
	return r
}
