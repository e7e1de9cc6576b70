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
	"github.com/dowse-go/dowse/internal/query"
	"github.com/dowse-go/dowse/rt"
)

// The query and answer types live in the cgo-free package query, so
// that the explorer uses them without linking Z3.
type (
	Query  = query.Query
	Result = query.Result
	Status = query.Status
	Solver = query.Solver
)

// The verdicts.
const (
	Unknown = query.Unknown
	Sat     = query.Sat
	Unsat   = query.Unsat
)

// unknown is an Unknown result for the reason why.
func unknown(why string, timedOut bool) Result {
	return Result{Status: Unknown, Why: why, TimedOut: timedOut}
}

// clone copies the seed so that results never alias a caller's slice.
func clone(vs []rt.Value) []rt.Value { return append([]rt.Value(nil), vs...) }
