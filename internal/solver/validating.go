package solver

import (
	"context"
	"fmt"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Validation says what a Validating layer checks.
type Validation int

// The validations, each checking more than the one before.
const (
	ValidateOff Validation = iota // no Validating layer
	ValidateSat                   // every Sat model, by evaluation
	ValidateAll                   // Sat models, and Unsat answers against a bare Z3 core
)

// validationOf reads EnvValidate's value: "all" or "sat".
func validationOf(s string) Validation {
	switch s {
	case "":
		return ValidateOff
	case "all":
		return ValidateAll
	}
	return ValidateSat
}

// Validating is a debugging decorator that checks the answers of the
// solver below it. A Sat model must lie within the leaves' domains and
// make every constraint true when evaluated with Go's semantics
// (sym.Holds); an Unsat answer, if a bare core is given, must not be
// contradicted by a model the bare core finds (an Unknown from the bare
// core is accepted). An answer that fails is returned as an error naming
// the constraint, so that a wrong layer shows itself at the query that
// exposes it. It is safe for concurrent use if next and bare are.
type Validating struct {
	next Solver
	bare Solver // nil: Unsat answers are not checked
}

// NewValidating returns the layer over next; bare, if not nil, decides
// again every query next answers Unsat.
func NewValidating(next, bare Solver) *Validating {
	return &Validating{next: next, bare: bare}
}

// bareOptions are the options of a core that only encodes queries as
// bit-vectors: no search, no linear layer, no narrow attempt, no
// preferences.
func bareOptions(o Options) Options {
	return Options{
		Timeout:         o.Timeout,
		ContextQueries:  o.ContextQueries,
		KeepSeed:        true,
		NoLinear:        true,
		NoBox:           true,
		NoBoundedLinear: true,
		NoRelax:         true,
		NoPinSearch:     true,
		NoNarrow:        true,
	}
}

// Solve implements Solver.
func (v *Validating) Solve(ctx context.Context, q Query) (Result, error) {
	res, err := v.next.Solve(ctx, q)
	if err != nil {
		return res, err
	}
	switch {
	case res.Status == Sat:
		if err := modelHolds(q, res.Model); err != nil {
			return Result{}, fmt.Errorf("solver: validating: Sat model is wrong: %w", err)
		}
	case res.Status == Unsat && v.bare != nil:
		b, err := v.bare.Solve(ctx, q)
		if err != nil {
			return Result{}, fmt.Errorf("solver: validating an Unsat answer: %w", err)
		}
		if b.Status == Sat {
			if err := modelHolds(q, b.Model); err != nil {
				return Result{}, fmt.Errorf("solver: validating an Unsat answer: the bare core's model is wrong: %w", err)
			}
			return Result{}, fmt.Errorf("solver: validating: Unsat answer is wrong: the bare core found %v", b.Model)
		}
	}
	return res, nil
}

// modelHolds checks that model lies within q's domains and satisfies
// every constraint of q.
func modelHolds(q Query, model []rt.Value) error {
	if err := inDomain(q.Leaves, model); err != nil {
		return err
	}
	ev := sym.NewEvaluator(model)
	for i, c := range q.Constraints {
		ok, err := ev.Holds(c)
		if err != nil {
			return fmt.Errorf("constraint %d, %s: %w", i, sym.Format(c, q.Leaves), err)
		}
		if !ok {
			return fmt.Errorf("constraint %d, %s, is false", i, sym.Format(c, q.Leaves))
		}
	}
	return nil
}
