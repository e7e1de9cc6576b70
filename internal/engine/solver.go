package engine

import (
	"context"
	"time"

	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/solver"
)

// newSolver returns a fresh solver chain (independence slicing, caching,
// Z3) for one target, and the function that frees it.
func newSolver(timeout time.Duration) (explore.Solver, func()) {
	c := solver.New(solver.Config{Options: solver.Options{Timeout: timeout}})
	return chainSolver{c}, c.Close
}

// chainSolver adapts the solver chain to the explorer's interface.
type chainSolver struct{ c *solver.Chain }

func (s chainSolver) Solve(ctx context.Context, q *explore.Query) (explore.Answer, error) {
	r, err := s.c.Solve(ctx, solver.Query{Constraints: q.Conds, Leaves: q.Leaves, Seed: q.Seed, Timeout: q.Timeout})
	if err != nil {
		return explore.Answer{}, err
	}
	a := explore.Answer{Model: r.Model, Cached: r.Cached, TimedOut: r.TimedOut, Why: r.Why}
	switch r.Status {
	case solver.Sat:
		a.Verdict = explore.Sat
	case solver.Unsat:
		a.Verdict = explore.Unsat
	default:
		a.Verdict = explore.Unknown
	}
	return a, nil
}
