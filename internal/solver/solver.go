// Package solver decides path conditions: given a conjunction of symbolic
// constraints over a target's inputs, it finds an input vector that
// satisfies them, proves that none exists, or gives up within a time
// bound.
//
// Solvers are decorators of one interface, in the manner of KLEE's solver
// chain, each answering what it can and passing the rest down. New builds
// the chain, one layer at a time, top down (each layer's files start with
// its name):
//
//	Recording     record.go: writes every query to a corpus (EnvRecord)
//	Validating    validating.go: checks every answer (EnvValidate)
//	Independence  independence.go: slices a query into groups by shared inputs
//	Caching       caching.go: exact and counterexample caches
//	Order         order.go: comparisons between inputs and constants
//	Domains       domains.go: constraints on one small-domain part each
//	Refute        refute*.go: proofs of unsatisfiability without Z3
//	Neighbors     neighbors.go: a model next to the seed
//	Classes       classes*.go: search over value classes of small-domain parts
//	Pool          core_pool.go: Z3 cores, one goroutine each
//	Z3            core*.go: fixed-divisor search, linear integer arithmetic,
//	              the divisors' search, narrow and full bit-vector encodings
//
// Recording and Validating are there only when asked for; every layer
// between them and the pool, and the stages of Refute and of the core,
// can be left out (Config.Disable, EnvDisable, the names of Layers)
// without changing an answer.
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
