// Package solver decides path conditions: given a conjunction of symbolic
// constraints over a target's inputs, it finds an input vector that
// satisfies them, proves that none exists, or gives up within a time
// bound.
//
// Solvers are decorators of one interface, in the manner of KLEE's solver
// chain: Independence slices a query into independent groups of
// constraints, Caching answers repeated queries and re-uses earlier models
// (the counterexample cache), and Z3 is the core that encodes constraints
// as bit-vector formulas for the Z3 SMT solver. New assembles the usual
// chain.
package solver

import (
	"context"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Query asks for an input vector satisfying every constraint.
type Query struct {
	// Constraints is a conjunction of bool terms. By convention the last
	// one is the negated branch the query tries to take; the others are
	// the path prefix.
	Constraints []*sym.Expr
	// Leaves is the input layout, which fixes the domain of each input:
	// its kind, lengths 0..Max for IsLen leaves, and strings of at most
	// Max bytes.
	Leaves []rt.Leaf
	// Seed is the current input, one value per leaf. Inputs the
	// constraints do not mention keep their seed values, and the solver
	// prefers seed values for the others where it can.
	Seed []rt.Value
	// Timeout bounds the query; zero means the solver's default. The
	// context's deadline applies too.
	Timeout time.Duration
}

// Status is a solver's verdict.
type Status int

// The verdicts. The zero Status is Unknown.
const (
	Unknown Status = iota // the solver gave up: time-out, cancellation, or a term it cannot encode
	Sat                   // Result.Model satisfies the query
	Unsat                 // no input in the domain satisfies the query
)

func (s Status) String() string {
	switch s {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Result is a solver's answer to a query.
type Result struct {
	Status Status
	Model  []rt.Value // Sat: one value per leaf, within the leaves' domains
	Cached bool       // answered without calling the core solver
	// TimedOut reports an Unknown caused by the query's time bound.
	TimedOut bool
	// Why explains an Unknown.
	Why string
}

// Solver decides queries. Implementations document whether they are safe
// for concurrent use.
type Solver interface {
	Solve(ctx context.Context, q Query) (Result, error)
}

// unknown is an Unknown result for the reason why.
func unknown(why string, timedOut bool) Result {
	return Result{Status: Unknown, Why: why, TimedOut: timedOut}
}

// clone copies the seed so that results never alias a caller's slice.
func clone(vs []rt.Value) []rt.Value { return append([]rt.Value(nil), vs...) }
