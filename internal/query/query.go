// Package query defines the question the explorer asks a solver — inputs
// under which a path condition holds — and the answer it gets back. It
// has no cgo, so that the explorer and its tests use the same types as
// the solver chain without linking Z3.
package query

import (
	"context"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Query asks for an input under which every constraint holds.
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
	// prefers seed values for the others where it can, so that the new
	// run stays close to the old one.
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
	Unsat                 // no input in the domain satisfies the query: the branch is infeasible
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
// for concurrent use; the explorer calls its solver from one goroutine,
// in an order that depends only on the exploration's inputs.
type Solver interface {
	Solve(ctx context.Context, q Query) (Result, error)
}
