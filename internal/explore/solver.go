package explore

import (
	"context"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Query asks for inputs under which every condition of Conds holds: the
// path of a run up to a branch, and the negation of that branch's outcome
// (the last condition).
type Query struct {
	Conds  []*sym.Expr // bool terms
	Leaves []rt.Leaf   // the input layout: a model has one value per leaf and respects each leaf's domain (Max)
	// Seed is the input of the run the query comes from. Leaves the
	// conditions leave free should keep their seed values, so that the new
	// run stays close to the old one.
	Seed    []rt.Value
	Timeout time.Duration // 0: the solver's default
}

// Verdict is a solver's answer to a query.
type Verdict uint8

const (
	Unknown Verdict = iota // the solver gave up: time-out, or a constraint it cannot handle
	Sat                    // Model satisfies the query
	Unsat                  // no input satisfies the query: the branch is infeasible
)

func (v Verdict) String() string {
	switch v {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Answer is a solver's answer.
type Answer struct {
	Verdict  Verdict
	Model    []rt.Value // Sat: one value per leaf
	Cached   bool       // answered from a cache
	TimedOut bool       // Unknown because the time bound was hit
	Why      string     // Unknown: why the solver gave up
}

// Solver decides path conditions. Calls come from one goroutine, in an
// order that depends only on the exploration's inputs.
type Solver interface {
	Solve(ctx context.Context, q *Query) (Answer, error)
}
