package explore

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/dowse-go/dowse/internal/query"
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// decode turns the arena of n's run into the conditions of its events
// and drops the arena. It reports false (and records an internal error) if
// the arena is malformed.
//
// A run's trace comes from instrumented code: a condition that is no bool
// (a shadow attached to the wrong value) or a term the builder rejects
// makes the run concrete, like a concretization, and is reported once per
// target as an internal error; it never stops dowse.
func (e *explorer) decode(n *node) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			n.conds = nil
			e.malformed(n, fmt.Errorf("%v", r))
			ok = false
		}
	}()
	terms, err := e.sym.Decode(n.res.Nodes)
	n.res.Nodes = nil
	if err != nil {
		e.malformed(n, err)
		return false
	}
	conds := make([]*sym.Expr, len(n.res.Events))
	for i, ev := range n.res.Events {
		if ev.Cond == 0 || int(ev.Cond) >= len(terms) {
			continue
		}
		t := terms[ev.Cond]
		if t.Kind() != rt.KBool {
			e.malformed(n, fmt.Errorf("branch %d: condition of kind %v", i, t.Kind()))
			return false
		}
		conds[i] = t
	}
	n.conds = conds
	return true
}

// malformed records that run n's trace could not be turned into
// conditions: the first time for the target as an internal error.
func (e *explorer) malformed(n *node, err error) {
	e.hit[ReasonInternal] = true
	if e.malformedRuns++; e.malformedRuns == 1 {
		e.rep.Errors = append(e.rep.Errors, fmt.Sprintf("run %d: %v", n.run, err))
	}
}

// cond is the condition under which event i of n takes outcome taken, nil
// for a concrete branch.
func (e *explorer) cond(n *node, i int, taken bool) *sym.Expr {
	t := n.conds[i]
	if t != nil && !taken {
		t = e.sym.Not(t)
	}
	return t
}

// pathConds is the path condition of the first k events of n's run,
// without the conditions that are trivially true.
func (e *explorer) pathConds(n *node, k int) []*sym.Expr {
	var conds []*sym.Expr
	for i, ev := range n.res.Events[:k] {
		if t := e.cond(n, i, ev.Taken); t != nil && !t.IsTrue() {
			conds = append(conds, t)
		}
	}
	return conds
}

// expand negates the branches of n after its bound, one at a time, and
// returns the children whose inputs the solver found.
func (e *explorer) expand(ctx context.Context, n *node) ([]child, error) {
	events := n.res.Events
	var kids []child
	var path []*sym.Expr // the path condition up to event j
	asked := 0
	began := time.Now()
	for j := 0; j < len(events); j++ {
		ev := events[j]
		if n.conds[j] == nil {
			continue
		}
		if j < n.bound {
			if t := e.cond(n, j, ev.Taken); !t.IsTrue() {
				path = append(path, t)
			}
			continue
		}
		flipped := e.cond(n, j, !ev.Taken)
		key := n.prefix[j].add(ev.Site, !ev.Taken)
		again := j == n.retry && n.retryWas != nil && (moreInputs(flipped, n.retryWas) || flipped.Size() > n.retryWas.Size())
		if (!e.reached[key] || again) && !flipped.IsFalse() {
			if asked >= maxQueriesPerExpand || asked > 0 && time.Since(began) > expandSlice && e.sharing() {
				// The rest of this run's branches later: its children
				// run first, and mutants may take their turn.
				n.bound = j
				e.front.push(n)
				break
			}
			asked++
			if e.cfg.MaxRuns > 0 && e.runs+len(kids) >= e.cfg.MaxRuns {
				e.halt(ReasonMaxRuns)
				break
			}
			if !e.checkTime(ctx) {
				break
			}
			e.reached[key] = true
			q := query.Query{Constraints: append(path[:len(path):len(path)], flipped), Leaves: e.leaves, Seed: n.inputs, Timeout: e.cfg.SolverTimeout}
			ans, err := e.solve(ctx, q)
			if err == errInterrupted {
				e.interrupted(ctx)
				break
			}
			if err != nil {
				return nil, fmt.Errorf("solving for %s: %w", e.target.Name, err)
			}
			switch ans.Status {
			case query.Unsat:
				e.infeasible[Branch{ev.Site, !ev.Taken}] = true
				if len(e.boundChecks) < 4*maxBoundChecks && hasLengthBound(e.leaves) {
					e.boundChecks = append(e.boundChecks, boundCandidate{site: ev.Site, taken: !ev.Taken, conds: q.Constraints, seed: n.inputs})
				}
				if kid, ok, err := e.lengthFree(ctx, n, j, q, &asked); err != nil {
					return nil, err
				} else if ok {
					kids = append(kids, kid)
				}
			case query.Sat:
				if len(ans.Model) != len(e.leaves) {
					return nil, fmt.Errorf("solver returned %d values for %d leaves", len(ans.Model), len(e.leaves))
				}
				kids = append(kids, child{inputs: ans.Model, parent: n, flip: j})
			case query.Unknown:
				if len(e.rep.Unsolved) < MaxUnsolved {
					e.rep.Unsolved = append(e.rep.Unsolved, Unsolved{
						Site: ev.Site, Taken: !ev.Taken, PathCondition: sym.FormatAll(q.Constraints, e.leaves), Why: ans.Why,
					})
				}
			}
		} else if flipped.IsFalse() {
			e.rep.Unsat++ // infeasible by simplification alone
			e.infeasible[Branch{ev.Site, !ev.Taken}] = true
		}
		if t := e.cond(n, j, ev.Taken); !t.IsTrue() {
			path = append(path, t)
		}
	}
	return kids, nil
}

// maxQueriesPerExpand bounds the queries of one expansion: a run with
// hundreds of branches (and a slow solver) is expanded in slices, so that
// its children run early and the search stays responsive (mutants get
// their turns between slices).
const maxQueriesPerExpand = 16

// expandSlice bounds the time of one expansion while mutants share the
// time (see sharing): a few solver time-outs in a row would otherwise
// hold the search for the rest of the budget.
const expandSlice = time.Second

// errInterrupted says that a query was cut short by the time bound or a
// cancellation.
var errInterrupted = errors.New("interrupted")

// solve asks the solver and keeps the statistics.
func (e *explorer) solve(ctx context.Context, q query.Query) (query.Result, error) {
	if e.solver == nil {
		e.hit[ReasonNoSolver] = true
		return query.Result{Status: query.Unknown, Why: "no solver"}, nil
	}
	ans, err := e.ask(ctx, q)
	if err == nil && ans.Status == query.Unknown {
		if ans.TimedOut {
			e.hit[ReasonSolverTimeout] = true
		} else {
			e.hit[ReasonSolverUnknown] = true
		}
	}
	return ans, err
}

// ask asks the solver and keeps the statistics, as solve does, except
// that an undecided answer is not a reason the search is incomplete: the
// caller's verdict does not rest on it (a length-free query).
func (e *explorer) ask(ctx context.Context, q query.Query) (query.Result, error) {
	if e.solver == nil {
		return query.Result{Status: query.Unknown, Why: "no solver"}, nil
	}
	bctx := e.bounded(ctx)
	t0 := time.Now()
	ans, err := e.solver.Solve(bctx, q)
	e.rep.SolverTime += time.Since(t0)
	e.rep.Queries++
	if bctx.Err() != nil {
		// The time bound or a cancellation cut the query short: its
		// answer says nothing about the branch.
		return query.Result{}, errInterrupted
	}
	if err != nil {
		return ans, err
	}
	if ans.Cached {
		e.rep.CacheHits++
	}
	switch ans.Status {
	case query.Sat:
		e.rep.Sat++
	case query.Unsat:
		e.rep.Unsat++
	default:
		e.rep.UnknownAnswers++
	}
	return ans, nil
}

// sortBranches sorts outcomes by site, false before true.
func sortBranches(bs []Branch) {
	sort.Slice(bs, func(i, j int) bool {
		a, b := bs[i], bs[j]
		if a.Site != b.Site {
			return a.Site < b.Site
		}
		return !a.Taken && b.Taken
	})
}
